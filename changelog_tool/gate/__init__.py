"""The CI gate: the one entry-acceptance rule, pr-link policy, opt-out, suggestions, the verdict."""
