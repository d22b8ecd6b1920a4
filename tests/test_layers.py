"""The layers docs/development.md draws hold: checked by import-linter and by reading imports.

The layers contract lives in pyproject.toml (``[tool.importlinter]``): a module imports only
from layers below its own. Private names (``_x``) are never imported across modules.
"""

import ast
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "reteval"


def test_layers_contract_is_kept():
    lint = shutil.which("lint-imports", path=str(Path(sys.executable).parent))
    if lint is None:
        pytest.skip("import-linter is not installed (it is in the dev extra)")
    done = subprocess.run([lint], check=False, cwd=ROOT, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert "1 kept, 0 broken" in done.stdout


def _module_name(path: Path, root: Path) -> str:
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _private_imports(path: Path, root: Path = ROOT):
    here = _module_name(path, root)
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("reteval") \
                and node.module != here:
            for alias in node.names:
                if alias.name.startswith("_") and not alias.name.startswith("__"):
                    yield f"{here}:{node.lineno} imports {node.module}.{alias.name}"


def test_no_private_name_is_imported_across_modules():
    found = [hit for path in sorted(PACKAGE.rglob("*.py")) for hit in _private_imports(path)]
    assert found == []


def test_the_check_sees_a_private_import(tmp_path):
    module = tmp_path / "reteval" / "x.py"
    module.parent.mkdir()
    module.write_text("from reteval.io import _ids, read_run\nfrom reteval.x import _own\n")
    assert list(_private_imports(module, tmp_path)) == ["reteval.x:1 imports reteval.io._ids"]


def test_every_module_is_in_a_layer():
    try:
        import tomllib
    except ImportError:  # Python 3.10
        tomllib = pytest.importorskip("tomli")
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    layers = config["contracts"][0]["layers"]
    listed = {name.strip() for layer in layers for name in layer.split("|")}
    modules = {f"reteval.{p.stem}" for p in PACKAGE.glob("*.py") if p.stem != "__init__"}
    modules |= {f"reteval.{p.parent.name}" for p in PACKAGE.glob("*/__init__.py")}
    assert sorted(modules - listed) == []


def test_the_top_level_holds_only_the_entry_points():
    # The folder listing is the layer diagram: beside the packages, only __init__, cli,
    # errors and version.
    plain = sorted(p.stem for p in PACKAGE.glob("*.py"))
    assert plain == ["__init__", "cli", "errors", "version"]


def _public_definitions_outside_all(path: Path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    listed = None
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "__all__"
                                                for t in node.targets):
            try:
                listed = set(ast.literal_eval(node.value))
            except ValueError:  # built from a table: checked by importing the package
                return []
    defined = [node.name for node in tree.body
               if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and node.name[0] != "_"]
    if listed is None:
        return [f"{path}: no __all__"] if defined else []
    return [f"{path}: {name} is not in __all__" for name in defined if name not in listed]


def test_every_public_function_and_class_is_in_its_modules_all():
    # Public versus internal is visible: a name without a leading underscore is API and is
    # listed in __all__; helpers are _-prefixed (or live in reteval._util).
    found = [hit for path in sorted(PACKAGE.rglob("*.py"))
             for hit in _public_definitions_outside_all(path)]
    assert found == []


def test_the_all_check_sees_an_unlisted_function(tmp_path):
    module = tmp_path / "m.py"
    module.write_text('__all__ = ["a"]\n\ndef a():\n    pass\n\ndef b():\n    pass\n')
    assert _public_definitions_outside_all(module) == [f"{module}: b is not in __all__"]


def test_lazy_package_names_all_load():
    import importlib

    for package in ("reteval", "reteval.io", "reteval.stats", "reteval.evaluation", "reteval.book",
                    "reteval.monitor"):
        module = importlib.import_module(package)
        for name in module.__all__:
            assert getattr(module, name) is not None, f"{package}.{name}"
