"""The table's view-model: what the page shows, built from the human seat's view only."""

from __future__ import annotations

import json
import random
from dataclasses import replace

from app.engine import (
    Card,
    GameState,
    HandResult,
    PassDirection,
    Phase,
    Play,
    RuleOptions,
    apply,
    legal_cards,
    new_game,
    start_hand,
    to_act,
    view_for,
)
from app.engine.endgame import moon_watch
from app.services.games import Table
from app.web.main import make_templates
from app.web.messages import BY_RULE
from app.web.table import CARD_PAUSE_MS, TRICK_PAUSE_MS, build
from tests.engine.helpers import play_random_game, random_step


def table_of(state: GameState, fast: bool = False) -> Table:
    seats = ("human", "medium", "medium", "medium")
    return Table(1, 7, seats, fast, "active", view_for(state, 0))


def test_tie_above_the_target_says_another_hand_is_played() -> None:
    """UI-20: someone reached the target but the lowest total is shared."""
    state = new_game(RuleOptions.standard())
    result = HandResult(
        9,
        0,
        PassDirection.LEFT,
        (0, 0, 0, 0),
        (102, 40, 40, 77),
        None,
        None,
        (0,) * 4,
        (0,) * 4,
        (0,) * 4,
        (0,) * 4,
        0,
    )
    tied = replace(state, results=(result,), totals=(102, 40, 40, 77), phase=Phase.DEAL)
    view = build(table_of(tied))
    assert view.tie_break and view.mode == "hand_over"
    clear = replace(tied, totals=(102, 40, 41, 77))
    assert not build(table_of(clear)).tie_break


def test_received_cards_are_marked_until_the_first_trick_ends() -> None:
    """UI-07: the three received cards carry the mark during trick 1 only."""
    rng = random.Random(2)
    state = start_hand(new_game(RuleOptions.standard()), seed=3)
    while state.phase is Phase.PASS:
        state = random_step(state, rng)
    assert sum(c.received for c in build(table_of(state)).hand) == 3
    while state.hand is not None and not state.hand.tricks:
        state = random_step(state, rng)
    assert not any(c.received for c in build(table_of(state)).hand)


def test_legal_cards_pauses_and_the_finished_trick() -> None:
    """UI-06, UI-08, Q-04: legal flags follow the engine; a finished trick marks its winner and
    asks for the longer pause; fast play divides the pauses by three."""
    rng = random.Random(5)
    state = start_hand(new_game(RuleOptions.standard(pass_cycle="none")), seed=9)
    while 0 not in to_act(state):
        state = random_step(state, rng)
    view = build(table_of(state))
    assert {c.code for c in view.hand if c.legal} == {str(c) for c in legal_cards(state, 0)}
    while state.hand is not None and not state.hand.tricks:
        state = apply(state, Play(to_act(state)[0], legal_cards(state, to_act(state)[0])[0]))
    finished = build(table_of(state))
    assert finished.trick_finished
    assert sum(p.winner for p in finished.trick) == 1
    expected = TRICK_PAUSE_MS if finished.advance else CARD_PAUSE_MS
    assert finished.pause_ms == expected
    assert build(table_of(state, fast=True)).pause_ms == expected // 3


def test_the_hand_is_sorted_clubs_diamonds_spades_hearts_low_to_high() -> None:
    """The hand alternates colours: clubs, diamonds, spades, hearts, each from 2 up to the ace."""
    state = start_hand(new_game(RuleOptions.standard()), seed=5)
    hand = build(table_of(state)).hand
    suit_order = "CDSH"
    ranks = "23456789TJQKA"
    keys = [(suit_order.index(c.code[-1]), ranks.index(c.code[0])) for c in hand]
    assert keys == sorted(keys) and len(hand) == 13


def test_seat_points_after_a_hand_are_the_engines() -> None:
    """The seats' points once a hand is over are the hand result's, the leftover cards taken by
    another seat included (R32.2): seen from the table they were hidden until then."""
    rng = random.Random(11)
    options = RuleOptions.preset("cancellation", 6)
    checked = 0
    for seed in range(40):
        state = start_hand(new_game(options), seed=seed)
        while state.phase is not Phase.DEAL:
            state = random_step(state, rng)
        view = build(Table(1, 7, ("human", *["medium"] * 5), False, "active", view_for(state, 0)))
        result = state.results[-1]
        assert [s.points for s in view.seats] == list(result.points)
        assert state.hand is not None
        collector = state.hand.kitty_collector
        kitty_points = sum(1 for c in state.hand.kitty if c.suit.value == "H")
        if collector not in (None, 0) and kitty_points and result.shooter is None:
            checked += 1
    assert checked, "no hand in which another seat took leftover cards with points"


def test_the_seat_that_took_the_queen_of_spades_shows_it() -> None:
    """UI: "Q♠ taken by North" at the seat, from the public tricks, in the steps' seat states
    too; nobody before the queen falls."""
    rng = random.Random(4)
    state = start_hand(new_game(RuleOptions.standard()), seed=12)
    queen = Card.from_str("QS")
    while state.hand is not None and not any(
        queen in (*t.cards, *t.pot_taken) for t in state.hand.tricks
    ):
        assert not any(s.queens for s in build(table_of(state)).seats)
        state = random_step(state, rng)
    assert state.hand is not None
    taker = next(t.collector for t in state.hand.tricks if queen in t.cards)
    view = build(table_of(state))
    assert [s.queens for s in view.seats] == [int(i == taker) for i in range(4)]
    assert json.loads(view.seat_states)[taker][4] == 1


def test_the_game_over_panel_says_your_place() -> None:
    """Your place once the game is over: one more than the players with a lower total (ties
    share a place)."""
    state = play_random_game(RuleOptions.standard(), seed=3)
    assert state.phase is Phase.GAME_OVER
    view = build(table_of(state))
    assert view.place == 1 + sum(1 for t in state.totals if t < state.totals[0])
    assert build(table_of(start_hand(new_game(RuleOptions.standard()), seed=1))).place is None


def test_a_shaded_card_carries_the_engines_reason() -> None:
    """UI: every card the player may not play now carries why, with the engine's rule (R6.1
    follow suit, R5.x the first lead, R8.4 hearts not broken …); a playable card carries none."""
    rng = random.Random(8)
    rules: set[str] = set()
    for seed in range(6):
        state = start_hand(new_game(RuleOptions.standard(pass_cycle="none")), seed=seed)
        while state.phase is not Phase.DEAL:
            if 0 in to_act(state) and state.phase is Phase.PLAY:
                view = build(table_of(state))
                legal = {str(c) for c in legal_cards(state, 0)}
                for c in view.hand:
                    assert (c.why is None) == (c.code in legal), c
                    if c.why is not None:
                        assert c.rule is not None and c.why == BY_RULE[c.rule]
                        rules.add(c.rule)
            state = random_step(state, rng)
    assert {"R6.1", "R5.1"} <= rules


def test_the_table_shows_who_receives_the_pass_and_who_passed_to_you() -> None:
    """UI-03, UI-07: while passing, the receiving seat is marked (left: West at four seats);
    after the pass, "received from East: …" until the first trick is done."""
    rng = random.Random(2)
    state = start_hand(new_game(RuleOptions.standard()), seed=3)
    view = build(table_of(state))
    assert [s.name for s in view.seats if s.receives] == ["West"]
    assert view.received_from is None
    while state.phase is Phase.PASS:
        state = random_step(state, rng)
    view = build(table_of(state))
    assert not any(s.receives for s in view.seats)
    assert view.received_from == "East"
    assert state.hand is not None
    assert sorted(c.code for c in view.received_cards) == sorted(
        str(c) for c in view_for(state, 0).received or ()
    )
    while state.hand is not None and not state.hand.tricks:
        state = random_step(state, rng)
    view = build(table_of(state))
    assert view.received_from is None and view.received_cards == []


def test_moon_watch_marks_the_seat_and_its_step_state() -> None:
    """The seat `moon_watch` names is marked in the page's seat boxes and in the steps' seat
    states, and no other seat is; random games reach such a position and leave it."""
    env = make_templates().env
    seen = 0
    for seed in range(12):
        rng = random.Random(seed)
        state = start_hand(new_game(RuleOptions.standard()), seed=seed)
        while state.phase is not Phase.DEAL and not state.is_over:
            watched = moon_watch(view_for(state, 0))
            view = build(table_of(state))
            assert [s.moon for s in view.seats] == [i == watched for i in range(4)]
            assert [row[5] for row in json.loads(view.seat_states)] == [
                int(i == watched) for i in range(4)
            ]
            if watched not in (None, 0):
                seen += 1
                macros = env.get_template("partials/table_macros.html").module
                html = str(getattr(macros, "seat_boxes")(view))  # noqa: B009 (a template macro)
                box = html.split(f'data-seat="{view.seats[watched].key}"', maxsplit=1)[0].rsplit(
                    "<div", 1
                )[1]
                assert " moon-watched" in box
                assert html.count('class="moon-watch" hidden') == 2  # the two other computers
            state = random_step(state, rng)
    assert seen >= 5
