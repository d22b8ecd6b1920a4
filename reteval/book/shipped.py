"""The notebooks an installed package carries, and ``reteval notebooks DEST`` to copy them out.

The lessons (``notebooks/NN_name.ipynb``) and their worked solutions
(``notebooks/solutions/``) are installed with the package as data files, into
``<prefix>/share/reteval/notebooks`` (``[tool.setuptools.data-files]`` in
``pyproject.toml``). Someone who installed reteval without its repository gets
them with ``reteval notebooks DEST``, then runs them with
``reteval run --notebooks DEST``. In a source checkout the repository's own
``notebooks/`` folder is used.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sys
import sysconfig
from pathlib import Path

from reteval.errors import InputError

__all__ = ["add_subcommands", "copy_notebooks", "shipped_notebooks"]

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


def copy_notebooks(dest: str | os.PathLike) -> list[Path]:
    """Copy the lessons and their solutions into ``dest`` (``dest/solutions/`` for the latter).

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
            shutil.copyfile(file, target)
        except OSError as exc:
            raise InputError(f"cannot write: {exc.strerror}", path=target) from None
    return targets


def _cmd_notebooks(args) -> int:
    written = copy_notebooks(args.dest)
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
    p.set_defaults(handler=_cmd_notebooks)
