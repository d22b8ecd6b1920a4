"""An example notebook's words (the shape every ``nbNN`` module has; used by the docs' examples)."""

TEXTS = {
    "example": ("笔记本中的一条文字", "an entry of a notebook"),
}
