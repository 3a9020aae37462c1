"""Display preferences kept in cookies: the four-colour deck and large cards (accessibility)."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request

FOUR_COLOURS = "hearts_four_colours"
LARGE_CARDS = "hearts_large_cards"


def body_classes(request: Request) -> dict[str, Any]:
    """Template context: the classes the `<body>` gets from the player's display preferences."""
    classes = []
    if request.cookies.get(FOUR_COLOURS) == "1":
        classes.append("four-colours")
    if request.cookies.get(LARGE_CARDS) == "1":
        classes.append("large-cards")
    return {"body_classes": " ".join(classes)}
