"""Preferences kept in cookies: the four-colour deck and large cards (accessibility), whether a
card is played with two taps (the first lifts it), quiet sounds, and what the table plays for
the player (the only legal card; the rest of a hand in which nothing is left to score)."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request

from app.services.autoplay import AutoPlay

FOUR_COLOURS = "hearts_four_colours"
LARGE_CARDS = "hearts_large_cards"
TWO_TAPS = "hearts_two_taps"
TWO_TAPS_CHOICES = ("touch", "always", "never")
"""When a card is played with two taps: on touch screens (the default), always, or never."""
SOUNDS = "hearts_sounds"
"""Quiet sounds for the player's turn and the queen of spades: "1" on (off by default)."""
ONLY_CARD = "hearts_only_card"
"""Play the player's only legal card for them: "1" on (off by default)."""
FINISH_HAND = "hearts_finish_hand"
"""Finish a hand at once when nothing is left to score: "0" off (on by default)."""


def autoplay(request: Request) -> AutoPlay:
    """What the table plays for the player, from their settings."""
    return AutoPlay(
        only_card=request.cookies.get(ONLY_CARD) == "1",
        finish_hand=request.cookies.get(FINISH_HAND) != "0",
    )


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
    if request.cookies.get(SOUNDS) == "1":
        classes.append("sounds")
    choice = two_taps(request)
    if choice != TWO_TAPS_CHOICES[0]:
        classes.append(f"two-taps-{choice}")
    return {"body_classes": " ".join(classes)}
