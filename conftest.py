"""Doctest set-up for the examples in ``reteval/``: their temporary files stay in pytest's tmp_path.

The docstring examples create files with ``tempfile.mkdtemp()``, as a reader would; here each
example's ``tempfile`` folder is its own pytest ``tmp_path``, which pytest removes in turn.
"""

import tempfile

import pytest


@pytest.fixture(autouse=True)
def _temporary_files_in_tmp_path(request, tmp_path, monkeypatch):
    if isinstance(request.node, pytest.DoctestItem):
        monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
