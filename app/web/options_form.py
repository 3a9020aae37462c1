"""The new-game form: presets, seats, and every rule option of RULES.md §2 with its explanation.

Each option is a choice among the engine's values plus "the preset's default"; the form is read
into `RuleOptions` and a combination the rules do not define is refused with the engine's
message (RuleOptions validates itself).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from app.engine import InvalidOptionsError, RuleOptions, Variant
from app.engine.options import CANCELLATION_PLAYERS, STANDARD_PLAYERS
from app.services import inputs
from app.web.i18n import N_


@dataclass(frozen=True, slots=True)
class Choice:
    """One value of an option, with its label."""

    value: str
    label: str


@dataclass(frozen=True, slots=True)
class OptionField:
    """One rule option on the form."""

    name: str
    label: str
    help: str
    choices: tuple[Choice, ...]
    presets: tuple[str, ...] = ("standard", "cancellation")
    """The presets that offer this option."""

    def label_for(self, value: object) -> str:
        """The label of the choice for `value` (a form text or an option's value); the value as
        text if no choice has it."""
        text = value_text(value)
        return next((c.label for c in self.choices if c.value == text), text)


YES_NO = (Choice("true", N_("Yes")), Choice("false", N_("No")))

FIELDS: tuple[OptionField, ...] = (
    OptionField(
        "pass_cycle",
        N_("Passing"),
        N_("Where the three passed cards go, hand after hand. Across needs four players."),
        (
            Choice("LRAH", N_("Left, right, across, no pass")),
            Choice("LR", N_("Left, right")),
            Choice("LRH", N_("Left, right, no pass")),
            Choice("none", N_("No passing")),
        ),
    ),
    OptionField(
        "first_lead",
        N_("First lead"),
        N_("Who leads the first trick and with what."),
        (
            Choice("lowest_club", N_("The lowest club (2♣) leads")),
            Choice("any_club", N_("The 2♣ holder leads any club")),
            Choice("left_of_dealer", N_("Left of the dealer, no heart or Q♠")),
        ),
        presets=("standard",),
    ),
    OptionField(
        "no_points_first_trick",
        N_("No points on the first trick"),
        N_("No heart or Q♠ may be discarded on the first trick while holding anything else."),
        YES_NO,
    ),
    OptionField(
        "must_break_hearts",
        N_("Hearts must be broken"),
        N_("Hearts may not be led until a heart has been played."),
        YES_NO,
    ),
    OptionField(
        "hearts_broken_by",
        N_("What breaks hearts"),
        N_("Any heart played, or only a heart discarded on another suit."),
        (Choice("any_play", N_("Any heart played")), Choice("discard_only", N_("Only a discard"))),
    ),
    OptionField(
        "qs_breaks_hearts",
        N_("The queen of spades breaks hearts"),
        N_("Playing Q♠ opens hearts as a heart would."),
        YES_NO,
    ),
    OptionField(
        "qs_lead_requires_broken",
        N_("Queen of spades may be led"),
        N_("Whether Q♠ may be led at any time or only once hearts are broken."),
        (Choice("false", N_("At any time")), Choice("true", N_("Only after hearts are broken"))),
    ),
    OptionField(
        "lead_hearts_if_only_qs_and_hearts",
        N_("Lead a heart when holding only hearts and Q♠"),
        N_("Otherwise the queen must be led."),
        YES_NO,
    ),
    OptionField(
        "omnibus",
        N_("Omnibus"),
        N_("A bonus card takes points off whoever wins it."),
        YES_NO,
        presets=("standard",),
    ),
    OptionField(
        "omnibus_bonus_card",
        N_("Omnibus bonus card"),
        N_("The card that takes points off (Omnibus only)."),
        (Choice("JD", N_("Jack of diamonds")), Choice("TD", N_("Ten of diamonds"))),
        presets=("standard",),
    ),
    OptionField(
        "omnibus_bonus_value",
        N_("Omnibus bonus"),
        N_("How many points the bonus card takes off."),
        (Choice("-10", "−10"), Choice("-5", "−5")),
        presets=("standard",),
    ),
    OptionField(
        "omnibus_moon_requires_bonus",
        N_("Moon needs the bonus card"),
        N_("In Omnibus, shooting the moon also needs the bonus card."),
        YES_NO,
        presets=("standard",),
    ),
    OptionField(
        "moon_scoring",
        N_("Shooting the moon"),
        N_("What happens when one player takes every heart and Q♠."),
        (
            Choice("add_to_others", N_("Everyone else gets the points")),
            Choice("subtract_from_self", N_("The shooter takes the points off")),
            Choice("choice", N_("The shooter chooses")),
            Choice("auto", N_("Whichever does not make the shooter lose")),
        ),
    ),
    OptionField(
        "moon_value",
        N_("Moon value"),
        N_("Points the moon moves."),
        (Choice("26", "26"), Choice("52", "52")),
    ),
    OptionField(
        "no_tricks_bonus",
        N_("No-tricks bonus"),
        N_("Points taken off a player who wins no trick in a hand."),
        (Choice("0", N_("Off")), Choice("-3", "−3"), Choice("-5", "−5")),
    ),
    OptionField(
        "target_score",
        N_("Play to"),
        N_("The game ends after the hand in which someone reaches this score."),
        (Choice("50", "50"), Choice("100", "100"), Choice("150", "150")),
    ),
    OptionField(
        "tie_rule",
        N_("Tie for the lowest score"),
        N_("When the game would end with a tie for the lowest score."),
        (Choice("play_on", N_("Play another hand")), Choice("shared", N_("Share the win"))),
    ),
    OptionField(
        "cancel_leftover_to",
        N_("Leftover cards"),
        N_("Who takes the cards left over after the deal (face down)."),
        (
            Choice("first_trick_winner", N_("The first trick's winner")),
            Choice("last_trick_winner", N_("The last trick's winner")),
        ),
        presets=("cancellation",),
    ),
    OptionField(
        "cancel_last_trick_no_winner",
        N_("Last trick without a winner"),
        N_("Who takes a cancelled last trick."),
        (Choice("nobody", N_("Nobody")), Choice("leader", N_("Its leader"))),
        presets=("cancellation",),
    ),
)

PRESETS = (Variant.STANDARD.value, Variant.CANCELLATION.value)
PLAYER_COUNTS = {
    Variant.STANDARD.value: tuple(STANDARD_PLAYERS),
    Variant.CANCELLATION.value: tuple(CANCELLATION_PLAYERS),
}
DEFAULT_PLAYERS = {Variant.STANDARD.value: 4, Variant.CANCELLATION.value: 8}


def defaults(preset: str, players: int) -> dict[str, str]:
    """Each option's value in the preset, as form text."""
    options = RuleOptions.preset(preset, players)
    return {f.name: value_text(getattr(options, f.name)) for f in FIELDS}


def value_text(value: object) -> str:
    """An option's value as the form writes it: "true"/"false", an enum's value, a number."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(getattr(value, "value", value))


class OptionsFormError(ValueError):
    """The form asks for a table the rules do not define."""


REFUSALS = {
    "R17.1": N_("Passing across needs exactly four players: choose another passing cycle."),
    "R20.5": N_("Omnibus is not offered in Cancellation Hearts."),
    "R34.1": N_("In Cancellation Hearts the player left of the dealer leads the first trick."),
}
"""Why the engine refused a combination, by rule (the form offers no other wrong value)."""


def read(form: Mapping[str, str]) -> RuleOptions:
    """The options a submitted new-game form asks for."""
    preset = form.get("preset", Variant.STANDARD.value)
    if preset not in PRESETS:
        raise OptionsFormError(N_("Unknown preset."))
    players_text = form.get(f"players_{preset}", "") or str(DEFAULT_PLAYERS[preset])
    players = inputs.ascii_int(players_text, 0, 99)
    if players is None or players not in PLAYER_COUNTS[preset]:
        raise OptionsFormError(
            N_("Standard Hearts is for 3 to 7 players; Cancellation Hearts for 6 to 11.")
        )
    overrides: dict[str, object] = {}
    for f in FIELDS:
        value = form.get(f.name, "default")
        if value in ("", "default"):
            continue
        if preset not in f.presets or value not in {c.value for c in f.choices}:
            raise OptionsFormError(N_("That rule option is not offered for this table."))
        overrides[f.name] = _parse(value)
    try:
        return RuleOptions.preset(preset, players, **overrides)
    except InvalidOptionsError as err:
        rule = str(err).split(":", 1)[0]
        raise OptionsFormError(
            REFUSALS.get(rule, N_("These rule options cannot be combined."))
        ) from None


def _parse(value: str) -> object:
    if value in ("true", "false"):
        return value == "true"
    number = inputs.ascii_int(value.removeprefix("-"), 0, 10**6)
    if number is not None:
        return -number if value.startswith("-") else number
    return value
