"""Showing the chapter's code in a notebook."""

from __future__ import annotations

import inspect

__all__ = ["show_source"]


class _Source:
    """Source text that renders as highlighted Python in Jupyter and as plain text elsewhere."""

    def __init__(self, text: str):
        self.text = text

    def __repr__(self) -> str:
        return self.text

    def _repr_markdown_(self) -> str:
        return f"```python\n{self.text}```"


def show_source(*objects) -> _Source:
    """The source code of functions or classes, to display in a notebook.

    Parameters
    ----------
    *objects : function or class
        What to show, in order.

    Returns
    -------
    object
        Displays as a Python code block in Jupyter; ``repr`` gives the text.

    Examples
    --------
    >>> from reteval.teaching import mrr
    >>> print(repr(show_source(mrr)).splitlines()[0])
    def mrr(retrieved_docs, relevant_docs):
    """
    return _Source("\n".join(inspect.getsource(obj) for obj in objects))
