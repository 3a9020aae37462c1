"""Cards, suits and ranks (RULES.md R1, R30.2) with their text codecs.

A card is an interned value: `Card.from_str("QS") is Card.from_str("QS")`, so two copies of the
same card in Cancellation Hearts are equal values and a hand is simply a sorted tuple of cards
(a multiset). Codes are rank then suit, with `T` for ten: `"QS"`, `"TD"`, `"2C"`.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum
from typing import Any, Final

from app.engine.errors import InvalidActionError


class Suit(StrEnum):
    """A suit; the value is its one-letter code. Declared in display order: C, D, S, H."""

    CLUBS = "C"
    DIAMONDS = "D"
    SPADES = "S"
    HEARTS = "H"

    @property
    def symbol(self) -> str:
        """The suit's symbol for display (♣ ♦ ♠ ♥)."""
        return _SYMBOLS[self]


_SYMBOLS: Final = {Suit.CLUBS: "♣", Suit.DIAMONDS: "♦", Suit.SPADES: "♠", Suit.HEARTS: "♥"}
SUITS: Final = tuple(Suit)
RANK_CODES: Final = "23456789TJQKA"
"""Rank codes from low (2) to high (ace); a card's `rank` is 2 … 14 (R1.2)."""

_SUIT_INDEX: Final = {suit: i for i, suit in enumerate(SUITS)}


class Card:
    """One playing card: `rank` 2 … 14 (ace high, R1.2) and `suit`. Instances are interned."""

    __slots__ = ("index", "rank", "suit")
    rank: int
    suit: Suit
    index: int

    def __new__(cls, rank: int, suit: Suit) -> Card:
        """Return the card of this rank and suit (the one shared instance)."""
        try:
            return _BY_RANK_SUIT[(rank, suit)]
        except (KeyError, TypeError):
            raise InvalidActionError(f"no such card: rank {rank!r} of suit {suit!r}") from None

    @classmethod
    def _make(cls, rank: int, suit: Suit) -> Card:
        card = object.__new__(cls)
        object.__setattr__(card, "rank", rank)
        object.__setattr__(card, "suit", suit)
        object.__setattr__(card, "index", _SUIT_INDEX[suit] * 13 + rank - 2)
        return card

    @classmethod
    def from_str(cls, code: str) -> Card:
        """Parse a card code such as `"QS"` or `"TD"` (case-insensitive; `"10D"` also accepted)."""
        if not isinstance(code, str):
            raise InvalidActionError(f"a card code must be a string, not {type(code).__name__}")
        text = code.strip().upper()
        if text.startswith("10"):
            text = "T" + text[2:]
        card = _BY_CODE.get(text)
        if card is None:
            raise InvalidActionError(f"not a card code: {code!r}")
        return card

    @classmethod
    def from_index(cls, index: int) -> Card:
        """Return the card with this index (0 … 51: suit-major in C, D, S, H order, rank-minor)."""
        return _BY_INDEX[index]

    @property
    def code(self) -> str:
        """The card's code, e.g. `"QS"`."""
        return RANK_CODES[self.rank - 2] + self.suit.value

    @property
    def label(self) -> str:
        """The card as people write it, e.g. `"10♦"`, `"Q♠"`."""
        rank = "10" if self.rank == 10 else RANK_CODES[self.rank - 2]
        return rank + self.suit.symbol

    @property
    def bit(self) -> int:
        """This card as a one-bit mask (`1 << index`)."""
        return 1 << self.index

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("Card is immutable")

    def __reduce__(self) -> tuple[Any, ...]:
        return (Card.from_str, (self.code,))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Card:
        return self

    def __hash__(self) -> int:
        return self.index

    def __eq__(self, other: object) -> bool:
        return self is other

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index

    def __le__(self, other: Card) -> bool:
        return self.index <= other.index

    def __gt__(self, other: Card) -> bool:
        return self.index > other.index

    def __ge__(self, other: Card) -> bool:
        return self.index >= other.index

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card({self.code!r})"


_BY_RANK_SUIT: Final = {(r, s): Card._make(r, s) for s in SUITS for r in range(2, 15)}
_BY_INDEX: Final = tuple(sorted(_BY_RANK_SUIT.values(), key=lambda c: c.index))
_BY_CODE: Final = {c.code: c for c in _BY_INDEX}

FULL_DECK: Final[tuple[Card, ...]] = _BY_INDEX
"""The 52 cards of one French-suited deck (R1.1), sorted."""

QUEEN_OF_SPADES: Final = Card.from_str("QS")
TWO_OF_CLUBS: Final = Card.from_str("2C")

Hand = tuple[Card, ...]
"""A sorted tuple of cards; may hold two equal cards in Cancellation Hearts."""


def card(code: str) -> Card:
    """Shorthand for `Card.from_str`."""
    return Card.from_str(code)


def cards(codes: str | Iterable[str]) -> Hand:
    """Parse several card codes, separated by spaces or commas, into a sorted tuple."""
    items = codes.replace(",", " ").split() if isinstance(codes, str) else codes
    return tuple(sorted(Card.from_str(code) for code in items))


def cards_str(items: Iterable[Card]) -> str:
    """Write cards as space-separated codes in the given order."""
    return " ".join(c.code for c in items)


def is_penalty_card(c: Card) -> bool:
    """True for a heart or the queen of spades (R1.4, R7.1)."""
    return c.suit is Suit.HEARTS or c is QUEEN_OF_SPADES


def remove_cards(hand: Hand, removed: Iterable[Card]) -> Hand | None:
    """Return `hand` without one copy of each removed card, or None if one is not in it."""
    remaining = list(hand)
    for c in removed:
        try:
            remaining.remove(c)
        except ValueError:
            return None
    return tuple(remaining)
