"""LaTeX text for tables: escaping and the letters that name systems.

Examples
--------
>>> tex_escape("P@5 & 50% of #1")
'P@5 \\\\& 50\\\\% of \\\\#1'
>>> [system_letters(k) for k in (0, 25, 26)]
['a', 'z', 'aa']
"""

__all__ = ["system_letters", "tex_escape"]

_SPECIAL = {
    "\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
    "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
    "<": r"\textless{}", ">": r"\textgreater{}", "|": r"\textbar{}",
}


def tex_escape(text) -> str:
    """``text`` with every character LaTeX treats specially written as itself."""
    return "".join(_SPECIAL.get(ch, ch) for ch in str(text))


def system_letters(k: int) -> str:
    """The label of the ``k``-th system (from 0): a, b, ..., z, aa, ab, ..."""
    out = ""
    k += 1
    while k:
        k, r = divmod(k - 1, 26)
        out = chr(ord("a") + r) + out
    return out
