"""The store imports only the engine, SQLAlchemy and the standard library (DESIGN.md, Layers)."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

STORE = Path(__file__).resolve().parents[2] / "app" / "store"


def test_store_imports_only_engine_sqlalchemy_and_stdlib() -> None:
    files = sorted(STORE.glob("*.py"))
    assert len(files) >= 4
    for path in files:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                ok = top in sys.stdlib_module_names or top in {"__future__", "sqlalchemy"}
                ok = ok or name == "app.engine" or name.startswith(("app.engine.", "app.store"))
                assert ok, f"{path.name} imports {name}"
