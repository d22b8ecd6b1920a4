"""The code follows the project's ruff rules (``[tool.ruff]`` in pyproject.toml) and the packages
listed in ``[tool.mypy]`` type-check."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _tool(name: str) -> str:
    found = shutil.which(name, path=str(Path(sys.executable).parent))
    if found is None:
        pytest.skip(f"{name} is not installed next to this Python (it is in the dev extra)")
    return found


def test_ruff_finds_nothing():
    done = subprocess.run([_tool("ruff"), "check", "--no-cache", "."], check=False, cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]


def test_ruff_reads_the_project_rules():
    # zip() without strict= (B905) and a 101-column line (E501) are not in ruff's defaults:
    # they are reported only if the configuration in pyproject.toml is in force.
    source = "pairs = list(zip([1], [2]))\nx = " + "1" * 97 + "\n"
    command = [_tool("ruff"), "check", "--no-cache", "--stdin-filename", "reteval/x.py",
               "--output-format", "concise", "-"]
    done = subprocess.run(command, input=source, check=False, cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "B905" in done.stdout and "E501" in done.stdout, done.stdout


def test_mypy_finds_nothing():
    # The packages checked are `files` in [tool.mypy]; its cache is kept in .venv.
    done = subprocess.run([_tool("mypy")], check=False, cwd=ROOT, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert "Success: no issues found" in done.stdout
