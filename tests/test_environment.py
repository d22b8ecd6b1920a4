"""environment.yml (conda) and pyproject.toml (pip) describe the same environment."""

import re
from pathlib import Path

import pytest
import yaml

try:
    import tomllib
except ImportError:  # Python 3.10
    tomllib = pytest.importorskip("tomli")

ROOT = Path(__file__).resolve().parents[1]


def names(requirements):
    out = set()
    for requirement in requirements:
        name = re.split(r"[<>=!~\[ ;]", requirement.strip(), maxsplit=1)[0]
        out.add(name.lower().replace("_", "-"))
    return out


def test_conda_environment_lists_the_pip_dependencies():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    expected = names(project["dependencies"]) | names(project["optional-dependencies"]["dev"])
    env = yaml.safe_load((ROOT / "environment.yml").read_text())
    conda, pip = [], []
    for item in env["dependencies"]:
        if isinstance(item, dict):
            pip.extend(p for p in item["pip"] if not p.startswith("-e"))
        else:
            conda.append(item)
    listed = names(conda) | names(pip)
    assert listed - {"python", "pip"} == expected
