"""The full state of a game: frozen values that `apply` replaces, never mutates.

`GameState` holds everything, hidden cards included; only `view_for` may hand a seat a part of it.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any, TypeVar

from app.engine.cards import Card, Hand
from app.engine.errors import InvalidOptionsError
from app.engine.options import MoonScoring, RuleOptions
from app.engine.table import PassDirection


class Phase(StrEnum):
    """What the game waits for."""

    DEAL = "deal"
    """The next hand's deal (a chance action); the finished hand, if any, is still on the table."""
    PASS = "pass"
    """Seats still to commit their passed cards (simultaneous, R4.3)."""
    PLAY = "play"
    """One seat to play a card."""
    MOON_CHOICE = "moon_choice"
    """The shooter to choose how the moon scores (R12.5)."""
    GAME_OVER = "game_over"
    """Nothing: the game has ended (R13)."""


_S = TypeVar("_S", "HandState", "GameState")


def evolve(value: _S, **changes: Any) -> _S:
    """A copy of a state with some fields changed: `dataclasses.replace` without its overhead
    (the states have no `__post_init__`, and this is the engine's hot path)."""
    cls = type(value)
    new = object.__new__(cls)
    for name in cls.__slots__:
        object.__setattr__(
            new, name, changes.pop(name) if name in changes else getattr(value, name)
        )
    if changes:
        raise TypeError(f"{cls.__name__} has no fields {sorted(changes)}")
    return new


Plays = tuple[tuple[int, Card], ...]
"""The cards of a trick in play order, each with the seat that played it."""


@dataclass(frozen=True, slots=True)
class Trick:
    """A completed trick: public information at any table (R1.6, BOT-01)."""

    number: int
    leader: int
    plays: Plays
    winner: int | None
    """The seat whose card won, or None when a Cancellation trick has no winner (R36.5)."""
    collector: int | None
    """The seat that took the cards: the winner, the leader under R38.2's option, or None."""
    pot_taken: Hand
    """Played cards of earlier winnerless tricks that the collector took with this one (R37.1)."""
    kitty_taken: bool
    """Whether the face-down kitty went to the collector with this trick (R32.2)."""

    @property
    def cards(self) -> Hand:
        """The cards played to this trick, in play order."""
        return tuple(c for _, c in self.plays)


@dataclass(frozen=True, slots=True)
class HandResult:
    """The scored result of one hand, one entry per seat; public once the hand ends (R11)."""

    number: int
    dealer: int
    direction: PassDirection
    points: tuple[int, ...]
    """Hand points after the moon and the no-tricks bonus (R11, R12, R21)."""
    totals: tuple[int, ...]
    """Running totals after this hand (R11.3)."""
    shooter: int | None
    moon_scoring: MoonScoring | None
    """How the moon was scored (add_to_others or subtract_from_self), if there was one."""
    hearts: tuple[int, ...]
    queens: tuple[int, ...]
    bonus_cards: tuple[int, ...]
    tricks_won: tuple[int, ...]
    uncollected_points: int
    """Penalty points nobody collected (R38.1)."""


@dataclass(frozen=True, slots=True)
class HandState:
    """One hand from its deal to its last trick."""

    number: int
    dealer: int
    direction: PassDirection
    dealt: tuple[Hand, ...]
    kitty: Hand
    hands: tuple[Hand, ...]
    passed: tuple[Hand | None, ...]
    """Each seat's committed pass (None while not yet committed)."""
    received: tuple[Hand, ...]
    """Cards each seat received in the exchange (empty before it and in a hold hand)."""
    tricks: tuple[Trick, ...]
    current: Plays
    leader: int
    hearts_broken: bool
    pot: Hand
    """Played cards of winnerless tricks waiting for the next winner (R37)."""
    taken: tuple[Hand, ...]
    """Cards each seat has collected this hand (kitty included once collected)."""
    tricks_won: tuple[int, ...]
    uncollected: Hand
    """Cards nobody collected (R38.1)."""
    kitty_collector: int | None
    kitty_settled: bool
    """True once the kitty went to a seat or to nobody."""

    @property
    def num_players(self) -> int:
        """The number of seats."""
        return len(self.hands)

    @property
    def trick_number(self) -> int:
        """The number of the trick in progress (1-based)."""
        return len(self.tricks) + 1

    @property
    def to_play(self) -> int:
        """The seat whose card the current trick waits for."""
        return (self.leader + len(self.current)) % len(self.hands)

    @property
    def is_exchanged(self) -> bool:
        """True once every seat has passed (or in a hold hand)."""
        return all(p is not None for p in self.passed)


@dataclass(frozen=True, slots=True)
class GameHeader:
    """What a game is started from: its options and the first hand's dealer (R31)."""

    options: RuleOptions
    first_dealer: int = 0

    def __post_init__(self) -> None:
        if not 0 <= self.first_dealer < self.options.num_players:
            raise InvalidOptionsError("R31.1: the first dealer must be one of the seats")

    def to_json(self) -> dict[str, Any]:
        """The header as a JSON-ready dict."""
        return {"options": self.options.to_json(), "first_dealer": self.first_dealer}

    @classmethod
    def from_json(cls, data: Any) -> GameHeader:
        """Rebuild a header from `to_json` output."""
        if not isinstance(data, dict) or not isinstance(data.get("first_dealer", 0), int):
            raise InvalidOptionsError("a game header is an object with options and first_dealer")
        return cls(RuleOptions.from_json(data.get("options")), data.get("first_dealer", 0))


@dataclass(frozen=True, slots=True)
class GameState:
    """A whole game: options, finished hands, running totals and the hand in progress."""

    options: RuleOptions
    first_dealer: int
    phase: Phase
    hand: HandState | None
    """The hand in progress, or the last finished one while waiting for the next deal."""
    results: tuple[HandResult, ...]
    totals: tuple[int, ...]
    winners: tuple[int, ...]
    """The winners once the game is over (R13.3, R13.5); empty before."""
    moon_shooter: int | None
    """The seat asked for its moon choice in `Phase.MOON_CHOICE`."""

    @property
    def num_players(self) -> int:
        """The number of seats."""
        return self.options.num_players

    @property
    def hand_number(self) -> int:
        """The number of the current (or last) hand; 0 before the first deal."""
        return 0 if self.hand is None else self.hand.number

    @property
    def is_over(self) -> bool:
        """True when the game has ended."""
        return self.phase is Phase.GAME_OVER
