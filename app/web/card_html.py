"""A card's HTML, drawn once per card and reused: the SVG face (corners, suit pips or a court
letter), the inline label of records, and the face-down back. The table draws dozens of cards per
answer, so they are not rendered through template macros each time."""

from __future__ import annotations

from functools import cache

from markupsafe import Markup, escape

from app.engine import Card, Suit

BACK = Markup('<span class="back" aria-hidden="true"></span>')
_COURT = ("J", "Q", "K")


def _parts(code: str) -> tuple[str, str, str, str, str]:
    card = Card.from_str(code)
    rank = "10" if card.rank == 10 else card.code[0]
    colour = "red" if card.suit in (Suit.HEARTS, Suit.DIAMONDS) else "black"
    return rank, card.suit.value, card.suit.symbol, card.label, colour


@cache
def face(code: str) -> Markup:
    """The SVG face of the card `code` (e.g. "QS")."""
    rank, suit, symbol, label, colour = _parts(code)
    corner = (
        f'<text class="rank" x="8" y="27">{rank}</text>'
        f'<text class="suit" x="8" y="49">{symbol}</text>'
    )
    if rank in _COURT:
        middle = (
            '<rect class="court-frame" x="26" y="28" width="48" height="84" rx="5"/>'
            f'<text class="court" x="50" y="80" text-anchor="middle">{rank}</text>'
            f'<text class="court-suit" x="50" y="104" text-anchor="middle">{symbol}</text>'
        )
    else:
        middle = f'<text class="pip" x="50" y="88" text-anchor="middle">{symbol}</text>'
    return Markup(
        f'<svg class="face {colour} suit-{suit}" viewBox="0 0 100 140" role="img" '
        f'aria-label="{escape(label)}" focusable="false">'
        '<rect class="card-bg" x="1.5" y="1.5" width="97" height="137" rx="9"/>'
        f'<g class="corner">{corner}</g>'
        f'<g class="corner" transform="rotate(180 50 70)">{corner}</g>'
        f"{middle}</svg>"
    )


@cache
def inline(code: str) -> Markup:
    """The card as a short coloured label in a line of text ("Q♠")."""
    _, suit, _, label, colour = _parts(code)
    return Markup(f'<span class="mini suit-{suit} {colour}">{escape(label)}</span>')
