"""An independent implementation of `docs/fair-play.md`, written from the document alone (it
imports nothing of the game): the tests check the game's deals against it."""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterator

RANKS = "23456789TJQKA"
SUITS = "CDSH"
REMOVED = {3: {"2D"}, 4: set(), 5: {"2C", "2D"}, 6: {"3C", "4C", "2D", "3D"}, 7: {"3C", "2D", "3D"}}


def pack(cancellation: bool, players: int) -> list[str]:
    """The cards in play, in the document's order."""
    deck = [rank + suit for suit in SUITS for rank in RANKS]
    if cancellation:
        return [card for card in deck for _ in range(2)]
    return [card for card in deck if card not in REMOVED[players]]


def hand_key(secret: bytes, hand: int) -> bytes:
    return hmac.new(secret, b"hearts hand %d" % hand, hashlib.sha256).digest()


def stream(key: bytes) -> Iterator[int]:
    k = 0
    while True:
        block = hmac.new(key, b"shuffle %d" % k, hashlib.sha256).digest()
        for offset in range(0, 32, 4):
            yield int.from_bytes(block[offset : offset + 4], "big")
        k += 1


def uniform(integers: Iterator[int], m: int) -> int:
    while True:
        u = next(integers)
        if u < 2**32 - (2**32 % m):
            return u % m


def shuffle(cards: list[str], key: bytes) -> list[str]:
    cards = list(cards)
    integers = stream(key)
    for i in range(len(cards) - 1, 0, -1):
        j = uniform(integers, i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def deal(key: bytes, cancellation: bool, players: int) -> tuple[list[list[str]], list[str]]:
    """Each seat's cards (sorted as the document's tables) and the kitty."""
    cards = shuffle(pack(cancellation, players), key)
    size = len(cards) // players
    hands = [cards[seat * size : (seat + 1) * size] for seat in range(players)]
    return [sorted(h, key=card_order) for h in hands], sorted(
        cards[players * size :], key=card_order
    )


def card_order(card: str) -> tuple[int, int]:
    return SUITS.index(card[1]), RANKS.index(card[0])
