"""Shared test fixtures: where the read-only shared data lives, if it is there, samples of it,
and the folder this session's workers share."""

import os

import pytest
from paths import CONFORMANCE, DATA
from session_folder import FOLDER_ENV

from reteval._util.extras import skip_iri_grammars

skip_iri_grammars()  # the workers read notebooks: nbformat loads in a tenth of the time


def pytest_collection_modifyitems(items):
    """The test files that take longest first: those with the most tests that start a kernel
    or a browser (marked `notebook`, `browser`), then the most marked `slow`, then the others
    in their order. With ``--dist loadscope --no-loadscope-reorder`` (``make test``) a worker
    takes the next file as it finishes one, so a long file does not end the run alone."""
    files: dict[str, list] = {}
    for item in items:
        files.setdefault(item.nodeid.split("::")[0], []).append(item)

    def weight(file_items):
        def count(*markers):
            return sum(any(item.get_closest_marker(m) for m in markers) for item in file_items)
        return count("notebook", "browser"), count("slow")

    items[:] = [item for file_items in sorted(files.values(), key=weight, reverse=True)
                for item in file_items]


@pytest.fixture(scope="session", autouse=True)
def _session_folder(tmp_path_factory):
    """One folder for all the xdist workers of the session (the parent of their own)."""
    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent
    folder = base / "shared"
    folder.mkdir(exist_ok=True)
    os.environ[FOLDER_ENV] = str(folder)
    return folder


@pytest.fixture
def conformance_dir():
    if not CONFORMANCE.is_dir():
        pytest.skip(f"trec_eval conformance data not found at {CONFORMANCE}")
    return CONFORMANCE


@pytest.fixture
def shared_data():
    if not DATA.is_dir():
        pytest.skip(f"shared datasets not found at {DATA}")
    return DATA


@pytest.fixture
def shared_embeddings(monkeypatch, _session_folder):
    """The session's embedding cache for the retrievers built in this test's process."""
    from reteval.retrievers.cache import CACHE_ENV

    monkeypatch.setenv(CACHE_ENV, str(_session_folder))  # vectors in .../embeddings


@pytest.fixture
def scifact_sample(shared_data):
    """SciFact's first 60 judged queries, their judged documents and a fortieth of the rest
    (189 documents: the reranker encodes every one, about 30 ms each)."""
    from shared_samples import shared_sample

    if not (shared_data / "scifact").is_dir():
        pytest.skip(f"SciFact not found at {shared_data / 'scifact'}")
    return shared_sample(shared_data / "scifact", queries=60, other_share=1 / 40)


@pytest.fixture
def cranfield_sample(shared_data):
    """Cranfield's first 40 judged queries, their judged documents and a sixteenth of the rest
    (326 documents), for the tests that run BM25 and LSA over it and compare them many times."""
    from shared_samples import shared_sample

    if not (shared_data / "cranfield").is_dir():
        pytest.skip(f"Cranfield not found at {shared_data / 'cranfield'}")
    return shared_sample(shared_data / "cranfield", queries=40, other_share=1 / 16)

# Progress bars stay off in tests and in the notebooks they run (no front end is live there);
# tests/_util/test_progress.py sets the mode it checks.
os.environ.setdefault("RETEVAL_PROGRESS", "off")
