"""No module of the package is longer than 650 lines: a longer one holds more than one idea."""

from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "reteval"
MAX_LINES = 650


def long_modules(package: Path = PACKAGE, limit: int = MAX_LINES) -> list[str]:
    """``path: N lines`` of each module of ``package`` longer than ``limit`` lines."""
    found = []
    for path in sorted(package.rglob("*.py")):
        with path.open(encoding="utf-8") as file:
            count = sum(1 for _ in file)
        if count > limit:
            found.append(f"{path.relative_to(package.parent).as_posix()}: {count} lines")
    return found


def test_no_module_is_longer_than_650_lines():
    assert long_modules() == []


def test_the_check_counts_lines(tmp_path):
    package = tmp_path / "reteval"
    (package / "sub").mkdir(parents=True)
    (package / "short.py").write_text("x = 1\n" * 3, encoding="utf-8")
    (package / "sub" / "long.py").write_text("x = 1\n" * 4, encoding="utf-8")
    (package / "sub" / "notes.txt").write_text("x\n" * 9, encoding="utf-8")
    assert long_modules(package, limit=3) == ["reteval/sub/long.py: 4 lines"]
