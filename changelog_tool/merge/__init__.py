"""The conflict resolver: the pure three-way merge, what each side did since the base, which side is protected, and the outcome."""
