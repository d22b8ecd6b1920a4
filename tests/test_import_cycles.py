"""No import cycle between the modules of ``reteval``, counting the imports made inside
functions too (an import made late to start fast still ties the two modules together).

Every module is read with ``ast``; an import of a name that is not a module depends on
the module that defines it (``from reteval.io import read_run`` on ``reteval.io``), a
relative import is resolved against its package. A strongly connected component of more
than one module is a cycle.
"""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _modules(root: Path) -> dict[str, tuple[Path, bool]]:
    """Module name -> (its file, whether it is a package's ``__init__``)."""
    found = {}
    for path in sorted((root / "reteval").rglob("*.py")):
        parts = path.relative_to(root).with_suffix("").parts
        is_package = parts[-1] == "__init__"
        found[".".join(parts[:-1] if is_package else parts)] = (path, is_package)
    return found


def _imported(node, here: str, is_package: bool) -> list[str]:
    """The dotted names an import statement may load (a module, or a module's name)."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    base = node.module or ""
    if node.level:
        package = here.split(".") if is_package else here.split(".")[:-1]
        package = package[:len(package) - (node.level - 1)]
        base = ".".join(package + ([node.module] if node.module else []))
    return [base] + [f"{base}.{alias.name}" for alias in node.names]


def import_graph(root: Path = ROOT) -> dict[str, set[str]]:
    """Module -> the modules of ``reteval`` it imports, anywhere in its code."""
    modules = _modules(root)
    graph: dict[str, set[str]] = {}
    for here, (path, is_package) in modules.items():
        targets = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                for name in _imported(node, here, is_package):
                    while name and name not in modules:  # a function or class: its module
                        name = name.rpartition(".")[0]
                    if name and name != here:
                        targets.add(name)
        graph[here] = targets
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one node (Tarjan's, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, targets = work[-1]
            for target in targets:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(graph[target]))))
                    break
                if target in on_stack:
                    low[node] = min(low[node], index[target])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
    return found


def test_no_import_cycle():
    graph = import_graph()
    assert len(graph) > 100  # every module was read
    found = cycles(graph)
    assert not found, "import cycles: " + "; ".join(" <-> ".join(c) for c in found)


def test_the_check_sees_a_cycle_through_a_function_and_a_relative_import(tmp_path):
    package = tmp_path / "reteval" / "io"
    package.mkdir(parents=True)
    (tmp_path / "reteval" / "__init__.py").write_text("")
    (package / "__init__.py").write_text("")
    (package / "frames.py").write_text("from reteval.io.read import read_file\n")
    (package / "read.py").write_text("def read(x):\n    from .named import pick\n")
    (package / "named.py").write_text("def pick():\n    from . import frames\n")
    (package / "write.py").write_text("from reteval.io import frames\n")
    assert cycles(import_graph(tmp_path)) == [
        ["reteval.io.frames", "reteval.io.named", "reteval.io.read"]]
    (package / "named.py").write_text("def pick():\n    pass\n")
    assert cycles(import_graph(tmp_path)) == []
