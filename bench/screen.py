"""What a simulated player reads from the table's HTML: what it may do next.

It reads the stable markers of `templates/partials/table.html`: the forms' actions and their
`version`, the pass form's checkboxes (`name="cards"`), the playable card buttons (`name="card"`
without `disabled` or `aria-disabled`), the moon choice (`name="scoring"`), the next-hand form
(`/next`), game over (the `/again` form), and how the computer players' cards reach the page,
in either protocol:

- frames: a response may carry `<template class="frame" data-pause="600">…</template>` elements,
  the computer players' cards that the page plays out one after another; the player waits the
  sum of their pauses. What is inside them is not the table the player acts on.
- advance: the table carries a form posting to `/games/N/advance` with
  `hx-trigger="load delay:600ms, …"`; the page waits that long and posts it, and the answer is
  the next table.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field

_TAG = re.compile(r"<(form|input|button|template)\b([^>]*)>", re.IGNORECASE)
_ATTR = re.compile(r'([^\s=/>"]+)(?:\s*=\s*"([^"]*)")?')
_TEMPLATE = re.compile(r"<template\b([^>]*)>", re.IGNORECASE)
_GAME = re.compile(r"/games/(\d+)(?:/|$)")
_DELAY = re.compile(r"\bdelay:(\d+(?:\.\d+)?)(ms|s)\b")
_FRAME_END = re.compile(r"</template\s*>|<template\b", re.IGNORECASE)


def _attrs(text: str) -> dict[str, str]:
    # Unescaping only the values with an entity keeps the load generator's CPU, which shares
    # the machine with the server, low.
    return {
        name.lower(): html.unescape(value) if "&" in value else value
        for name, value in _ATTR.findall(text)
    }


def _frames(page: str) -> tuple[str, float]:
    """The page without its frame templates, and the sum of their pauses in seconds."""
    kept: list[str] = []
    pause_ms = 0.0
    at = 0
    while (tag := _find_frame(page, at)) is not None:
        start, end_of_tag, attrs = tag
        pause_ms += float(attrs.get("data-pause") or 0)
        kept.append(page[at:start])
        depth, at = 1, end_of_tag
        while depth and (mark := _FRAME_END.search(page, at)) is not None:
            depth += -1 if mark.group(0).startswith("</") else 1
            at = mark.end()
        if depth:
            at = len(page)
    kept.append(page[at:])
    return "".join(kept), pause_ms / 1000


def _find_frame(page: str, at: int) -> tuple[int, int, dict[str, str]] | None:
    for match in _TEMPLATE.finditer(page, at):
        if "frame" not in match.group(1):
            continue
        attrs = _attrs(match.group(1))
        if "frame" in attrs.get("class", "").split():
            return match.start(), match.end(), attrs
    return None


@dataclass
class Screen:
    """What the player sees once a response is in, and what it may do."""

    kind: str
    """advance, pass, play, moon, next, over, or none (nothing to do: unexpected)."""
    game_id: int | None = None
    version: str | None = None
    pause: float = 0.0
    """Seconds the page spends playing out the response's frames."""
    advance_delay: float = 0.0
    """Seconds the page waits before posting the advance form, from the answer (the steps
    included)."""
    cards: list[str] = field(default_factory=list)
    """The cards it may pass (pass) or play (play)."""
    scorings: list[str] = field(default_factory=list)
    """The moon choice's options (moon)."""


def read_screen(page: str) -> Screen:
    """What a table page or fragment (or any page of the app) lets the player do."""
    body, pause = _frames(page)
    actions: list[str] = []
    version: str | None = None
    advance_delay: float | None = None
    pass_cards: list[str] = []
    play_cards: list[str] = []
    scorings: list[str] = []
    for match in _TAG.finditer(body):
        tag = match.group(1).lower()
        if tag != "form" and "name=" not in match.group(2):
            continue  # an input or button without a name tells nothing here
        attrs = _attrs(match.group(2))
        if tag == "form":
            action = attrs.get("hx-post") or attrs.get("action") or ""
            actions.append(action)
            if action.endswith("/advance"):
                delay = _DELAY.search(attrs.get("hx-trigger", ""))
                advance_delay = 0.0
                if delay is not None:
                    advance_delay = float(delay.group(1)) / (1000 if delay.group(2) == "ms" else 1)
        elif tag == "input" and attrs.get("name") == "version" and version is None:
            version = attrs.get("value")
        elif tag == "input" and attrs.get("name") == "cards":
            pass_cards.append(attrs.get("value", ""))
        elif (
            tag == "button"
            and attrs.get("name") == "card"
            and "disabled" not in attrs
            and attrs.get("aria-disabled") != "true"
        ):
            play_cards.append(attrs.get("value", ""))
        elif tag == "button" and attrs.get("name") == "scoring":
            scorings.append(attrs.get("value", ""))
    game_id = next((int(m.group(1)) for a in actions if (m := _GAME.search(a))), None)
    screen = Screen("none", game_id, version, pause)
    if any(a.endswith("/again") for a in actions):
        screen.kind = "over"
    elif advance_delay is not None:
        screen.kind, screen.advance_delay = "advance", advance_delay
    elif scorings and any(a.endswith("/moon") for a in actions):
        screen.kind, screen.scorings = "moon", scorings
    elif any(a.endswith("/next") for a in actions):
        screen.kind = "next"
    elif pass_cards and any(a.endswith("/pass") for a in actions):
        screen.kind, screen.cards = "pass", pass_cards
    elif play_cards:
        screen.kind, screen.cards = "play", play_cards
    return screen


def static_links(page: str) -> list[str]:
    """The same-site stylesheets, scripts and icons a page links (what a browser fetches)."""
    found = re.findall(r'<(?:link|script)\b[^>]*?\b(?:href|src)="(/static/[^"]+)"', page)
    return list(dict.fromkeys(html.unescape(f) for f in found))
