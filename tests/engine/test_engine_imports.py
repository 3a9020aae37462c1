"""The engine imports only the standard library and itself (issue: engine purity, DESIGN.md)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "app" / "engine"


def _imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
    return names


def test_engine_source_imports_only_stdlib_and_engine() -> None:
    files = sorted(ENGINE.glob("*.py"))
    assert len(files) >= 8
    for path in files:
        for name in _imported_modules(path):
            top = name.split(".")[0]
            ok = top in sys.stdlib_module_names or name == "app.engine"
            ok = ok or name.startswith("app.engine.") or top == "__future__"
            assert ok, f"{path.name} imports {name}"


def test_importing_engine_loads_no_third_party_module() -> None:
    code = (
        "import sys; before = set(sys.modules); import app.engine; "
        "new = {m.split('.')[0] for m in set(sys.modules) - before}; "
        "print(sorted(m for m in new if m not in sys.stdlib_module_names and m != 'app'))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert out == "[]"
