"""Display preferences kept in cookies: the four-colour deck and large cards (accessibility),
and whether a card is played with two taps (the first lifts it)."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request

FOUR_COLOURS = "hearts_four_colours"
LARGE_CARDS = "hearts_large_cards"
TWO_TAPS = "hearts_two_taps"
TWO_TAPS_CHOICES = ("touch", "always", "never")
"""When a card is played with two taps: on touch screens (the default), always, or never."""


def two_taps(request: Request) -> str:
    """The player's two-tap choice (the default for a missing or unknown cookie)."""
    value = request.cookies.get(TWO_TAPS, "")
    return value if value in TWO_TAPS_CHOICES else TWO_TAPS_CHOICES[0]


def body_classes(request: Request) -> dict[str, Any]:
    """Template context: the classes the `<body>` gets from the player's display preferences."""
    classes = []
    if request.cookies.get(FOUR_COLOURS) == "1":
        classes.append("four-colours")
    if request.cookies.get(LARGE_CARDS) == "1":
        classes.append("large-cards")
    choice = two_taps(request)
    if choice != TWO_TAPS_CHOICES[0]:
        classes.append(f"two-taps-{choice}")
    return {"body_classes": " ".join(classes)}
