"""The web layer talks to the services only: no SQLAlchemy, no store module (DESIGN.md, Layers).
Routes get the player, the game and the form's version from `app.web.deps`, and the services own
the transactions."""

from __future__ import annotations

import ast
from pathlib import Path

WEB = Path(__file__).resolve().parents[2] / "app" / "web"


def imported_names(path: Path) -> list[str]:
    """Every module a file imports (absolute imports)."""
    names: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.append(node.module)
    return names


def test_the_web_layer_imports_no_sqlalchemy_and_no_store() -> None:
    files = sorted(WEB.glob("*.py"))
    assert len(files) >= 10
    for path in files:
        for name in imported_names(path):
            top = name.split(".")[0]
            assert top != "sqlalchemy", f"{path.name} imports {name}"
            assert not name.startswith("app.store"), f"{path.name} imports {name}"


def test_routes_take_their_identity_from_deps() -> None:
    """No route module reads the session cookie or builds a database session itself."""
    for name in ("routes.py", "routes_stats.py"):
        text = (WEB / name).read_text(encoding="utf-8")
        assert "app.web.deps" in text
        assert "cookies.get(" not in text and "sessionmaker" not in text
