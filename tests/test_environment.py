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


def resolve(project, extra):
    """The requirements of an extra, with the extras it names (``reteval[a,b]``) expanded."""
    out = []
    for requirement in project["optional-dependencies"][extra]:
        if requirement.startswith("reteval["):
            for inner in requirement[len("reteval["):-1].split(","):
                out.extend(resolve(project, inner.strip()))
        else:
            out.append(requirement)
    return out


def test_conda_environment_lists_the_pip_dependencies():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    expected = names(project["dependencies"]) | names(resolve(project, "dev"))
    env = yaml.safe_load((ROOT / "environment.yml").read_text())
    conda, pip = [], []
    for item in env["dependencies"]:
        if isinstance(item, dict):
            pip.extend(p for p in item["pip"] if not p.startswith("-e"))
        else:
            conda.append(item)
    listed = names(conda) | names(pip)
    assert listed - {"python", "pip"} == expected


def test_core_install_is_only_what_evaluating_needs():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert names(project["dependencies"]) == {"numpy", "pandas", "scipy", "pyarrow", "tqdm"}
    assert names(resolve(project, "all")) >= {"matplotlib", "papermill", "bm25s", "dask"}
    assert "reteval[all]" in project["optional-dependencies"]["dev"]
