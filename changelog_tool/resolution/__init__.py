"""What `sync`, `finalize` and `resolve` do beyond parsing and printing: the
rebuild on the protected ref, and git's own record of the operation in progress."""
