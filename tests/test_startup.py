"""Import hygiene: ``import reteval`` and ``reteval --help`` load no heavy library.

Start-up time is what people pay for every call of the command line in a shell loop, and
it is mostly imports. These tests check *which* modules a fresh interpreter has loaded
after each entry point, never how long it took (timings are in bench/bench_startup.py).
"""

import json
import os
import subprocess
import sys

import pytest

HEAVY = ("numpy", "pandas", "pyarrow", "scipy", "matplotlib", "statsmodels", "dask", "numba",
         "sklearn", "papermill", "nbformat", "ipywidgets", "jinja2")

# Run in a fresh interpreter: report the top-level packages among HEAVY that were imported,
# and whether importlib.metadata (slow: it scans the installed distributions) was.
PROBE = """
import json, sys
{body}
loaded = sorted({{m.split(".")[0] for m in sys.modules}} & set({heavy!r}))
print(json.dumps({{"loaded": loaded, "metadata": "importlib.metadata" in sys.modules}}))
"""

CLI_BODY = """
from reteval.cli import main
try:
    main({argv!r})
except SystemExit:
    pass
sys.stdout.flush()
print()
"""


def _python(*args: str) -> str:
    """Run a fresh interpreter; return its stdout (the test fails if it fails)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONWARNINGS"}
    done = subprocess.run([sys.executable, *args], capture_output=True, text=True, env=env,
                          timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


def _probe(body: str) -> dict:
    out = _python("-c", PROBE.format(body=body, heavy=HEAVY))
    return json.loads(out.strip().splitlines()[-1])


def test_import_reteval_loads_no_heavy_library():
    seen = _probe("import reteval")
    assert seen == {"loaded": [], "metadata": False}


COMMANDS = ("evaluate", "compare", "run", "book", "notebooks", "monitor", "history", "repro",
            "failures")


@pytest.mark.parametrize("argv", [["--help"], *([c, "--help"] for c in COMMANDS), []],
                         ids=["help", *COMMANDS, "no-command"])
def test_help_loads_no_heavy_library(argv):
    seen = _probe(CLI_BODY.format(argv=argv))
    assert seen == {"loaded": [], "metadata": False}


def test_every_subcommand_is_checked():
    from reteval.cli import build_parser

    parser = build_parser()
    commands = set(parser._subparsers._group_actions[0].choices)
    assert commands == set(COMMANDS)


def test_version_reads_the_installed_metadata():
    out = _python("-m", "reteval.cli", "--version")
    from importlib.metadata import version

    assert out.strip() == f"reteval {version('reteval')}"


def test_evaluate_on_a_small_run_loads_no_statistics_or_plotting(tmp_path):
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("q1 0 d1 1\n")
    run = tmp_path / "run.txt"
    run.write_text("q1 Q0 d2 1 2.0 s\nq1 Q0 d1 2 1.0 s\n")
    seen = _probe(CLI_BODY.format(argv=["evaluate", str(qrels), str(run), "-m", "RR"]))
    assert set(seen["loaded"]).isdisjoint({"scipy", "matplotlib", "statsmodels", "dask",
                                           "numba", "sklearn", "papermill"})


@pytest.mark.parametrize(("options", "lines"), [([], 3), (["--per-query", "--format", "json"], 3),
                                               ([], 40_000)])
def test_evaluate_on_files_does_not_load_pandas(tmp_path, options, lines):
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("q1 0 d1 1\nq1 0 d3 2\nq2 0 d9 1\n")
    run = tmp_path / "run.txt"  # 40,000 lines: over 1 MiB, read by Arrow's CSV reader
    more = "".join(f"q3 Q0 doc{i:08d} {i} {1 / (i + 1)!r} sys\n" for i in range(lines - 3))
    run.write_text("q1 Q0 d2 1 2.0 s\nq1 Q0 d1 2 2.0 s\nq1 Q0 d3 3 1 s\n" + more)
    assert (run.stat().st_size > 1 << 20) == (lines > 3)
    seen = _probe(CLI_BODY.format(argv=["evaluate", str(qrels), str(run), "-m", "nDCG@10",
                                        "-m", "AP", *options]))
    assert "pandas" not in seen["loaded"] and "numpy" in seen["loaded"]


@pytest.mark.parametrize(("options", "loads_pandas"), [
    ([], False), (["--format", "csv"], True), (["--test", "t"], False),
    (["--baseline", "b", "--test", "tukey"], False)])
def test_compare_loads_pandas_only_for_csv_and_scipy_only_for_its_tests(tmp_path, options,
                                                                         loads_pandas):
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("".join(f"q{i} 0 d{i} 1\n" for i in range(4)))
    paths = []
    for name, rank in (("a", 1), ("b", 2), ("c", 3)):
        path = tmp_path / f"{name}.run"
        path.write_text("".join(f"q{i} Q0 x{k} {k} {10 - k} s\n" if k != rank else
                                f"q{i} Q0 d{i} {k} {10 - k} s\n"
                                for i in range(4) for k in (1, 2, 3)))
        paths.append(str(path))
    seen = _probe(CLI_BODY.format(argv=["-q", "compare", str(qrels), *paths, "-m", "RR",
                                        "--n-resamples", "50", *options]))
    assert "numpy" in seen["loaded"]
    assert ("pandas" in seen["loaded"]) == loads_pandas
    assert ("scipy" in seen["loaded"]) == (options == ["--test", "t"])


def test_public_names_still_resolve():
    code = """
import reteval
from reteval import *  # noqa: F403
names = {n: type(getattr(reteval, n)).__name__ for n in reteval.__all__}
assert set(reteval.__all__) <= set(dir(reteval))
print(json.dumps(names))
"""
    kinds = json.loads(_python("-c", "import json\n" + code))
    assert kinds["evaluate"] == kinds["compare"] == kinds["read_run"] == "function"
    assert kinds["Measure"] == kinds["Comparison"] == "type"
    assert kinds["__version__"] == "str"


def test_unknown_attribute_is_an_attribute_error():
    import reteval
    import reteval.monitor

    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        reteval.nope  # noqa: B018
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        reteval.monitor.nope  # noqa: B018


def test_evaluate_is_a_function_not_a_module():
    # ``reteval.evaluate`` is only the function (its module is reteval.evaluation.engine);
    # ``reteval.monitor.fingerprint`` names both a submodule and a function, and importing
    # the submodule must not replace the function.
    code = """
import reteval, reteval.monitor
import reteval.evaluation.engine, reteval.monitor.fingerprint, reteval.monitor.runner
try:
    import reteval.evaluate
except ImportError:
    print("no-module", end=" ")
print(type(reteval.evaluate).__name__, type(reteval.monitor.fingerprint).__name__)
"""
    assert _python("-c", code).split() == ["no-module", "function", "function"]
