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

The repository also keeps these editions as files, for the teacher who opens
one there: ``notebooks/zh/`` and ``notebooks/en/``, each with the lessons and
``solutions/`` in the same layout as the bilingual sources. They are generated,
never edited: ``reteval notebooks notebooks --editions`` rewrites them from the
sources (:func:`write_editions`), and ``tests/book/test_edition_files.py`` fails
when one differs from what its source gives. The package ships only the
bilingual sources (``--lang`` makes an edition from them).
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

__all__ = ["add_subcommands", "copy_notebooks", "edition_files", "one_language",
           "shipped_notebooks", "write_editions"]

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


def _sources(folder: Path) -> list[Path]:
    """The bilingual notebooks of ``folder``: its lessons, then ``solutions/``."""
    return sorted(folder.glob("[0-9][0-9]*_*.ipynb")) + sorted(
        (folder / "solutions").glob("*.ipynb"))


def edition_files(folder: str | os.PathLike) -> dict:
    """Every edition of the bilingual notebooks in ``folder``, by path relative to it.

    ``zh/NN_name.ipynb``, ``zh/solutions/NN_solutions.ipynb``, then the same under
    ``en/``: each the :func:`one_language` edition of the source of that name.

    Raises
    ------
    InputError
        ``folder`` holds no bilingual notebooks, or one of them is already an edition.

    Examples
    --------
    >>> files = edition_files(shipped_notebooks())
    >>> [p.as_posix() for p in files if p.name.startswith("01_")]
    ['zh/01_measures.ipynb', 'zh/solutions/01_solutions.ipynb', \
'en/01_measures.ipynb', 'en/solutions/01_solutions.ipynb']
    >>> files[Path("en/01_measures.ipynb")].metadata["reteval"]["lang"]
    'en'
    """
    from reteval.book.editions import LANGUAGES, read_notebook

    folder = Path(folder)
    sources = _sources(folder)
    if not sources:
        raise InputError("holds no notebooks named NN_name.ipynb", path=folder)
    for path in sources:
        if "lang" in read_notebook(path).metadata.get("reteval", {}):
            raise InputError("is an edition (one language), not a bilingual source", path=path)
    return {Path(lang, path.relative_to(folder)): one_language(path, lang)
            for lang in LANGUAGES for path in sources}


def write_editions(folder: str | os.PathLike) -> list[Path]:
    """Write :func:`edition_files` into ``folder`` (``folder/zh``, ``folder/en``).

    Files already there are replaced, and a notebook of an edition folder whose
    source is gone (renamed, split) is removed, so that the folders hold exactly
    the editions of the sources.

    Returns
    -------
    list of Path
        The files written.
    """
    import nbformat

    from reteval.book.editions import LANGUAGES

    folder = Path(folder)
    files = {folder / relative: notebook for relative, notebook in edition_files(folder).items()}
    for lang in LANGUAGES:
        for stale in sorted((folder / lang).rglob("*.ipynb")):
            if stale not in files:
                stale.unlink()
    for target, notebook in files.items():
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            nbformat.write(notebook, str(target))
        except OSError as exc:
            raise InputError(f"cannot write: {exc.strerror}", path=target) from None
    return list(files)


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
    files = _sources(source)
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
    if args.editions:
        if args.lang is not None:
            raise InputError("--editions writes both editions; leave out --lang")
        written = write_editions(args.dest)
        folders = sorted({str(path.relative_to(args.dest).parts[0]) for path in written})
        print(f"{len(written)} edition files written to "
              f"{' and '.join(str(Path(args.dest, f)) for f in folders)}")
        return 0
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
        "`reteval run --notebooks DEST`. Existing files are never overwritten. With "
        "--editions, write the Chinese and English editions of the bilingual notebooks in DEST "
        "into DEST/zh and DEST/en instead, replacing those there (the repository's: "
        "`reteval notebooks notebooks --editions`).",
    )
    p.add_argument("dest", metavar="DEST", help="folder to copy into (made if missing)")
    p.add_argument("--lang", choices=("zh", "en"), default=None,
                   help="write one edition (that language only) instead of the bilingual sources")
    p.add_argument("--editions", action="store_true",
                   help="write both editions of DEST's bilingual notebooks into DEST/zh and "
                   "DEST/en, replacing the files there")
    p.set_defaults(handler=_cmd_notebooks)
