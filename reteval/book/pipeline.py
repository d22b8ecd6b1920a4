"""The notebook pipeline: every notebook, in order, headless through papermill.

``reteval run`` (and ``make run``) executes each ``notebooks/NN_name.ipynb`` with
parameters from one YAML file and writes into ``OUTPUT/<lang>/NN_name/``: the
executed notebook, its figures and its machine-readable results.

**Editions.** The notebooks are bilingual sources (:mod:`reteval.book.editions`). ``lang`` picks
the edition: ``zh`` (the default), ``en``, or ``all`` (both: side by side, one edition per CPU
core, or Chinese first, then English on one core; ``jobs`` decides). What runs, and what is saved,
is the edition: the source without the other language's prose. A notebook that declares ``lang`` in
its parameters cell gets the edition's language. An edition file (``notebooks/en``) runs in its own
language only.

The parameters file::

    lang: zh             # zh, en or all; --lang on the command line wins
    common:              # given to the notebooks that declare the parameter
      seed: 0
    notebooks:           # per notebook (by file stem), overriding common
      05_retriever_comparison:
        retrievers: [bm25, vector, hybrid, reranked]
    order: [01_measures, 05_retriever_comparison, 10_report]

**How parameters reach a notebook, so that the pipeline never silently changes a notebook's
lesson.** A notebook's defaults (its ``parameters`` cell) are its lesson. A value under
``notebooks:`` is written for that notebook: it must be declared there (anything else is an error).
A value under ``common:`` goes only to the notebooks that declare that parameter, and every
notebook default it replaces is reported: logged (``common: dataset='teaching' overrides
07_ab_test's default 'synthetic'``) and recorded in :attr:`NotebookResult.overrides`. Keep in
``common`` only what every notebook may share; a choice that changes what one notebook shows
belongs to that notebook's section.

**Parameters on the command line.** ``reteval run --only NAME -p key=value`` (repeatable) sets
``key`` for every notebook that runs, over the file's sections; each value is read as YAML
(``-p k=10 -p ks="[5, 10]" -p retriever=bm25``), and each notebook that runs must declare the
key. ``-p lang=...`` is refused: the edition is chosen by ``--lang``.

The file is plain data (text, numbers, booleans, lists, mappings with text keys; an
unquoted date is its ISO text); aliases, sets, binary values, deep nesting are refused.

A string value may contain ``{output}``, replaced by ``OUTPUT/<lang>``, so that one notebook can
read another's results of the same edition (e.g. ``"{output}/05_retriever_comparison"``). Notebooks
run in name order; an optional top-level ``order`` list (of notebook stems) runs those first, in
that order, and the others after them (a name with no notebook is skipped, and said). Each gets
``output_dir``.

Progress: one bar over the notebooks and one over the cells of each running notebook
(:mod:`reteval._util.progress`: on a terminal only, never with ``--quiet``); the kernels
run with ``RETEVAL_PROGRESS=off`` and ``RETEVAL_CACHE_DIR=OUTPUT/.cache``: a collection's
embeddings are computed once for every notebook and edition (:mod:`reteval.retrievers.cache`).

On a failure the run stops, the partial executed notebook is kept, and the error names the
notebook, the edition and the cell: its index (from 0) in the saved executed notebook, the file to
open, which holds the edition's cells, the injected parameters and papermill's error marks; and its
``In [N]``. A cell that raised, a kernel that died, a source that is not a notebook and an output
that cannot be written are each one :class:`~reteval.errors.RetevalError`. At the end,
``reteval run`` writes the book (:mod:`reteval.book`): ``OUTPUT/index.html`` and an HTML page
per executed edition.
"""

from __future__ import annotations

import contextlib
import logging
import os
import sys
import time
from pathlib import Path
from types import MappingProxyType
from typing import NamedTuple

from reteval._util.languages import DEFAULT_LANG, LANGUAGES
from reteval.book.paramfile import LANG_CHOICES, load_params
from reteval.errors import InputError, RetevalError

__all__ = ["NotebookFailed", "NotebookResult", "add_subcommands", "languages", "load_params",
           "notebook_parameters", "notebook_paths", "run_pipeline"]



class NotebookFailed(RetevalError):
    """A notebook raised an error while the pipeline ran it."""


class NotebookResult(NamedTuple):
    """One executed edition of a notebook: where its output went and how long it took.

    ``overrides`` maps each parameter whose notebook default a ``common`` value
    replaced to ``(default source text, value given)``.
    """

    name: str
    output_dir: Path
    notebook: Path
    seconds: float
    lang: str = DEFAULT_LANG
    overrides: dict = MappingProxyType({})  # read-only when empty by default


def _substitute(value, output: str):
    if isinstance(value, str):
        return value.replace("{output}", output)
    if isinstance(value, list):
        return [_substitute(v, output) for v in value]
    if isinstance(value, dict):
        return {k: _substitute(v, output) for k, v in value.items()}
    return value


def notebook_paths(notebooks_dir: str | os.PathLike, only=None, order=()) -> list[Path]:
    """The pipeline's notebooks (``NN_name.ipynb``; ``NNb_name.ipynb`` for a chapter's second one).

    Those named in ``order`` come first, then the others by name.
    """
    folder = Path(notebooks_dir)
    if not folder.is_dir():
        raise InputError(f"no such notebooks folder (looked in {folder.resolve()}); name the "
                         "folder with --notebooks DIR, or copy the notebooks that came with "
                         "reteval out with `reteval notebooks DIR`", path=folder)
    paths = sorted(p for p in folder.glob("[0-9][0-9]*_*.ipynb"))
    unknown = set(order) - {p.stem for p in paths}
    if unknown:
        raise InputError(f"'order' names unknown notebooks {sorted(unknown)}; "
                         f"have {[p.stem for p in paths]}")
    rank = {name: i for i, name in enumerate(order)}
    paths.sort(key=lambda p: (rank.get(p.stem, len(rank)), p.name))
    if only:
        wanted = set(only)
        unknown = wanted - {p.stem for p in paths}
        if unknown:
            raise InputError(f"unknown notebooks {sorted(unknown)}; have {[p.stem for p in paths]}")
        paths = [p for p in paths if p.stem in wanted]
    if not paths:
        raise InputError("no notebooks named NN_name.ipynb", path=folder)
    return paths


def _read_source(path: Path):
    """A notebook source, read and checked against the notebook format.

    Raises
    ------
    InputError
        The file is unreadable, not JSON, or not a valid notebook.
    """
    import warnings

    import nbformat

    try:
        with warnings.catch_warnings():  # a notebook's flaws are reported once, in the error
            warnings.simplefilter("ignore")
            notebook = nbformat.read(str(path), as_version=4)
            nbformat.validate(notebook)
    except FileNotFoundError:
        raise InputError("no such notebook", path=path) from None
    except OSError as exc:
        raise InputError(f"cannot read the notebook: {exc.strerror}", path=path) from None
    except RecursionError:
        raise InputError("not a valid notebook (.ipynb): nested too deeply", path=path) from None
    except (ValueError, KeyError, TypeError, AttributeError, IndexError,
            nbformat.ValidationError) as exc:  # not JSON, not UTF-8, or not a notebook's shape
        reason = " ".join(str(getattr(exc, "message", exc)).split())[:200]
        raise InputError(f"not a valid notebook (.ipynb): {reason}", path=path) from None
    return notebook


def _check_edition(source, path: Path, langs) -> None:
    """An edition file (one language, e.g. notebooks/en) runs in its own language only."""
    made_for = source.metadata.get("reteval", {}).get("lang")
    if made_for is not None and set(langs) != {made_for}:
        raise InputError(f"is the {made_for} edition (one language): run it with --lang "
                         f"{made_for}, or run the bilingual notebooks of notebooks/ for "
                         f"{'/'.join(langs)}", path=path)


def _failed_cell(executed: Path) -> tuple[int | None, int | None]:
    """The failed cell of a saved executed notebook: (index from 0, execution count).

    The cell with an error output or papermill's exception mark; else (a kernel
    that died) the last cell papermill started. ``(None, None)`` when the file
    does not say.
    """
    import nbformat

    try:
        cells = nbformat.read(str(executed), as_version=4).cells
    except Exception:  # noqa: BLE001 - only a better message is at stake
        return None, None
    started = None
    for index, cell in enumerate(cells):
        run = cell.get("metadata", {}).get("papermill", {})
        if run.get("exception") is True or any(
                out.get("output_type") == "error" for out in cell.get("outputs", ())):
            return index, cell.get("execution_count")
        if cell.get("cell_type") == "code" and run.get("start_time"):
            started = index
    if started is None:
        return None, None
    return started, cells[started].get("execution_count")


def _cell_words(executed: Path) -> str:
    index, count = _failed_cell(executed)
    if index is None:
        return "in a cell not recorded"
    shown = "In [ ]" if count is None else f"In [{count}]"
    return f"in cell {index} (from 0, {shown}) of {executed}"


def _default_value(source: str | None):
    """A notebook default (its source text) as a value, or the text itself when not a literal."""
    if source is None:
        return None
    import ast

    try:
        return ast.literal_eval(source)
    except (ValueError, SyntaxError):
        return source


@contextlib.contextmanager
def _kernel_environment(**variables):
    """Set environment variables for the kernels started inside the block, then restore them."""
    saved = {name: os.environ.get(name) for name in variables}
    os.environ.update(variables)
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def notebook_parameters(params: dict, name: str, declared: dict) -> tuple[dict, dict]:
    """The parameters ``reteval run`` gives notebook ``name``, and the defaults they replace.

    Parameters
    ----------
    params : dict
        As :func:`load_params` returns.
    name : str
        The notebook's file stem.
    declared : dict
        The notebook's parameters cell, as ``papermill.inspect_notebook`` reads it.

    Returns
    -------
    values : dict
        ``common`` values the notebook declares, then its own section over them.
    overrides : dict
        Parameter -> (notebook default, common value), where ``common`` changes a default.

    Raises
    ------
    InputError
        The notebook's section sets a parameter its parameters cell does not declare.

    Examples
    --------
    >>> params = {"common": {"seed": 1, "lang": "en"}, "notebooks": {"nb": {"k": 5}}}
    >>> notebook_parameters(params, "nb", {"seed": {"default": "0"}, "k": {"default": "3"}})
    ({'seed': 1, 'k': 5}, {'seed': ('0', 1)})
    """
    given = dict(params["notebooks"].get(name, {}))
    undeclared = set(given) - set(declared)
    if undeclared:
        raise InputError(f"parameters {sorted(undeclared)} are not declared in {name}'s "
                         f"parameters cell; it declares {sorted(declared)}")
    common = {k: v for k, v in params["common"].items() if k in declared and k not in given}
    overrides = {}
    for key, value in common.items():
        default = declared[key].get("default")
        if _default_value(default) != value:
            overrides[key] = (default, value)
    return {**common, **given}, overrides


def _check_set(set_params, name: str, declared: dict) -> None:
    """Every ``-p`` key is declared by notebook ``name``; else one error naming the key."""
    for key in sorted(set(set_params or ()) - set(declared)):
        raise InputError(f"-p {key}: {name} declares no parameter {key!r} (it declares "
                         f"{sorted(declared)}); -p sets every notebook that runs: choose "
                         "them with --only")


def _shown(path: Path) -> str:
    """``path`` as the executed notebook shows it: relative to the working directory (the
    kernel's) when it lies below it, so no build machine's folders appear in the book."""
    here = Path.cwd()
    return path.relative_to(here).as_posix() if path.is_relative_to(here) else str(path)


def languages(lang: str | None, params: dict | None = None) -> list[str]:
    """The editions to run: ``lang``, else the parameters' ``lang``, else ``zh``; ``all`` is zh, en.

    Examples
    --------
    >>> languages(None, {"lang": "en"}), languages("all", {"lang": "en"})
    (['en'], ['zh', 'en'])
    """
    chosen = lang or (params or {}).get("lang") or DEFAULT_LANG
    if chosen not in LANG_CHOICES:
        raise InputError(f"unknown language {chosen!r}; expected one of {list(LANG_CHOICES)}")
    return list(LANGUAGES) if chosen == "all" else [chosen]


def run_pipeline(
    params: dict | str | os.PathLike | None = None,
    *,
    output: str | os.PathLike = "outputs",
    notebooks_dir: str | os.PathLike = "notebooks",
    only=None,
    lang: str | None = None,
    log=None,
    quiet: bool = False,
    jobs: int | None = None,
    set_params: dict | None = None,
) -> list[NotebookResult]:
    """Execute every notebook's edition in order with papermill.

    Parameters
    ----------
    params : dict, path or None
        Parameters (see the module docstring) or a YAML file holding them.
    output : path, default "outputs"
        Each edition writes into ``output/<lang>/<notebook stem>/``.
    notebooks_dir : path, default "notebooks"
    only : sequence of str, optional
        Run only these notebooks (by stem), still in order.
    lang : {"zh", "en", "all"}, optional
        The editions to run; default: the parameters' ``lang``, else ``"zh"``.
        ``"all"`` runs every notebook in Chinese, then every notebook in English.
    log : callable, optional
        Called with one line per notebook, and one per notebook default that
        a ``common`` value overrides.
    quiet : bool, default False
        No progress bars.
    jobs : int, optional
        How many editions run side by side, each notebook in its own kernel (the notebooks
        of one edition run in order: a later one may read an earlier one's results).
        Default: one per CPU core, at most the number of editions.
    set_params : dict, optional
        Parameters given on the command line (``-p key=value``): every notebook that
        runs gets them, over its section of ``params``; each must declare them.

    Returns
    -------
    list of NotebookResult

    Raises
    ------
    NotebookFailed
        A cell raised; the message names the notebook, the edition, the cell and
        the error, and the partial executed notebook is kept.
    """
    import nbformat
    import papermill

    from reteval._util.progress import progress_counter, progress_mode
    from reteval.book.editions import edition

    if not isinstance(params, dict):
        params = load_params(params)
    langs = languages(lang, params)
    workers = _editions_at_once(jobs, langs)
    output = Path(output).resolve()
    if output.exists() and not output.is_dir():
        raise InputError("the output must be a folder; this is a file", path=output)
    say = log or (lambda line: None)
    present = {p.stem for p in notebook_paths(notebooks_dir)}
    order = [name for name in params.get("order", ()) if name in present]
    absent = [name for name in params.get("order", ()) if name not in present]
    if absent:
        say(f"order: {absent} not in {notebooks_dir}; skipped")
    paths = notebook_paths(notebooks_dir, only, order)
    unknown = set(params["notebooks"]) - present
    if unknown:
        raise InputError(f"parameters for unknown notebooks {sorted(unknown)}; have "
                         f"{sorted(present)}")
    if set_params:
        params = {**params, "notebooks": {
            **params["notebooks"],
            **{p.stem: {**params["notebooks"].get(p.stem, {}), **set_params} for p in paths}}}
    plans = []
    for path in paths:  # check every notebook's parameters before running any
        source = _read_source(path)
        _check_edition(source, path, langs)
        declared = papermill.inspect_notebook(str(path))
        _check_set(set_params, path.stem, declared)
        values, overrides = notebook_parameters(params, path.stem, declared)
        plans.append((path, source, declared, values, overrides))

    _check_fonts(langs)
    bars = "off" if quiet else progress_mode()
    work = [(lg, plan) for lg in langs for plan in plans]
    for lg, (path, *_rest) in work:  # every output place is usable before any notebook runs
        _prepare(output / lg / path.stem / path.name)

    def run_one(lg, plan, position):
        path, source, declared, values, overrides = plan
        name = path.stem
        root = output / lg
        values = _substitute(values, _shown(root))
        target = root / name
        if "output_dir" in declared:
            values["output_dir"] = _shown(target)
        if "lang" in declared:
            values["lang"] = lg
        for key, (default, value) in overrides.items():
            say(f"common: {key}={value!r} overrides {name}'s default {default}")
        executed = target / path.name
        text = edition(source, lg)
        text.metadata["reteval"]["source"] = path.resolve().as_posix()  # the book mends links
        _prepare(executed)
        try:
            nbformat.write(text, str(executed))
        except OSError as exc:
            raise InputError(f"cannot write the executed notebook: {exc.strerror}",
                             path=executed) from None
        say(f"running {lg}/{path.name} -> {target}")
        start = time.perf_counter()
        cells = {"desc": f"{lg}/{name}", "leave": False, "file": sys.stderr,
                 "disable": bars == "off", "dynamic_ncols": True, "position": position}
        _execute(executed, values, cells, f"notebook {path.name} ({lg} edition)", lg)
        seconds = time.perf_counter() - start
        say(f"done    {lg}/{path.name} in {seconds:.1f} s")
        return NotebookResult(name, target, executed, seconds, lg, overrides)

    counter = (contextlib.nullcontext(lambda n=1: None) if quiet else
               progress_counter(len(work), desc="notebooks", unit="notebook"))
    # The kernels' environment, set once for the whole run (editions may run side by side):
    # no progress bars in them, and one cache of embeddings for every notebook and edition.
    with counter as advance, _kernel_environment(RETEVAL_PROGRESS="off",
                                                 RETEVAL_CACHE_DIR=str(output / ".cache")):
        if workers == 1:
            results = []
            for lg, plan in work:
                results.append(run_one(lg, plan, None))
                advance()
            return results
        return _side_by_side(langs, plans, run_one, advance)


def _editions_at_once(jobs: int | None, langs: list[str]) -> int:
    """How many editions run side by side: ``jobs``, else one per core; at most all of them."""
    if jobs is None:
        from reteval._util.cores import available_cores

        return max(1, min(available_cores(), len(langs)))
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise InputError(f"jobs must be a positive integer; got {jobs!r}")
    return min(jobs, len(langs))


def _side_by_side(langs, plans, run_one, advance) -> list[NotebookResult]:
    """Each edition's notebooks in order, the editions in threads side by side (each notebook
    runs in its own kernel). After a failure the other editions stop once their running
    notebook ends; the first edition's error (in the order of ``langs``) is raised."""
    import threading
    from concurrent.futures import ThreadPoolExecutor

    from reteval.book.engine import close_thread_event_loop

    failed = threading.Event()

    def one_edition(position, lg):
        done = []
        try:
            for plan in plans:
                if failed.is_set():
                    break
                try:
                    done.append(run_one(lg, plan, position))
                except BaseException:
                    failed.set()
                    raise
                advance()
        finally:
            close_thread_event_loop()  # the one nbclient made for this thread
        return done

    with ThreadPoolExecutor(max_workers=len(langs), thread_name_prefix="edition") as pool:
        futures = [pool.submit(one_edition, i + 1, lg) for i, lg in enumerate(langs)]
        try:
            for future in futures:
                future.exception()  # wait for each edition
        except BaseException:  # Ctrl-C here: the editions stop after their running notebook
            failed.set()
            raise
    for future in futures:
        if future.exception() is not None:
            raise future.exception()
    return [result for future in futures for result in future.result()]


def _check_fonts(langs) -> None:
    """The Chinese edition's figures need a CJK font: stop before any notebook, not in a cell."""
    if "zh" in langs:
        from reteval._util.fonts import require_cjk_font

        require_cjk_font()


def _boxes(executed: Path) -> tuple[list[int], set[str], int]:
    """Where matplotlib drew characters as boxes: cells (from 0), fonts named, and how many.

    matplotlib warns "Glyph 21484 (...) missing from font(s) DejaVu Sans." for each
    character no font of the text has, whether the figure was saved or displayed; the
    warnings are the cells' stderr outputs.
    """
    import re

    import nbformat

    from reteval._util.fonts import GLYPH_MISSING

    found = re.compile(rf"{GLYPH_MISSING} \d+ .*? missing from font\(s\) ([^.\n]+)")
    cells, fonts, count = [], set(), 0
    for index, cell in enumerate(nbformat.read(str(executed), as_version=4).cells):
        text = "".join(str(out.get("text", "")) for out in cell.get("outputs", ())
                       if out.get("output_type") == "stream")
        hits = found.findall(text)
        if hits:
            cells.append(index)
            fonts.update(hits)
            count += len(hits)
    return cells, fonts, count


def _check_glyphs(executed: Path, failed: str) -> None:
    """A Chinese edition whose figures drew characters as boxes fails with one error."""
    cells, fonts, count = _boxes(executed)
    if count:
        raise NotebookFailed(
            f"{failed}: {count} characters drawn as empty boxes in cells {cells} (from 0) of "
            f"{executed} (matplotlib: glyph missing from font(s) {', '.join(sorted(fonts))}); "
            "its figures need a CJK font: `make fonts` installs fonts-noto-cjk"
        )


def _execute(executed: Path, values: dict, cells: dict, failed: str, lang: str = "en") -> None:
    """Run the saved edition in place with papermill; every failure is one RetevalError."""
    import papermill
    from nbclient.exceptions import CellTimeoutError, DeadKernelError

    from reteval.book.engine import ENGINE_NAME

    def not_the_death(record):  # reported below, in the error's one line
        return not record.getMessage().startswith("Kernel died")

    client_log = logging.getLogger("papermill")  # the log papermill gives nbclient
    client_log.addFilter(not_the_death)
    try:
        papermill.execute_notebook(
            str(executed), str(executed), parameters=values, cwd=os.getcwd(),
            progress_bar=cells, kernel_name="python3", engine_name=ENGINE_NAME,
        )
    except papermill.PapermillExecutionError as exc:
        raise NotebookFailed(
            f"{failed} failed {_cell_words(executed)}: {exc.ename}: {exc.evalue}; "
            "the partial notebook is kept there"
        ) from None
    except DeadKernelError:
        raise NotebookFailed(
            f"{failed}: the kernel died {_cell_words(executed)}; "
            "the partial notebook is kept there"
        ) from None
    except CellTimeoutError as exc:
        raise NotebookFailed(f"{failed}: a cell timed out {_cell_words(executed)}: "
                             f"{' '.join(str(exc).split())[:200]}") from None
    except OSError as exc:
        raise InputError(f"{failed}: cannot write the executed notebook: "
                         f"{exc.strerror or exc}", path=executed) from None
    finally:
        client_log.removeFilter(not_the_death)
    if lang == "zh":
        _check_glyphs(executed, failed)


def _prepare(executed: Path) -> None:
    """Make the folder of an executed notebook; refuse a place that cannot hold the file."""
    try:
        executed.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise InputError(f"cannot make the output folder: {exc.strerror}",
                         path=executed.parent) from None
    if executed.is_dir():
        raise InputError("a folder is in the place of the executed notebook", path=executed)


def _cmd_run(args) -> int:
    started = time.perf_counter()
    if args.quiet:
        log = None
    else:
        from tqdm import tqdm

        def log(line):
            tqdm.write(line, file=sys.stderr)  # above the progress bars, when they show

    from reteval.book.paramfile import parse_assignments

    results = run_pipeline(
        args.params, output=args.output, notebooks_dir=args.notebooks, only=args.only,
        lang=args.lang, log=log, quiet=args.quiet, jobs=args.jobs,
        set_params=parse_assignments(args.set),
    )
    total = time.perf_counter() - started
    editions = sorted({r.lang for r in results}, key=LANG_CHOICES.index)
    print(f"{len(results)} notebooks ran in {total:.1f} s ({', '.join(editions)}); "
          f"results in {Path(args.output).resolve()}")
    if not args.no_book:
        from reteval.book import build_book

        pages = build_book(args.output, notebooks_dir=args.notebooks)
        print(f"book: {len(pages)} pages; open {pages[0]}")
    return 0


def add_subcommands(subparsers) -> None:
    """Add ``reteval run`` to the command line."""
    p = subparsers.add_parser(
        "run", help="run every notebook headless through papermill",
        description="Execute the chosen edition of notebooks/NN_*.ipynb in order with parameters "
        "from a YAML file and -p KEY=VALUE, writing executed notebooks, figures and results into "
        "OUTPUT/<lang>/<notebook>/.",
    )
    p.add_argument("--params", metavar="FILE.yml", help="parameters file (default: none)")
    p.add_argument("--output", default="outputs", metavar="DIR", help="default: outputs")
    p.add_argument("--notebooks", default="notebooks", metavar="DIR", help="default: notebooks")
    p.add_argument("--only", action="append", metavar="NAME",
                   help="run only this notebook (stem, repeatable)")
    p.add_argument("-p", "--set", action="append", metavar="KEY=VALUE",
                   help="set a parameter of every notebook that runs (repeatable; the value is "
                   "YAML: 10, true, bm25, [5, 10]), over the parameters file; "
                   "usually with --only")
    p.add_argument("--lang", choices=LANG_CHOICES, default=None,
                   help="edition: zh (Chinese), en (English) or all (both editions); "
                   "default: the parameters file's lang, else zh")
    p.add_argument("--jobs", type=int, default=None, metavar="N",
                   help="editions run side by side (default: one per CPU core, at most all)")
    p.add_argument("--quiet", action="store_true",
                   help="no progress bars and no per-notebook lines")
    p.add_argument("--no-book", action="store_true",
                   help="do not write the HTML book (OUTPUT/index.html) at the end")
    p.set_defaults(handler=_cmd_run)
