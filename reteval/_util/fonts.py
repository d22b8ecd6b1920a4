"""Chinese (CJK) text in matplotlib figures.

matplotlib's default font, DejaVu Sans, has no Chinese glyphs: a label such as
``召回率`` renders as empty boxes. :func:`use_cjk_font` finds an installed CJK
font and appends it to ``rcParams["font.family"]``, so Latin text keeps its
usual font and every Chinese glyph falls back to the CJK font (matplotlib >= 3.6
falls back per glyph along that list). ``make run`` and ``make test`` install
Debian's ``fonts-noto-cjk``; with no CJK font installed, it warns once and
figures still render (Chinese glyphs as boxes).
"""

from __future__ import annotations

import functools
import warnings

__all__ = ["CJK_FONTS", "use_cjk_font"]

#: Font families tried in order: Noto/Source Han (Linux, the set-up installs Noto),
#: then the usual macOS and Windows fonts.
CJK_FONTS = (
    "Noto Sans CJK SC",
    "Noto Sans SC",
    "Source Han Sans SC",
    "Noto Serif CJK SC",
    "WenQuanYi Zen Hei",
    "WenQuanYi Micro Hei",
    "PingFang SC",
    "Hiragino Sans GB",
    "Microsoft YaHei",
    "SimHei",
    "Arial Unicode MS",
)


@functools.lru_cache(maxsize=1)
def _installed_cjk_font() -> str | None:
    from matplotlib import font_manager

    installed = {font.name for font in font_manager.fontManager.ttflist}
    return next((name for name in CJK_FONTS if name in installed), None)


def use_cjk_font(*, warn: bool = True) -> str | None:
    """Let matplotlib draw Chinese text with an installed CJK font.

    Parameters
    ----------
    warn : bool, default True
        Warn (once per process) when no CJK font is installed.

    Returns
    -------
    str or None
        The CJK font family now used for Chinese glyphs, or None if none was found.

    Examples
    --------
    >>> from reteval._util.fonts import use_cjk_font
    >>> font = use_cjk_font(warn=False)
    >>> font is None or isinstance(font, str)
    True
    """
    import matplotlib

    font = _installed_cjk_font()
    if font is None:
        if warn:
            _warn_missing()
        return None
    families = list(matplotlib.rcParams["font.family"])
    if font not in families:
        matplotlib.rcParams["font.family"] = [*families, font]
    return font


@functools.lru_cache(maxsize=1)
def _warn_missing() -> None:
    warnings.warn(
        "no CJK font is installed: Chinese text in figures will show as boxes. "
        "Install one (Debian: apt-get install fonts-noto-cjk; `make setup` does).",
        stacklevel=3,
    )
