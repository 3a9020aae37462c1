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
from app.web.i18n import N_ as _


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


YES_NO = (Choice("true", _("Yes")), Choice("false", _("No")))

FIELDS: tuple[OptionField, ...] = (
    OptionField(
        "pass_cycle",
        _("Passing"),
        _("Where the three passed cards go, hand after hand. Across needs four players."),
        (
            Choice("LRAH", _("Left, right, across, no pass")),
            Choice("LR", _("Left, right")),
            Choice("LRH", _("Left, right, no pass")),
            Choice("none", _("No passing")),
        ),
    ),
    OptionField(
        "first_lead",
        _("First lead"),
        _("Who leads the first trick and with what."),
        (
            Choice("lowest_club", _("The lowest club (2♣) leads")),
            Choice("any_club", _("The 2♣ holder leads any club")),
            Choice("left_of_dealer", _("Left of the dealer, no heart or Q♠")),
        ),
        presets=("standard",),
    ),
    OptionField(
        "no_points_first_trick",
        _("No points on the first trick"),
        _("No heart or Q♠ may be discarded on the first trick while holding anything else."),
        YES_NO,
    ),
    OptionField(
        "must_break_hearts",
        _("Hearts must be broken"),
        _("Hearts may not be led until a heart has been played."),
        YES_NO,
    ),
    OptionField(
        "hearts_broken_by",
        _("What breaks hearts"),
        _("Any heart played, or only a heart discarded on another suit."),
        (Choice("any_play", _("Any heart played")), Choice("discard_only", _("Only a discard"))),
    ),
    OptionField(
        "qs_breaks_hearts",
        _("The queen of spades breaks hearts"),
        _("Playing Q♠ opens hearts as a heart would."),
        YES_NO,
    ),
    OptionField(
        "qs_lead_requires_broken",
        _("Queen of spades may be led"),
        _("Whether Q♠ may be led at any time or only once hearts are broken."),
        (Choice("false", _("At any time")), Choice("true", _("Only after hearts are broken"))),
    ),
    OptionField(
        "lead_hearts_if_only_qs_and_hearts",
        _("Lead a heart when holding only hearts and Q♠"),
        _("Otherwise the queen must be led."),
        YES_NO,
    ),
    OptionField(
        "omnibus",
        _("Omnibus"),
        _("A bonus card takes points off whoever wins it."),
        YES_NO,
        presets=("standard",),
    ),
    OptionField(
        "omnibus_bonus_card",
        _("Omnibus bonus card"),
        _("The card that takes points off (Omnibus only)."),
        (Choice("JD", _("Jack of diamonds")), Choice("TD", _("Ten of diamonds"))),
        presets=("standard",),
    ),
    OptionField(
        "omnibus_bonus_value",
        _("Omnibus bonus"),
        _("How many points the bonus card takes off."),
        (Choice("-10", "−10"), Choice("-5", "−5")),
        presets=("standard",),
    ),
    OptionField(
        "omnibus_moon_requires_bonus",
        _("Moon needs the bonus card"),
        _("In Omnibus, shooting the moon also needs the bonus card."),
        YES_NO,
        presets=("standard",),
    ),
    OptionField(
        "moon_scoring",
        _("Shooting the moon"),
        _("What happens when one player takes every heart and Q♠."),
        (
            Choice("add_to_others", _("Everyone else gets the points")),
            Choice("subtract_from_self", _("The shooter takes the points off")),
            Choice("choice", _("The shooter chooses")),
            Choice("auto", _("Whichever does not make the shooter lose")),
        ),
    ),
    OptionField(
        "moon_value",
        _("Moon value"),
        _("Points the moon moves."),
        (Choice("26", "26"), Choice("52", "52")),
    ),
    OptionField(
        "no_tricks_bonus",
        _("No-tricks bonus"),
        _("Points taken off a player who wins no trick in a hand."),
        (Choice("0", _("Off")), Choice("-3", "−3"), Choice("-5", "−5")),
    ),
    OptionField(
        "target_score",
        _("Play to"),
        _("The game ends after the hand in which someone reaches this score."),
        (Choice("50", "50"), Choice("100", "100"), Choice("150", "150")),
    ),
    OptionField(
        "tie_rule",
        _("Tie for the lowest score"),
        _("When the game would end with a tie for the lowest score."),
        (Choice("play_on", _("Play another hand")), Choice("shared", _("Share the win"))),
    ),
    OptionField(
        "cancel_leftover_to",
        _("Leftover cards"),
        _("Who takes the cards left over after the deal (face down)."),
        (
            Choice("first_trick_winner", _("The first trick's winner")),
            Choice("last_trick_winner", _("The last trick's winner")),
        ),
        presets=("cancellation",),
    ),
    OptionField(
        "cancel_last_trick_no_winner",
        _("Last trick without a winner"),
        _("Who takes a cancelled last trick."),
        (Choice("nobody", _("Nobody")), Choice("leader", _("Its leader"))),
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
    return {f.name: _text(getattr(options, f.name)) for f in FIELDS}


def _text(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(getattr(value, "value", value))


class OptionsFormError(ValueError):
    """The form asks for a table the rules do not define."""


REFUSALS = {
    "R17.1": _("Passing across needs exactly four players: choose another passing cycle."),
    "R20.5": _("Omnibus is not offered in Cancellation Hearts."),
    "R34.1": _("In Cancellation Hearts the player left of the dealer leads the first trick."),
}
"""Why the engine refused a combination, by rule (the form offers no other wrong value)."""


def read(form: Mapping[str, str]) -> RuleOptions:
    """The options a submitted new-game form asks for."""
    preset = form.get("preset", Variant.STANDARD.value)
    if preset not in PRESETS:
        raise OptionsFormError(_("Unknown preset."))
    players_text = form.get(f"players_{preset}", "") or str(DEFAULT_PLAYERS[preset])
    if not players_text.isdigit() or int(players_text) not in PLAYER_COUNTS[preset]:
        raise OptionsFormError(
            _("Standard Hearts is for 3 to 7 players; Cancellation Hearts for 6 to 11.")
        )
    players = int(players_text)
    overrides: dict[str, object] = {}
    for f in FIELDS:
        value = form.get(f.name, "default")
        if value in ("", "default"):
            continue
        if preset not in f.presets or value not in {c.value for c in f.choices}:
            raise OptionsFormError(_("That rule option is not offered for this table."))
        overrides[f.name] = _parse(value)
    try:
        return RuleOptions.preset(preset, players, **overrides)
    except InvalidOptionsError as err:
        rule = str(err).split(":", 1)[0]
        raise OptionsFormError(
            REFUSALS.get(rule, _("These rule options cannot be combined."))
        ) from None


def _parse(value: str) -> object:
    if value in ("true", "false"):
        return value == "true"
    if value.lstrip("-").isdigit():
        return int(value)
    return value
