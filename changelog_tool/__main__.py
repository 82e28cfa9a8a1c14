"""`python -m changelog_tool`: the ``changelog`` command (git runs the merge driver so)."""

from changelog_tool.cli import entry_point

if __name__ == "__main__":
    entry_point()
