"""Shared test fixtures: where the read-only shared data lives, if it is there."""

import os

import pytest
from paths import CONFORMANCE, DATA


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

# Progress bars stay off in tests and in the notebooks they run (no front end is live there);
# tests/_util/test_progress.py sets the mode it checks.
os.environ.setdefault("RETEVAL_PROGRESS", "off")
