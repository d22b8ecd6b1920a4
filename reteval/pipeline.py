"""The notebook pipeline: every notebook, in order, headless through papermill.

``reteval run`` (and ``make run``) executes each ``notebooks/NN_name.ipynb`` with
parameters from one YAML file and writes into ``OUTPUT/NN_name/``: the executed
notebook, its figures and its machine-readable results.

The parameters file has two sections::

    common:              # given to every notebook that declares the parameter
      dataset: teaching
    notebooks:           # per notebook (by file stem), overriding common
      02_retriever_comparison:
        retrievers: [bm25, vector, hybrid, reranked]

A string value may contain ``{output}``, replaced by the output folder, so that one
notebook can read another's results (e.g. ``"{output}/02_retriever_comparison"``).
Notebooks run in name order; an optional top-level ``order`` list (of notebook
stems) runs those first, in that order, and the others after them: the default
parameters put the report last.
Every notebook also gets ``output_dir``. A parameter that a notebook does not
declare in its ``parameters`` cell is an error, except in ``common``.

On a failure the run stops, the partial executed notebook is kept, and the error
names the notebook and the cell.
"""

from __future__ import annotations

import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from reteval.errors import InputError, RetevalError

__all__ = ["NotebookFailed", "NotebookResult", "add_subcommands", "load_params", "run_pipeline"]


class NotebookFailed(RetevalError):
    """A notebook raised an error while the pipeline ran it."""


@dataclass(frozen=True)
class NotebookResult:
    """One executed notebook: where its output went and how long it took."""

    name: str
    output_dir: Path
    notebook: Path
    seconds: float


def load_params(path: str | os.PathLike | None) -> dict:
    """Read a pipeline parameters file; ``None`` gives empty parameters.

    Raises
    ------
    InputError
        The file is missing, is not YAML, or has another shape than
        ``{common: {...}, notebooks: {name: {...}}}``.
    """
    if path is None:
        return {"common": {}, "notebooks": {}, "order": []}
    import yaml

    path = Path(path)
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except FileNotFoundError:
        raise InputError("no such parameters file", path=path) from None
    except IsADirectoryError:
        raise InputError("is a directory, not a parameters file", path=path) from None
    except UnicodeDecodeError:
        raise InputError("not a text (UTF-8) parameters file", path=path) from None
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror}", path=path) from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        raise InputError(f"not valid YAML: {getattr(exc, 'problem', exc)}", path=path,
                         line=None if mark is None else mark.line + 1) from None
    if not isinstance(data, dict) or set(data) - {"common", "notebooks", "order"}:
        raise InputError("expected top-level keys 'common', 'notebooks' and 'order' only", path=path)
    order = data.get("order") or []
    if not isinstance(order, list) or not all(isinstance(name, str) for name in order):
        raise InputError("'order' must be a list of notebook names", path=path)
    common = data.get("common") or {}
    notebooks = data.get("notebooks") or {}
    if not isinstance(common, dict) or not isinstance(notebooks, dict) or not all(
        isinstance(v, dict) for v in notebooks.values() if v is not None
    ):
        raise InputError("'common' and each entry of 'notebooks' must be mappings", path=path)
    return {"common": common, "notebooks": {k: v or {} for k, v in notebooks.items()},
            "order": order}


def _substitute(value, output: str):
    if isinstance(value, str):
        return value.replace("{output}", output)
    if isinstance(value, list):
        return [_substitute(v, output) for v in value]
    if isinstance(value, dict):
        return {k: _substitute(v, output) for k, v in value.items()}
    return value


def notebook_paths(notebooks_dir: str | os.PathLike, only=None, order=()) -> list[Path]:
    """The pipeline's notebooks (``NN_name.ipynb``): those named in ``order`` first, then by name."""
    folder = Path(notebooks_dir)
    if not folder.is_dir():
        raise InputError("no such notebooks folder", path=folder)
    paths = sorted(p for p in folder.glob("[0-9][0-9]_*.ipynb"))
    unknown = set(order) - {p.stem for p in paths}
    if unknown:
        raise InputError(f"'order' names unknown notebooks {sorted(unknown)}; have {[p.stem for p in paths]}")
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


def run_pipeline(
    params: dict | str | os.PathLike | None = None,
    *,
    output: str | os.PathLike = "outputs",
    notebooks_dir: str | os.PathLike = "notebooks",
    only=None,
    log=None,
) -> list[NotebookResult]:
    """Execute every notebook in order with papermill.

    Parameters
    ----------
    params : dict, path or None
        Parameters (see the module docstring) or a YAML file holding them.
    output : path, default "outputs"
        Each notebook writes into ``output/<notebook stem>/``.
    notebooks_dir : path, default "notebooks"
    only : sequence of str, optional
        Run only these notebooks (by stem), still in order.
    log : callable, optional
        Called with one line of progress per notebook.

    Returns
    -------
    list of NotebookResult

    Raises
    ------
    NotebookFailed
        A cell raised; the message names the notebook, the cell and the error,
        and the partial executed notebook is kept.
    """
    import papermill

    if not isinstance(params, dict):
        params = load_params(params)
    output = Path(output).resolve()
    if output.exists() and not output.is_dir():
        raise InputError("the output must be a folder; this is a file", path=output)
    paths = notebook_paths(notebooks_dir, only, params.get("order", ()))
    unknown = set(params["notebooks"]) - {p.stem for p in notebook_paths(notebooks_dir)}
    if unknown:
        raise InputError(f"parameters for unknown notebooks {sorted(unknown)}; have "
                         f"{[p.stem for p in notebook_paths(notebooks_dir)]}")
    results = []
    for path in paths:
        name = path.stem
        declared = set(papermill.inspect_notebook(str(path)))
        given = dict(params["notebooks"].get(name, {}))
        undeclared = set(given) - declared
        if undeclared:
            raise InputError(
                f"parameters {sorted(undeclared)} are not declared in {path.name}'s parameters "
                f"cell; it declares {sorted(declared)}"
            )
        values = {k: v for k, v in params["common"].items() if k in declared}
        values.update(given)
        values = _substitute(values, str(output))
        target = output / name
        target.mkdir(parents=True, exist_ok=True)
        if "output_dir" in declared:
            values["output_dir"] = str(target)
        executed = target / path.name
        start = time.perf_counter()
        if log:
            log(f"running {path.name} -> {target}")
        try:
            papermill.execute_notebook(
                str(path), str(executed), parameters=values, cwd=os.getcwd(),
                progress_bar=False, kernel_name="python3",
            )
        except papermill.PapermillExecutionError as exc:
            raise NotebookFailed(
                f"notebook {path.name} failed in cell {exc.exec_count} (index {exc.cell_index}): "
                f"{exc.ename}: {exc.evalue}; the partial notebook is in {executed}"
            ) from None
        seconds = time.perf_counter() - start
        results.append(NotebookResult(name, target, executed, seconds))
        if log:
            log(f"done    {path.name} in {seconds:.1f} s")
    return results


def _cmd_run(args) -> int:
    started = time.perf_counter()
    results = run_pipeline(
        args.params, output=args.output, notebooks_dir=args.notebooks, only=args.only,
        log=lambda line: print(line, file=sys.stderr),
    )
    total = time.perf_counter() - started
    print(f"{len(results)} notebooks ran in {total:.1f} s; results in {Path(args.output).resolve()}")
    return 0


def add_subcommands(subparsers) -> None:
    """Add ``reteval run`` to the command line."""
    p = subparsers.add_parser(
        "run", help="run every notebook headless through papermill",
        description="Execute notebooks/NN_*.ipynb in order with parameters from a YAML file, "
        "writing executed notebooks, figures and results into OUTPUT/<notebook>/.",
    )
    p.add_argument("--params", metavar="FILE.yml", help="parameters file (default: none)")
    p.add_argument("--output", default="outputs", metavar="DIR", help="default: outputs")
    p.add_argument("--notebooks", default="notebooks", metavar="DIR", help="default: notebooks")
    p.add_argument("--only", action="append", metavar="NAME",
                   help="run only this notebook (stem, repeatable)")
    p.set_defaults(handler=_cmd_run)
