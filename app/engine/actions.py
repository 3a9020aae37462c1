"""Actions and their text and JSON codecs.

A game is its header plus a list of these actions; the deal of every hand is an action too, so a
stored game never depends on a random generator (DESIGN.md, Persistence).

Text forms (round-trip with `parse_action`):
    deal 2C 3C … / 4C 5C … / … | 5H 9C     hands in seat order, then the kitty after `|`
    pass 0 QS AS KH                        seat 0 passes three cards
    play 2 QS                              seat 2 plays the queen of spades
    moon 1 subtract_from_self              the shooter at seat 1 chooses how the moon scores
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from app.engine.cards import Card, Hand
from app.engine.errors import InvalidActionError
from app.engine.options import MoonScoring

MOON_CHOICES = (MoonScoring.ADD_TO_OTHERS, MoonScoring.SUBTRACT_FROM_SELF)


def _seat(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise InvalidActionError(f"a seat is a whole number from 0, not {value!r}")
    return value


def _card(value: Any) -> Card:
    return value if isinstance(value, Card) else Card.from_str(value)


def _hand(values: Any) -> Hand:
    if isinstance(values, str):
        values = values.replace(",", " ").split()  # "QS AS KH" reads as three cards
    if not isinstance(values, Iterable):
        raise InvalidActionError(f"expected a list of cards, not {values!r}")
    return tuple(sorted(_card(v) for v in values))


CardLike = Card | str
"""A card or its code; action constructors accept either (and a string of codes for a list)."""


@dataclass(frozen=True, slots=True, init=False)
class Deal:
    """The chance action that deals a hand: each seat's cards and the face-down kitty (R3, R32)."""

    hands: tuple[Hand, ...]
    kitty: Hand

    def __init__(self, hands: Iterable[Iterable[CardLike]], kitty: Iterable[CardLike] = ()) -> None:
        if isinstance(hands, str) or not isinstance(hands, Iterable):
            raise InvalidActionError("a deal is a list of hands")
        object.__setattr__(self, "hands", tuple(_hand(h) for h in hands))
        object.__setattr__(self, "kitty", _hand(kitty))

    def __str__(self) -> str:
        text = "deal " + " / ".join(" ".join(map(str, h)) for h in self.hands)
        return text + (" | " + " ".join(map(str, self.kitty)) if self.kitty else "")

    def to_json(self) -> dict[str, Any]:
        """The JSON form: `{"type": "deal", "hands": [[…], …], "kitty": […]}`."""
        return {
            "type": "deal",
            "hands": [[c.code for c in h] for h in self.hands],
            "kitty": [c.code for c in self.kitty],
        }


@dataclass(frozen=True, slots=True, init=False)
class Pass:
    """A seat commits the cards it passes this hand (R4.1)."""

    seat: int
    cards: Hand

    def __init__(self, seat: int, cards: Iterable[CardLike]) -> None:
        object.__setattr__(self, "seat", _seat(seat))
        object.__setattr__(self, "cards", _hand(cards))

    def __str__(self) -> str:
        return f"pass {self.seat} " + " ".join(map(str, self.cards))

    def to_json(self) -> dict[str, Any]:
        """The JSON form: `{"type": "pass", "seat": 0, "cards": ["QS", "AS", "KH"]}`."""
        return {"type": "pass", "seat": self.seat, "cards": [c.code for c in self.cards]}


@dataclass(frozen=True, slots=True, init=False)
class Play:
    """A seat plays one card to the current trick."""

    seat: int
    card: Card

    def __init__(self, seat: int, card: CardLike) -> None:
        object.__setattr__(self, "seat", _seat(seat))
        object.__setattr__(self, "card", _card(card))

    def __str__(self) -> str:
        return f"play {self.seat} {self.card}"

    def to_json(self) -> dict[str, Any]:
        """The JSON form: `{"type": "play", "seat": 2, "card": "QS"}`."""
        return {"type": "play", "seat": self.seat, "card": self.card.code}


@dataclass(frozen=True, slots=True, init=False)
class MoonChoice:
    """The shooter chooses how the moon scores when `moon_scoring = choice` (R12.5)."""

    seat: int
    scoring: MoonScoring

    def __init__(self, seat: int, scoring: MoonScoring | str) -> None:
        object.__setattr__(self, "seat", _seat(seat))
        try:
            chosen: MoonScoring | None = MoonScoring(scoring)
        except (ValueError, TypeError):
            chosen = None
        if chosen not in MOON_CHOICES:
            raise InvalidActionError(
                f"a moon choice is add_to_others or subtract_from_self, not {scoring!r}"
            )
        object.__setattr__(self, "scoring", chosen)

    def __str__(self) -> str:
        return f"moon {self.seat} {self.scoring.value}"

    def to_json(self) -> dict[str, Any]:
        """The JSON form: `{"type": "moon", "seat": 1, "scoring": "subtract_from_self"}`."""
        return {"type": "moon", "seat": self.seat, "scoring": self.scoring.value}


Action = Deal | Pass | Play | MoonChoice


def parse_action(text: str) -> Action:
    """Parse the text form of any action (the inverse of `str(action)`)."""
    if not isinstance(text, str):
        raise InvalidActionError("an action must be text")
    verb, _, rest = text.strip().partition(" ")
    words = rest.split()
    try:
        if verb == "deal":
            hands_text, _, kitty_text = rest.partition("|")
            return Deal(tuple(h.split() for h in hands_text.split("/")), kitty_text.split())
        if verb == "pass":
            return Pass(int(words[0]), words[1:])
        if verb == "play" and len(words) == 2:
            return Play(int(words[0]), words[1])
        if verb == "moon" and len(words) == 2:
            return MoonChoice(int(words[0]), words[1])
    except (ValueError, IndexError) as err:
        if isinstance(err, InvalidActionError):
            raise
        raise InvalidActionError(f"cannot read action {text!r}") from None
    raise InvalidActionError(f"cannot read action {text!r}")


def action_to_json(action: Action) -> dict[str, Any]:
    """The JSON form of an action."""
    return action.to_json()


def _json_list(value: Any) -> list[Any]:
    """A JSON array, strictly (the JSON forms never write cards as one string)."""
    if not isinstance(value, list):
        raise InvalidActionError(f"expected a JSON array, not {value!r}")
    return value


def action_from_json(data: Any) -> Action:
    """Rebuild an action from its JSON form; anything malformed raises `InvalidActionError`."""
    if not isinstance(data, dict):
        raise InvalidActionError("an action must be a JSON object")
    kind = data.get("type")
    try:
        if kind == "deal":
            hands = _json_list(data["hands"])
            return Deal([_json_list(h) for h in hands], _json_list(data.get("kitty", [])))
        if kind == "pass":
            return Pass(data["seat"], _json_list(data["cards"]))
        if kind == "play":
            return Play(data["seat"], data["card"])
        if kind == "moon":
            return MoonChoice(data["seat"], data["scoring"])
    except KeyError as err:
        raise InvalidActionError(f"action {kind} lacks field {err.args[0]!r}") from None
    raise InvalidActionError(f"unknown action type {kind!r}")
