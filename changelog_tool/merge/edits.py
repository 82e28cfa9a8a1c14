"""How a merge's refusals name the sides."""


def possessive(name: str) -> str:
    """``ours'``, ``theirs'``, ``base's``: the possessive of a side's name."""
    return f"{name}'" if name.endswith("s") else f"{name}'s"
