"""The Hearts rules engine: every table of RULES.md in one pure, standard-library-only package.

Typical use::

    from app.engine import RuleOptions, new_game, start_hand, apply, legal_actions, view_for

    state = start_hand(new_game(RuleOptions.standard()), seed=7)
    state = apply(state, legal_actions(state, seat=0)[0])

Notes on this implementation (choices RULES.md leaves open, each its recommendation):
- Seats are 0 … n−1 clockwise; at four seats 0, 1, 2, 3 are S, W, N, E (R2). The first hand's
  dealer is seat 0 unless the header says otherwise, and the deal moves left each hand (R31).
- A deal is an action carrying the cards, so replaying a game never re-runs a shuffle.
- A first lead with `first_lead = lowest_club` is the lowest club in the pack: `3C` at five seats
  (R5.3, D-14). The kitty of an uneven Cancellation deal rides with the first trick's cards,
  joining the pot if that trick has no winner (R32.2).
- A trick with no winner leaves its cards in the pot and its leader leads again (R37.2, D-21).
- A moon under `choice` stops the game in `Phase.MOON_CHOICE` until the shooter's `MoonChoice`
  action; a computer shooter is expected to answer with `auto_moon_scoring` (R12.5, R12.6).
- The renege penalty (R14.1) is never applied: illegal actions are refused instead (R14.2).
"""

from app.engine.actions import (
    Action,
    Deal,
    MoonChoice,
    Pass,
    Play,
    action_from_json,
    action_to_json,
    parse_action,
)
from app.engine.cards import (
    FULL_DECK,
    QUEEN_OF_SPADES,
    TWO_OF_CLUBS,
    Card,
    Hand,
    Suit,
    card,
    cards,
    cards_str,
    is_penalty_card,
    remove_cards,
)
from app.engine.errors import (
    ActionError,
    EngineError,
    IllegalActionError,
    InvalidActionError,
    InvalidOptionsError,
)
from app.engine.game import (
    apply,
    current_seat,
    legal_actions,
    legal_cards,
    new_game,
    random_deal,
    replay,
    seeded_deal,
    start_hand,
    to_act,
)
from app.engine.options import (
    FirstLead,
    HeartsBrokenBy,
    LastTrickNoWinner,
    LeftoverTo,
    MoonScoring,
    NoWinnerRule,
    PassCycle,
    RuleOptions,
    TieRule,
    Variant,
)
from app.engine.rules import breaks_hearts, illegal_play_rule, trick_winner
from app.engine.scoring import (
    auto_moon_scoring,
    game_winners,
    moon_points,
    raw_points,
    trick_points,
)
from app.engine.state import GameHeader, GameState, HandResult, HandState, Phase, Plays, Trick
from app.engine.table import (
    PASS_CYCLES,
    PassDirection,
    across,
    card_points,
    deck_for,
    hand_size,
    kitty_size,
    left,
    lowest_club,
    pass_direction,
    pass_source,
    pass_target,
    penalty_total,
    points_of,
    right,
    seat_names,
)
from app.engine.view import PlayerView, view_for

__all__ = [
    "FULL_DECK",
    "PASS_CYCLES",
    "QUEEN_OF_SPADES",
    "TWO_OF_CLUBS",
    "Action",
    "ActionError",
    "Card",
    "Deal",
    "EngineError",
    "FirstLead",
    "GameHeader",
    "GameState",
    "Hand",
    "HandResult",
    "HandState",
    "HeartsBrokenBy",
    "IllegalActionError",
    "InvalidActionError",
    "InvalidOptionsError",
    "LastTrickNoWinner",
    "LeftoverTo",
    "MoonChoice",
    "MoonScoring",
    "NoWinnerRule",
    "Pass",
    "PassCycle",
    "PassDirection",
    "Phase",
    "Play",
    "PlayerView",
    "Plays",
    "RuleOptions",
    "Suit",
    "TieRule",
    "Trick",
    "Variant",
    "across",
    "action_from_json",
    "action_to_json",
    "apply",
    "auto_moon_scoring",
    "breaks_hearts",
    "card",
    "card_points",
    "cards",
    "cards_str",
    "current_seat",
    "deck_for",
    "game_winners",
    "hand_size",
    "illegal_play_rule",
    "is_penalty_card",
    "kitty_size",
    "left",
    "legal_actions",
    "legal_cards",
    "lowest_club",
    "moon_points",
    "new_game",
    "parse_action",
    "pass_direction",
    "pass_source",
    "pass_target",
    "penalty_total",
    "points_of",
    "random_deal",
    "raw_points",
    "remove_cards",
    "replay",
    "right",
    "seat_names",
    "seeded_deal",
    "start_hand",
    "to_act",
    "trick_points",
    "trick_winner",
    "view_for",
]
