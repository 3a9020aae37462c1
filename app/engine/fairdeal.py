"""Verifiable deals: commit to a secret, derive each hand's deal from it, reveal it later.

The procedure is specified, with test vectors, in `docs/fair-play.md`; this module is its
reference implementation and uses nothing but SHA-256 and HMAC-SHA256 (never Python's `random`),
so a program in any language can reproduce every deal from the document alone:

- the game's secret is 32 random bytes; its commitment is SHA-256(secret), shown before any card;
- hand h's key is HMAC-SHA256(secret, "hearts hand h"); its commitment SHA-256(key) is shown
  before the hand, the key itself once the hand is over, the secret once the game is;
- the key drives a Fisher–Yates shuffle of the table's pack in the engine's card order (`deck_for`)
  through a stream of HMAC-SHA256 blocks, with rejection sampling, and the shuffled pack is dealt
  in blocks: seat 0's cards first, the kitty last.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterator, Sequence

from app.engine.actions import Deal
from app.engine.cards import Card
from app.engine.options import RuleOptions
from app.engine.table import deck_for, hand_size

PROCEDURE = "hearts-fair-deal-1"
"""The name of this procedure, as game files carry it (docs/fair-play.md)."""
SECRET_BYTES = 32
"""The length of a game's secret (256 bits)."""
_WORD = 2**32


def sha256_hex(data: bytes) -> str:
    """The SHA-256 of `data`, as 64 lowercase hex digits."""
    return hashlib.sha256(data).hexdigest()


def commitment(secret: bytes) -> str:
    """The game's commitment: SHA-256 of its secret (hex)."""
    return sha256_hex(secret)


def hand_key(secret: bytes, hand_number: int) -> bytes:
    """The key of hand `hand_number` (1, 2, …): HMAC-SHA256(secret, "hearts hand <number>")."""
    if hand_number < 1:
        raise ValueError(f"hands are numbered from 1, not {hand_number}")
    return hmac.digest(secret, f"hearts hand {hand_number}".encode("ascii"), "sha256")


def key_commitment(key: bytes) -> str:
    """The commitment to one hand's key, shown before the hand: SHA-256 of the key (hex)."""
    return sha256_hex(key)


def _words(key: bytes) -> Iterator[int]:
    """The key's stream: blocks HMAC-SHA256(key, "shuffle <k>") for k = 0, 1, …, read as
    32-bit unsigned big-endian integers."""
    block = 0
    while True:
        digest = hmac.digest(key, f"shuffle {block}".encode("ascii"), "sha256")
        for i in range(0, len(digest), 4):
            yield int.from_bytes(digest[i : i + 4], "big")
        block += 1


def _below(words: Iterator[int], bound: int) -> int:
    """A uniform integer in [0, bound): the next word below the largest multiple of `bound`
    that fits in 32 bits, modulo `bound` (words at or past it are skipped)."""
    limit = _WORD - _WORD % bound
    for word in words:
        if word < limit:
            return word % bound
    raise AssertionError("the stream is endless")  # pragma: no cover


def shuffled(deck: Sequence[Card], key: bytes) -> list[Card]:
    """`deck` shuffled by `key`: Fisher–Yates from the last position down, position i swapped
    with a uniform j in [0, i]."""
    cards = list(deck)
    words = _words(key)
    for i in range(len(cards) - 1, 0, -1):
        j = _below(words, i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def fair_deal(options: RuleOptions, key: bytes) -> Deal:
    """The deal a hand's key gives at this table: the pack in play shuffled by the key, then
    seat 0 the first `hand_size` cards, seat 1 the next, …, the kitty the rest (R15, R32.1)."""
    cards = shuffled(deck_for(options), key)
    size = hand_size(options)
    n = options.num_players
    return Deal(tuple(tuple(cards[s * size : (s + 1) * size]) for s in range(n)), cards[n * size :])


def secret_deal(options: RuleOptions, secret: bytes, hand_number: int) -> Deal:
    """Hand `hand_number`'s deal of the game whose secret is `secret`."""
    return fair_deal(options, hand_key(secret, hand_number))
