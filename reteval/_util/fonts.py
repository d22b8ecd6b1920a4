"""Chinese (CJK) text in matplotlib figures.

matplotlib's default font, DejaVu Sans, has no Chinese glyphs: a label such as
``召回率`` renders as empty boxes. :func:`use_cjk_font` finds an installed CJK
font and appends it to ``rcParams["font.family"]``, so Latin text keeps its
usual font and every Chinese glyph falls back to the CJK font (matplotlib >= 3.6
falls back per glyph along that list). ``make run`` and ``make test`` install
Debian's ``fonts-noto-cjk`` before anything imports matplotlib.

**A stale font cache.** matplotlib lists the installed fonts once and keeps the
list in its cache (``fontlist-v*.json`` in ``matplotlib.get_cachedir()``); a CJK
font installed after that (the usual case: matplotlib ran once before the font
was installed) is unknown to it. When no CJK font is in matplotlib's list but
fontconfig (``fc-list :lang=zh``) knows one, the list is rebuilt and the cache
rewritten, so this process and the next ones find the font.

**With no CJK font**, :func:`use_cjk_font` warns once and figures still render
(Chinese glyphs as boxes); :func:`require_cjk_font`, which ``reteval run`` calls
before the Chinese edition, raises :class:`~reteval.errors.MissingFontError`
instead, and an executed notebook of that edition in which matplotlib warned
"Glyph ... missing" (a figure saved or displayed with boxes) stops the run with
one error.
"""

from __future__ import annotations

import functools
import shutil
import subprocess
import warnings

from reteval.errors import MissingFontError

__all__ = ["CJK_FONTS", "figure_text", "fontconfig_cjk_files", "require_cjk_font", "use_cjk_font"]

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

#: How matplotlib's warning for a glyph missing from every font of a text starts
#: ("Glyph 21484 (...) missing from font(s) DejaVu Sans.").
GLYPH_MISSING = "Glyph"

_INSTALL = ("install one (Debian: apt-get install fonts-noto-cjk; `make fonts` does, "
            "and `make run` runs it first)")


def fontconfig_cjk_files() -> list[str]:
    """The font files fontconfig lists as covering Chinese (``fc-list :lang=zh``).

    Empty when fontconfig is not installed (macOS and Windows without it).

    Examples
    --------
    >>> all(isinstance(path, str) for path in fontconfig_cjk_files())
    True
    """
    if shutil.which("fc-list") is None:
        return []
    try:
        out = subprocess.run(["fc-list", ":lang=zh", "file"], capture_output=True, text=True,
                             check=True, timeout=30).stdout
    except (OSError, subprocess.SubprocessError):
        return []
    return sorted({line.strip().rstrip(":") for line in out.splitlines() if line.strip()})


def _known_cjk_font(font_manager, files=()) -> str | None:
    """The first of :data:`CJK_FONTS` matplotlib knows, else a font it knows from ``files``."""
    installed = {font.name for font in font_manager.fontManager.ttflist}
    found = next((name for name in CJK_FONTS if name in installed), None)
    if found is None and files:
        wanted = set(files)
        found = next((font.name for font in font_manager.fontManager.ttflist
                      if font.fname in wanted), None)
    return found


def _rebuild_font_list(font_manager) -> None:
    """List the installed fonts again (as matplotlib does without a cache) and rewrite the cache."""
    from pathlib import Path

    import matplotlib

    fresh = font_manager.FontManager()
    current = font_manager.fontManager  # the instance every matplotlib module holds
    current.ttflist = fresh.ttflist
    current.afmlist = fresh.afmlist
    current._findfont_cached.cache_clear()
    version = font_manager.FontManager.__version__
    # json_dump only logs an unwritable cache: this process has the fonts all the same.
    font_manager.json_dump(current, Path(matplotlib.get_cachedir(), f"fontlist-v{version}.json"))


@functools.lru_cache(maxsize=1)
def _installed_cjk_font() -> str | None:
    from matplotlib import font_manager

    found = _known_cjk_font(font_manager)
    if found is not None:
        return found
    files = fontconfig_cjk_files()
    known = {font.fname for font in font_manager.fontManager.ttflist}
    if any(path not in known for path in files):  # installed after matplotlib's cache was made
        _rebuild_font_list(font_manager)
    return _known_cjk_font(font_manager, files)


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


def require_cjk_font() -> str:
    """:func:`use_cjk_font`, or a :class:`~reteval.errors.MissingFontError` when there is none.

    ``reteval run`` calls this before it runs the Chinese edition, and fails a
    notebook of that edition in which matplotlib warned that a glyph is missing
    (:data:`GLYPH_MISSING`): a figure that still drew boxes stops the run.

    Returns
    -------
    str
        The CJK font family used for Chinese glyphs.

    Raises
    ------
    MissingFontError
        No CJK font is installed (neither matplotlib nor fontconfig knows one).

    Examples
    --------
    >>> from reteval._util.fonts import require_cjk_font
    >>> require_cjk_font()  # doctest: +SKIP
    'Noto Sans CJK SC'
    """
    font = use_cjk_font(warn=False)
    if font is None:
        raise MissingFontError(
            "the Chinese edition needs a CJK font for its figures and none is installed "
            f"(fc-list :lang=zh lists none that matplotlib can read): {_INSTALL}")
    return font


@functools.lru_cache(maxsize=1)
def _warn_missing() -> None:
    warnings.warn(
        f"no CJK font is installed: Chinese text in figures will show as boxes; {_INSTALL}",
        stacklevel=3,
    )


def figure_text(text) -> str:
    """``text`` as matplotlib must get it to show it as written, in a title, an axis or a legend.

    ``$`` is escaped (it would start mathtext), and a leading ``_`` is kept behind
    a zero-width space: matplotlib leaves out of a legend every label that starts
    with ``_``, so a system named ``_baseline`` would vanish from it.

    Examples
    --------
    >>> figure_text("_bm25 $5")
    '\\u200b_bm25 \\\\$5'
    """
    text = str(text).replace("$", r"\$")
    return "\u200b" + text if text.startswith("_") else text
