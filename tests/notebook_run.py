"""Running a teaching notebook the way `reteval run` does, for the notebook tests."""

import contextlib
import hashlib
import json
import os
import re
import subprocess
import sys

import papermill
from paths import ROOT
from session_folder import build_once, session_folder

from reteval.book.engine import ENGINE_NAME
from reteval.book.pipeline import load_params, notebook_parameters


def pipeline_parameters(stem):
    """What `reteval run` gives notebook ``stem`` from params/default.yml."""
    params = load_params(ROOT / "params" / "default.yml")
    declared = papermill.inspect_notebook(str(ROOT / "notebooks" / f"{stem}.ipynb"))
    return notebook_parameters(params, stem, declared)[0]


def execute(stem, tmp_path, **parameters):
    """Run notebook ``stem``; return its output folder ``out`` and its results.json.

    The executed notebook ``stem.ipynb`` lies beside ``out``. A run is made once per test
    session for all the workers, keyed by the notebook's content and the parameters, and
    read by every test that asks for the same one: so the tests must only read what it
    wrote. A run given a path inside ``tmp_path`` (a test's own input or link base) is that
    test's own, made in ``tmp_path``. The kernels share the session's embedding cache.
    """
    source = ROOT / "notebooks" / f"{stem}.ipynb"
    if any(str(tmp_path) in str(value) for value in parameters.values()):
        _run(source, tmp_path, stem, parameters)
    else:
        key = hashlib.sha256(source.read_bytes()
                             + json.dumps(parameters, sort_keys=True).encode()).hexdigest()
        tmp_path = build_once(session_folder() / "runs" / f"{stem}-{key[:20]}",
                              lambda folder: _run(source, folder, stem, parameters))
    output_dir = tmp_path / "out"
    return output_dir, json.loads((output_dir / "results.json").read_text())


def execute_in_place(stem):
    """Run notebook ``stem`` with every parameter at its default in a working folder of its
    own, as a student runs it where it lies (its outputs in ``outputs/`` there); return the
    folder, which holds the executed notebook ``executed_<stem>.ipynb``.

    Made once per test session for all the workers, as :func:`execute`'s runs are: the tests
    must only read what it wrote.
    """
    source = ROOT / "notebooks" / f"{stem}.ipynb"
    key = hashlib.sha256(source.read_bytes()).hexdigest()

    def run(folder):
        with session_embeddings():
            papermill.execute_notebook(
                str(source), str(folder / f"executed_{stem}.ipynb"), progress_bar=False,
                kernel_name="python3", engine_name=ENGINE_NAME, cwd=str(folder))

    return build_once(session_folder() / "runs" / f"{stem}-in-place-{key[:20]}", run)


def pipeline_run(stems):
    """What `reteval run --lang all` makes of notebooks ``stems`` on params/default.yml: return
    its output folder, which holds ``<lang>/<stem>/`` for both editions (each executed
    notebook beside its outputs).

    Made once per test session for all the workers, as :func:`execute`'s runs are: the tests
    must only read what it wrote (the book's test copies it before building the book in it).
    """
    from reteval.book.pipeline import run_pipeline

    params = ROOT / "params" / "default.yml"
    key = hashlib.sha256(params.read_bytes() + b"".join(
        (ROOT / "notebooks" / f"{stem}.ipynb").read_bytes() for stem in stems)).hexdigest()

    def run(folder):
        old = os.getcwd()
        os.chdir(ROOT)  # the notebooks resolve the bundled data from the project root
        try:
            with session_embeddings():
                run_pipeline(params, output=folder, only=list(stems), lang="all", quiet=True)
        finally:
            os.chdir(old)

    return build_once(session_folder() / "runs" / f"pipeline-{'-'.join(stems)}-{key[:20]}", run)


@contextlib.contextmanager
def session_embeddings():
    """The kernels started inside share the session's embedding cache (a notebook that builds
    the vector retrievers over a corpus another kernel encoded reads the vectors back instead
    of loading the model and encoding again)."""
    from reteval.retrievers.cache import CACHE_ENV

    before = os.environ.get(CACHE_ENV)
    os.environ[CACHE_ENV] = str(session_folder())  # the kernel inherits it
    try:
        yield
    finally:
        if before is None:
            del os.environ[CACHE_ENV]
        else:
            os.environ[CACHE_ENV] = before


def _run(source, folder, stem, parameters):
    with session_embeddings():
        papermill.execute_notebook(
            str(source), str(folder / f"{stem}.ipynb"),
            parameters={"output_dir": str(folder / "out"), **parameters},
            progress_bar=False, kernel_name="python3", engine_name=ENGINE_NAME, cwd=str(ROOT),
        )


def replay(executed, folder):
    """Run a copy of the executed notebook ``executed`` again under nbval, in ``folder``;
    return the number of code cells whose outputs nbval found the same (all of them, or the
    assertion says which differ and how).

    nbval (``--nbval``, in a pytest of its own) executes the notebook again in a new kernel and
    compares each code cell's text outputs with the recorded ones (figures are not compared).
    The copy writes its files to ``folder/out``: the recorded outputs name that folder in place
    of the run's own, which other tests read. The kernel shares the session's embedding cache.
    """
    from reteval.retrievers.cache import CACHE_ENV

    def in_json(path):  # as a path is written inside a JSON string
        return json.encoder.encode_basestring(str(path))[1:-1]

    text = executed.read_text(encoding="utf-8")
    copy = folder / executed.name
    copy.write_text(text.replace(in_json(executed.parent / "out"), in_json(folder / "out")),
                    encoding="utf-8")
    (folder / "pytest.ini").write_text("[pytest]\n")  # not the project's configuration
    env = {name: value for name, value in os.environ.items()
           if name not in ("PYTEST_ADDOPTS", "PYTEST_PLUGINS")}  # this run's options only
    env.update({"RETEVAL_PROGRESS": "off", CACHE_ENV: str(session_folder())})
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "nbval", "--nbval", "--nbval-current-env",
         "-p", "no:cacheprovider", "-p", "no:xdist", "-q", "--color=no", copy.name],
        cwd=folder, env=env, capture_output=True, text=True, timeout=900, check=False)
    assert done.returncode == 0, done.stdout[-4000:]
    return int(re.search(r"(\d+) passed", done.stdout).group(1))


def run_solutions(number, lang, cwd=ROOT):
    """Run ``notebooks/solutions/NN_solutions.ipynb`` in edition ``lang``, in this process;
    return what each of its check() calls said, in order.

    The solutions notebooks are plain Python (no magics, no figures, no widgets): their code
    cells run here in order, in a namespace of their own and in ``cwd``, after papermill has
    put in the parameters as it does for a kernel, with the session's embedding cache. Each
    solution cell asserts that check() accepts its answer. A kernel would only add its own
    start and imports (1.3 to 2 s a notebook, most of a solutions notebook's time); the
    teaching notebooks themselves run in kernels. Each solutions notebook runs in one edition
    (the editions share their code cells; check()'s words in both languages are tested in
    tests/teaching/test_exercises.py): some chapters' in Chinese, the others' in English.
    """
    from papermill.iorw import load_notebook_node
    from papermill.parameterize import parameterize_notebook

    path = ROOT / "notebooks" / "solutions" / f"{number}_solutions.ipynb"
    notebook = parameterize_notebook(load_notebook_node(str(path)), {"lang": lang})
    namespace = {"__name__": "__main__"}
    said = []
    previous = os.getcwd()
    os.chdir(cwd)  # contextlib.chdir is Python 3.11's; reteval supports 3.10
    try:
        with session_embeddings():
            for index, cell in enumerate(notebook.cells):
                if cell.cell_type != "code":
                    continue
                before = namespace.get("verdict")
                code = compile(cell.source, f"{path.name}, cell {index}", "exec")
                exec(code, namespace)  # noqa: S102
                if namespace.get("verdict") is not before:
                    said.append(str(namespace["verdict"]))
    finally:
        os.chdir(previous)
    return said


def check_exercises_asked_and_solved(number, exercises):
    """Notebook ``number`` asks each of ``exercises`` and its solutions notebook, run in
    English, answers each one so that check() says so."""
    notebook = next((ROOT / "notebooks").glob(f"{number}_*.ipynb"))
    solutions = ROOT / "notebooks" / "solutions" / f"{number}_solutions.ipynb"

    def source(path):
        return "".join("".join(c["source"])
                       for c in json.loads(path.read_text(encoding="utf-8"))["cells"])

    asked, solved = source(notebook), source(solutions)
    for exercise in exercises:
        assert f'check("{exercise}", answer, lang=lang)' in asked
        assert f'check("{exercise}", answer, lang=lang)' in solved
    said = run_solutions(number, "en")
    assert sum("Correct!" in text for text in said) == len(exercises)


def fits_one_class(executed):
    """Each edition of an executed notebook fits one class session; return the minutes.

    ``executed`` is the bilingual notebook as papermill executed it, in one language: the
    editions share their code cells, and their outputs differ in words, not in lines, rows
    or figures, so one run measures both.
    """
    from reteval.book.editions import CLASS_MINUTES, class_minutes

    minutes = {lang: class_minutes(executed, lang) for lang in ("zh", "en")}
    assert max(minutes.values()) <= CLASS_MINUTES, minutes
    return minutes


def default_run_fits_one_class(stem, tmp_path, **parameters):
    """:func:`fits_one_class` on the run of ``stem`` on the pipeline's defaults (and
    ``parameters``): the run a test of the notebook already made, read from the cache."""
    output_dir, _ = execute(stem, tmp_path, **parameters, **pipeline_parameters(stem))
    return fits_one_class(output_dir.parent / f"{stem}.ipynb")
