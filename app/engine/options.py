"""Rule options and the two presets of RULES.md §2.

`RuleOptions` is frozen and hashable and is fixed for the life of a game. Build one with a preset,
`RuleOptions.standard(num_players=4)` or `RuleOptions.cancellation(num_players=8)`, overriding any
option by keyword; invalid combinations raise `InvalidOptionsError` naming the rule.

Choices made where RULES.md leaves room (each is its recommendation):
- `pass_count` is always 3 (R4.1); `across` exists only at four seats, so `LRAH` needs 4 players.
- The Omnibus bonus value may be −10 or −5 (R20.1); `moon_value` may be 26 or 52 (R12, D-25);
  `no_tricks_bonus` is 0 (off) or a negative number of points (R21).
- Cancellation Hearts always uses `first_lead = left_of_dealer` (R34) and never Omnibus (R20.5).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from app.engine.cards import Card
from app.engine.errors import InvalidOptionsError


class Variant(StrEnum):
    """Standard Hearts (3–7 seats, one deck) or Cancellation Hearts (6–11 seats, two decks)."""

    STANDARD = "standard"
    CANCELLATION = "cancellation"


class PassCycle(StrEnum):
    """The passing rotation (R4.2, R17, R33): L = left, R = right, A = across, H = hold."""

    LRAH = "LRAH"
    LR = "LR"
    LRH = "LRH"
    NONE = "none"


class FirstLead(StrEnum):
    """Who leads trick 1 and with what (R5, R34)."""

    LOWEST_CLUB = "lowest_club"
    ANY_CLUB = "any_club"
    LEFT_OF_DEALER = "left_of_dealer"


class HeartsBrokenBy(StrEnum):
    """Which plays of a heart (or `QS`) break hearts (R8.2)."""

    ANY_PLAY = "any_play"
    DISCARD_ONLY = "discard_only"


class MoonScoring(StrEnum):
    """How a moon is scored (R12.3–R12.6)."""

    ADD_TO_OTHERS = "add_to_others"
    SUBTRACT_FROM_SELF = "subtract_from_self"
    CHOICE = "choice"
    AUTO = "auto"


class TieRule(StrEnum):
    """What a tie for the lowest total does at the end of the game (R13.4, R13.5)."""

    PLAY_ON = "play_on"
    SHARED = "shared"


class LeftoverTo(StrEnum):
    """Which trick's cards the Cancellation kitty goes with (R32.2, R32.3)."""

    FIRST_TRICK_WINNER = "first_trick_winner"
    LAST_TRICK_WINNER = "last_trick_winner"


class NoWinnerRule(StrEnum):
    """When a Cancellation trick has no winner (R36.5)."""

    NO_UNCANCELLED_LED_SUIT = "no_uncancelled_led_suit"


class LastTrickNoWinner(StrEnum):
    """Who collects a last Cancellation trick that has no winner (R38)."""

    NOBODY = "nobody"
    LEADER = "leader"


STANDARD_PLAYERS = range(3, 8)
CANCELLATION_PLAYERS = range(6, 12)
TARGET_SCORES = (50, 100, 150)
BONUS_CARDS = ("JD", "TD")
BONUS_VALUES = (-10, -5)
MOON_VALUES = (26, 52)


@dataclass(frozen=True, slots=True)
class RuleOptions:
    """Every rule option of RULES.md §2. Field defaults are the `standard` preset at 4 seats."""

    variant: Variant = Variant.STANDARD
    num_players: int = 4
    pass_cycle: PassCycle = PassCycle.LRAH
    pass_count: int = 3
    first_lead: FirstLead = FirstLead.LOWEST_CLUB
    no_points_first_trick: bool = True
    must_break_hearts: bool = True
    hearts_broken_by: HeartsBrokenBy = HeartsBrokenBy.ANY_PLAY
    qs_breaks_hearts: bool = False
    qs_lead_requires_broken: bool = False
    lead_hearts_if_only_qs_and_hearts: bool = False
    omnibus: bool = False
    omnibus_bonus_card: str = "JD"
    omnibus_bonus_value: int = -10
    omnibus_moon_requires_bonus: bool = False
    moon_scoring: MoonScoring = MoonScoring.ADD_TO_OTHERS
    moon_value: int = 26
    no_tricks_bonus: int = 0
    target_score: int = 100
    tie_rule: TieRule = TieRule.PLAY_ON
    cancel_leftover_to: LeftoverTo = LeftoverTo.FIRST_TRICK_WINNER
    cancel_no_winner_rule: NoWinnerRule = NoWinnerRule.NO_UNCANCELLED_LED_SUIT
    cancel_last_trick_no_winner: LastTrickNoWinner = LastTrickNoWinner.NOBODY

    def __post_init__(self) -> None:
        _coerce_enums(self)
        _validate(self)

    @classmethod
    def standard(cls, num_players: int = 4, **overrides: Any) -> RuleOptions:
        """The `standard` preset (seed 004's game) for 3–7 players, with any overrides."""
        values: dict[str, Any] = {
            "variant": Variant.STANDARD,
            "num_players": num_players,
            "pass_cycle": PassCycle.LRAH if num_players == 4 else PassCycle.LR,
        }
        values.update(overrides)
        return cls(**values)

    @classmethod
    def cancellation(cls, num_players: int = 8, **overrides: Any) -> RuleOptions:
        """The `cancellation` preset (seed 003) for 6–11 players, with any overrides."""
        values: dict[str, Any] = {
            "variant": Variant.CANCELLATION,
            "num_players": num_players,
            "pass_cycle": PassCycle.LR,
            "first_lead": FirstLead.LEFT_OF_DEALER,
            "no_points_first_trick": False,
            "qs_breaks_hearts": True,
            "moon_scoring": MoonScoring.CHOICE,
            "target_score": 150,
        }
        values.update(overrides)
        return cls(**values)

    @classmethod
    def preset(cls, name: str, num_players: int | None = None, **overrides: Any) -> RuleOptions:
        """Build a preset by name (`"standard"` or `"cancellation"`)."""
        if name == Variant.STANDARD:
            return cls.standard(4 if num_players is None else num_players, **overrides)
        if name == Variant.CANCELLATION:
            return cls.cancellation(8 if num_players is None else num_players, **overrides)
        raise InvalidOptionsError(f"unknown preset {name!r}")

    @property
    def is_cancellation(self) -> bool:
        """True for Cancellation Hearts (two decks)."""
        return self.variant is Variant.CANCELLATION

    @property
    def bonus_card(self) -> Card | None:
        """The Omnibus bonus card, or None when Omnibus is off (R20.1)."""
        return Card.from_str(self.omnibus_bonus_card) if self.omnibus else None

    def replace(self, **changes: Any) -> RuleOptions:
        """A copy with some options changed (validated again)."""
        return dataclasses.replace(self, **changes)

    def to_json(self) -> dict[str, Any]:
        """The options as a JSON-ready dict of plain strings, numbers and booleans."""
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            out[f.name] = value.value if isinstance(value, StrEnum) else value
        return out

    @classmethod
    def from_json(cls, data: Any) -> RuleOptions:
        """Rebuild options from `to_json` output; unknown or ill-typed fields are refused."""
        if not isinstance(data, dict):
            raise InvalidOptionsError("rule options must be a JSON object")
        names = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(data) - names)
        if unknown:
            raise InvalidOptionsError(f"unknown rule options: {', '.join(unknown)}")
        return cls(**data)


_BOOL_FIELDS = (
    "no_points_first_trick",
    "must_break_hearts",
    "qs_breaks_hearts",
    "qs_lead_requires_broken",
    "lead_hearts_if_only_qs_and_hearts",
    "omnibus",
    "omnibus_moon_requires_bonus",
)
_INT_FIELDS = (
    "num_players",
    "pass_count",
    "omnibus_bonus_value",
    "moon_value",
    "no_tricks_bonus",
    "target_score",
)


def _coerce_enums(options: RuleOptions) -> None:
    """Turn enum fields given as strings into enum members; refuse unknown values."""
    for name, kind in _ENUM_TYPES.items():
        value = getattr(options, name)
        if isinstance(value, kind):
            continue
        try:
            object.__setattr__(options, name, kind(value))
        except (ValueError, TypeError):
            allowed = ", ".join(m.value for m in kind)
            raise InvalidOptionsError(
                f"option {name} must be one of {allowed}, not {value!r}"
            ) from None


_ENUM_TYPES: dict[str, type[StrEnum]] = {
    "variant": Variant,
    "pass_cycle": PassCycle,
    "first_lead": FirstLead,
    "hearts_broken_by": HeartsBrokenBy,
    "moon_scoring": MoonScoring,
    "tie_rule": TieRule,
    "cancel_leftover_to": LeftoverTo,
    "cancel_no_winner_rule": NoWinnerRule,
    "cancel_last_trick_no_winner": LastTrickNoWinner,
}


def _validate(o: RuleOptions) -> None:
    """Refuse combinations RULES.md does not define, naming the rule."""
    for name in _BOOL_FIELDS:
        if not isinstance(getattr(o, name), bool):
            raise InvalidOptionsError(f"option {name} must be true or false")
    for name in _INT_FIELDS:
        value = getattr(o, name)
        if isinstance(value, bool) or not isinstance(value, int):
            raise InvalidOptionsError(f"option {name} must be a whole number")
    if o.variant is Variant.STANDARD and o.num_players not in STANDARD_PLAYERS:
        raise InvalidOptionsError("R15: standard Hearts is for 3 to 7 players")
    if o.variant is Variant.CANCELLATION:
        if o.num_players not in CANCELLATION_PLAYERS:
            raise InvalidOptionsError("R30.1: Cancellation Hearts is for 6 to 11 players")
        if o.first_lead is not FirstLead.LEFT_OF_DEALER:
            raise InvalidOptionsError(
                "R34.1: in Cancellation Hearts the player left of the dealer leads"
            )
        if o.omnibus:
            raise InvalidOptionsError("R20.5: Omnibus is not defined for Cancellation Hearts")
    if o.pass_count != 3:
        raise InvalidOptionsError("R4.1: exactly 3 cards are passed")
    if o.pass_cycle is PassCycle.LRAH and o.num_players != 4:
        raise InvalidOptionsError("R17.1: passing across needs exactly 4 players")
    if o.omnibus_bonus_card not in BONUS_CARDS:
        raise InvalidOptionsError("R20.1: the Omnibus bonus card is JD or TD")
    if o.omnibus_bonus_value not in BONUS_VALUES:
        raise InvalidOptionsError("R20.1: the Omnibus bonus is worth -10 or -5 points")
    if o.moon_value not in MOON_VALUES:
        raise InvalidOptionsError("R12: the moon is worth 26 or 52 points")
    if not -26 <= o.no_tricks_bonus <= 0:
        raise InvalidOptionsError("R21: the no-tricks bonus is 0 (off) or a negative number")
    if o.target_score not in TARGET_SCORES:
        raise InvalidOptionsError("R13.1: the target score is 50, 100 or 150")
