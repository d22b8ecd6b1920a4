"""The code follows the project's ruff rules (``[tool.ruff]`` in pyproject.toml)."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _ruff() -> str:
    ruff = shutil.which("ruff", path=str(Path(sys.executable).parent))
    if ruff is None:
        pytest.skip("ruff is not installed next to this Python (it is in the dev extra)")
    return ruff


def test_ruff_finds_nothing():
    done = subprocess.run([_ruff(), "check", "--no-cache", "."], check=False, cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]


def test_ruff_reads_the_project_rules():
    # zip() without strict= (B905) and a 101-column line (E501) are not in ruff's defaults:
    # they are reported only if the configuration in pyproject.toml is in force.
    source = "pairs = list(zip([1], [2]))\nx = " + "1" * 97 + "\n"
    done = subprocess.run([_ruff(), "check", "--no-cache", "--stdin-filename", "reteval/x.py",
                           "--output-format", "concise", "-"], input=source, check=False,
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "B905" in done.stdout and "E501" in done.stdout, done.stdout
