"""What a game may show of its verifiable deals (docs/fair-play.md), and when.

The game's commitment is public from the start. A hand's key commitment is public from before
the hand; its key once the hand is scored. The secret is revealed once the game has ended
(finished, or abandoned for a new game). Nothing here reveals a key of a hand still being played
or of a hand not yet dealt: `Seal.of` is the one place that decides.
"""

from __future__ import annotations

import hmac
import json
import re
from dataclasses import dataclass, fields
from datetime import date
from functools import cache, lru_cache
from pathlib import Path
from typing import Any, TypeVar

from app.bots import Level
from app.engine import Deal
from app.engine.fairdeal import PROCEDURE, commitment, fair_deal, hand_key, key_commitment
from app.engine.options import RuleOptions


@dataclass(frozen=True, slots=True)
class HandSeal:
    """One hand's commitment, and its key once the hand is over."""

    number: int
    key_commitment: str
    key: str | None


@dataclass(frozen=True, slots=True)
class Seal:
    """A game's commitments, and the keys and secret it has revealed so far."""

    commitment: str
    secret: str | None
    hands: tuple[HandSeal, ...]
    """Every hand dealt so far (and the next one's commitment while the game goes on)."""

    @classmethod
    def of(
        cls, secret_hex: str | None, hands_dealt: int, hands_scored: int, ended: bool
    ) -> Seal | None:
        """The seal of a game dealt from `secret_hex` (None for a game dealt before verifiable
        deals): `hands_dealt` hands dealt, the first `hands_scored` of them scored, and whether
        the game has ended (which reveals everything)."""
        if secret_hex is None:
            return None
        secret = bytes.fromhex(secret_hex)
        shown = hands_dealt if ended else max(hands_dealt, hands_scored + 1)
        hands = []
        for number in range(1, shown + 1):
            key = hand_key(secret, number)
            revealed = ended or number <= hands_scored
            hands.append(HandSeal(number, key_commitment(key), key.hex() if revealed else None))
        return cls(commitment(secret), secret_hex if ended else None, tuple(hands))

    def to_json(self) -> dict[str, Any]:
        """The `fair_play` object of a game file (docs/game-json.md)."""
        return {
            "procedure": PROCEDURE,
            "commitment": self.commitment,
            "secret": self.secret,
            "hands": [
                {"number": h.number, "key_commitment": h.key_commitment, "key": h.key}
                for h in self.hands
            ],
        }


def verified(options: RuleOptions, seal: HandSeal, dealt: Deal) -> bool:
    """Whether a revealed hand key matches its commitment and gives exactly `dealt`."""
    if seal.key is None:
        return False
    key = bytes.fromhex(seal.key)
    return key_commitment(key) == seal.key_commitment and fair_deal(options, key) == dealt


@dataclass(frozen=True, slots=True)
class TableSeal:
    """What the table shows: the game's commitment and, while the game goes on, the hand in
    play (or the next one to be dealt) with its key commitment."""

    commitment: str
    hand: int | None = None
    key_commitment: str | None = None


def table_seal(
    secret_hex: str | None, hands_dealt: int, hands_scored: int, ended: bool
) -> TableSeal | None:
    """The table's seal of a game dealt from `secret_hex` (None before verifiable deals)."""
    if secret_hex is None:
        return None
    return _table_seal(secret_hex, None if ended else max(hands_dealt, hands_scored + 1))


@lru_cache(maxsize=4096)
def _table_seal(secret_hex: str, number: int | None) -> TableSeal:
    """Made once per hand of a game: every answer shows it, for the table and each step."""
    secret = bytes.fromhex(secret_hex)
    if number is None:
        return TableSeal(commitment(secret))
    return TableSeal(commitment(secret), number, key_commitment(hand_key(secret, number)))


CODE_DIGITS = 10
"""Hex digits of the game's commitment in its deal code (40 bits: a code cannot be guessed)."""
_CODE = re.compile(r"\s*([0-9]{1,12})\s*-\s*([0-9a-fA-F]{10})\s*")
"""A deal code as typed: ASCII digits only (no other script's digits), `CODE_DIGITS` hex."""


def deal_code(game_id: int, game_commitment: str, ended: bool) -> str | None:
    """The short code that lets another browser play an ended game's deals: the game's number
    and the start of its commitment (public since the game began), e.g. `1234-5f3a9c2e1b`;
    None while the game goes on (its deals to come stay its own)."""
    return f"{game_id}-{game_commitment[:CODE_DIGITS]}" if ended else None


def read_deal_code(text: str) -> tuple[int, str] | None:
    """The game number and commitment digits of a deal code as typed (spaces and case
    forgiven); None if it is not one."""
    found = _CODE.fullmatch(text[:64])
    if found is None:
        return None
    return int(found.group(1)), found.group(2).lower()


def code_matches(secret_hex: str, digits: str) -> bool:
    """Whether a code's commitment digits are those of the game dealt from `secret_hex`."""
    expected = commitment(bytes.fromhex(secret_hex))[:CODE_DIGITS]
    return hmac.compare_digest(expected, digits)


FIGURES = Path(__file__).with_name("strength.json")
"""The levels' measured strength (`python -m bench.strength --record` writes it)."""


GAMES_IN_ORDER = ("standard", "omnibus", "cancellation")
"""The games of the tables in the order the page lists them (`listing_order`)."""


def listing_order(pair: str, table: str) -> tuple[int, int, int]:
    """Where the page lists a figure of `pair` ("expert-vs-hard") at `table` ("standard-4")
    (`_Pairing.listing_order`)."""
    tested, other = pair.split("-vs-", 1)
    return _Pairing(tested, other, table).listing_order


@dataclass(frozen=True, slots=True)
class _Pairing:
    """Two levels at one table (`standard-4`, `cancellation-8`): what every figure is of."""

    tested_level: str
    other_level: str
    table: str

    @property
    def variant(self) -> str:
        """The table's game: "standard", "omnibus" or "cancellation"."""
        return self.table.rsplit("-", 1)[0]

    @property
    def players(self) -> int:
        """The table's number of seats."""
        return int(self.table.rsplit("-", 1)[1])

    @property
    def listing_order(self) -> tuple[int, int, int]:
        """Where the page lists a figure of this pairing: up the ladder of levels (Medium
        against Easy first), then by game (`GAMES_IN_ORDER`), then by seats."""
        level = list(Level).index(Level(self.tested_level))
        return level, GAMES_IN_ORDER.index(self.variant), self.players


@dataclass(frozen=True, slots=True)
class StrengthFigure(_Pairing):
    """One pair of levels at one table, by duplicate deals: the points per hand the other
    level took more than the tested one (`difference`, ± `half_width` for 95 %)."""

    deals: int
    tested: float
    others: float
    difference: float
    half_width: float
    measured: date


@cache
def strength_figures(path: Path = FIGURES) -> tuple[StrengthFigure, ...]:
    """The recorded figures, as the file orders them (`listing_order`)."""
    return _recorded(StrengthFigure, path, "pairs")


@dataclass(frozen=True, slots=True)
class GamesFigure(_Pairing):
    """One pair of levels at one table, by whole games: the tested level in one seat and the
    other level in every other seat, the share of the games it won (`rate`, ± `half_width` for
    95 %, a shared win counting as its share) against `parity`, what an equal player wins."""

    games: int
    rate: float
    half_width: float
    parity: float
    measured: date


@cache
def games_figures(path: Path = FIGURES) -> tuple[GamesFigure, ...]:
    """The recorded shares of games won, as the file orders them (as `strength_figures`)."""
    return _recorded(GamesFigure, path, "games")


_Figure = TypeVar("_Figure", StrengthFigure, GamesFigure)


def _recorded(kind_of_figure: type[_Figure], path: Path, kind: str) -> tuple[_Figure, ...]:
    """The file's rows of one kind ("pairs" or "games"), as figures: each row's pair gives the
    two levels, its date the day measured, and its other fields are the figure's own."""
    rows = json.loads(path.read_text()).get(kind, []) if path.exists() else []
    given = ("tested_level", "other_level", "measured")
    own = [f.name for f in fields(kind_of_figure) if f.name not in given]
    figures = []
    for row in rows:
        tested, other = str(row["pair"]).split("-vs-", 1)
        measured = date.fromisoformat(str(row["measured"]))
        values: dict[str, Any] = {name: row[name] for name in own}
        figures.append(
            kind_of_figure(tested_level=tested, other_level=other, measured=measured, **values)
        )
    return tuple(figures)
