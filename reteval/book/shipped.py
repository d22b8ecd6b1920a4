"""The notebooks an installed package carries, and ``reteval notebooks DEST`` to copy them out.

The lessons (``notebooks/NN_name.ipynb``) and their worked solutions
(``notebooks/solutions/``) are installed with the package as data files, into
``<prefix>/share/reteval/notebooks`` (``[tool.setuptools.data-files]`` in
``pyproject.toml``). Someone who installed reteval without its repository gets
them with ``reteval notebooks DEST``, then runs them with
``reteval run --notebooks DEST``. In a source checkout the repository's own
``notebooks/`` folder is used. ``--lang zh`` or ``--lang en`` writes one
edition instead of the bilingual sources (:mod:`reteval.book.editions`): one
language's prose, and the parameters cell's ``lang`` set to it, so that a
teacher who opens a file in JupyterLab, or runs it with papermill, gets one
language.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import sys
import sysconfig
from pathlib import Path

from reteval.errors import InputError

__all__ = ["add_subcommands", "copy_notebooks", "one_language", "shipped_notebooks"]

#: Where an installation puts the notebooks, below its data prefix.
SHARE = Path("share", "reteval", "notebooks")


def _candidates() -> list[Path]:
    """The folders that may hold the notebooks: the checkout's, then the installed ones."""
    checkout = Path(__file__).resolve().parents[2] / "notebooks"
    prefixes = [sysconfig.get_path("data"), sys.prefix]
    with contextlib.suppress(KeyError):  # no user scheme on this platform
        prefixes.append(sysconfig.get_path("data", f"{os.name}_user"))
    return [checkout, *(Path(p) / SHARE for p in dict.fromkeys(prefixes) if p)]


def shipped_notebooks() -> Path:
    """The folder holding the notebooks that came with reteval.

    Raises
    ------
    InputError
        No folder holds them; the message lists where it looked.

    Examples
    --------
    >>> sorted(shipped_notebooks().glob("01_*.ipynb"))[0].name
    '01_measures.ipynb'
    """
    candidates = _candidates()
    for folder in candidates:
        if any(folder.glob("[0-9][0-9]*_*.ipynb")):
            return folder
    raise InputError("this installation of reteval carries no notebooks; looked in "
                     f"{[str(c) for c in candidates]}")


def one_language(path: str | os.PathLike, lang: str):
    """The ``lang`` edition of a bilingual notebook, its parameters cell's ``lang`` set to it.

    Examples
    --------
    >>> nb = one_language(shipped_notebooks() / "01_measures.ipynb", "en")
    >>> nb.metadata["reteval"]["lang"], sorted({t for c in nb.cells
    ...                                         for t in c.metadata.get("tags", [])
    ...                                         if t.startswith("lang-")})
    ('en', ['lang-en'])
    """
    from reteval.book.editions import edition

    result = edition(path, lang)
    for cell in result.cells:
        if "parameters" in cell.metadata.get("tags", ()):
            cell.source, found = _LANG_LINE.subn(rf'\g<1>"{lang}"', cell.source, count=1)
            if not found:
                raise InputError("the parameters cell assigns no lang", path=path)
    return result


_LANG_LINE = re.compile(r"""^(lang\s*=\s*)["'][a-z]+["']""", re.MULTILINE)


def copy_notebooks(dest: str | os.PathLike, *, lang: str | None = None) -> list[Path]:
    """Copy the lessons and their solutions into ``dest`` (``dest/solutions/`` for the latter).

    With ``lang`` (``"zh"`` or ``"en"``) each file is that edition (:func:`one_language`),
    else the bilingual source.

    Returns
    -------
    list of Path
        The files written, lessons first.

    Raises
    ------
    InputError
        ``dest`` is a file, or already holds one of the notebooks (nothing is overwritten:
        edited copies stay yours).
    """
    if lang is not None:
        import nbformat

        from reteval._util.catalogue import check_lang

        check_lang(lang)
    source = shipped_notebooks()
    dest = Path(dest)
    files = sorted(source.glob("[0-9][0-9]*_*.ipynb")) + sorted(
        (source / "solutions").glob("*.ipynb"))
    targets = [dest / f.relative_to(source) for f in files]
    if dest.exists() and not dest.is_dir():
        raise InputError("the destination is a file, not a folder", path=dest)
    there = [t for t in targets if t.exists()]
    if there:
        raise InputError(f"already holds {len(there)} of the notebooks (e.g. "
                         f"{there[0].relative_to(dest).as_posix()}); nothing is overwritten: "
                         "choose an empty folder", path=dest)
    for file, target in zip(files, targets, strict=True):
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            if lang is None:
                shutil.copyfile(file, target)
            else:
                nbformat.write(one_language(file, lang), str(target))
        except OSError as exc:
            raise InputError(f"cannot write: {exc.strerror}", path=target) from None
    return targets


def _cmd_notebooks(args) -> int:
    written = copy_notebooks(args.dest, lang=args.lang)
    lessons = sum(1 for p in written if p.parent == Path(args.dest))
    print(f"{lessons} notebooks and {len(written) - lessons} solutions copied to {args.dest}; "
          f"run them with: reteval run --notebooks {args.dest}")
    return 0


def add_subcommands(subparsers) -> None:
    """Add ``reteval notebooks DEST`` to the command line."""
    p = subparsers.add_parser(
        "notebooks", help="copy the teaching notebooks that came with reteval into a folder",
        description="Copy the lessons (NN_name.ipynb) and their solutions (solutions/) that "
        "were installed with reteval into DEST, to open in JupyterLab or run with "
        "`reteval run --notebooks DEST`. Existing files are never overwritten.",
    )
    p.add_argument("dest", metavar="DEST", help="folder to copy into (made if missing)")
    p.add_argument("--lang", choices=("zh", "en"), default=None,
                   help="write one edition (that language only) instead of the bilingual sources")
    p.set_defaults(handler=_cmd_notebooks)
