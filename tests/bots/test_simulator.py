"""The bots' private simulator agrees with the engine card for card (R9, R10, R36–R38, R11–R21)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from app.bots import hard, medium, rollout
from app.bots import simulator as sim
from app.bots.knowledge import know
from app.bots.rollout import careful_policy, careful_policy_vectorized, careful_where
from app.bots.sampler import sample_world
from app.engine import (
    Card,
    MoonChoice,
    Phase,
    Play,
    RuleOptions,
    apply,
    auto_moon_scoring,
    legal_cards,
    new_game,
    random_deal,
    raw_points,
)
from bench.simulator import deals_batch
from tests.bots.helpers import positions

TABLES = {
    "standard-4": RuleOptions.standard(),
    "standard-3": RuleOptions.standard(3),
    "standard-5": RuleOptions.standard(5),
    "standard-7": RuleOptions.standard(7, first_lead="any_club"),
    "omnibus": RuleOptions.standard(omnibus=True, omnibus_moon_requires_bonus=True),
    "options": RuleOptions.standard(
        qs_breaks_hearts=True,
        hearts_broken_by="discard_only",
        lead_hearts_if_only_qs_and_hearts=True,
        qs_lead_requires_broken=True,
        no_tricks_bonus=-5,
        first_lead="left_of_dealer",
    ),
    "cancellation-6": RuleOptions.cancellation(6, no_points_first_trick=True),
    "cancellation-9": RuleOptions.cancellation(9, moon_value=52),
    "cancellation-11": RuleOptions.cancellation(
        11, cancel_last_trick_no_winner="leader", cancel_leftover_to="last_trick_winner"
    ),
}


@pytest.mark.parametrize(
    "policy", [sim.random_policy, sim.heuristic_policy, careful_policy], ids=lambda p: p.__name__
)
@pytest.mark.parametrize("name", sorted(TABLES))
def test_simulator_matches_engine_card_for_card(name: str, policy: sim.Policy) -> None:
    """Every card the simulator plays is legal in the engine (same legal set), and every hand
    ends with the engine's points (moons under `choice` scored by the `auto` rule, R12.5)."""
    options = TABLES[name].replace(pass_cycle="none")
    rng = random.Random(7)
    deals = [random_deal(options, rng) for _ in range(60)]
    batch = deals_batch(options, deals)
    states = [apply(new_game(options), d) for d in deals]
    np_rng = np.random.default_rng(7)
    while not batch.is_over:
        legal = sim.legal_mask(batch)
        seats = batch.to_play()
        chosen = policy(batch, legal, np_rng)
        for i, before in enumerate(states):
            expected = {c.index for c in legal_cards(before, int(seats[i]))}
            assert set(np.flatnonzero(legal[i]).tolist()) == expected
            state = apply(before, Play(int(seats[i]), Card.from_index(int(chosen[i]))))
            if state.phase is Phase.MOON_CHOICE:
                assert state.hand is not None and state.moon_shooter is not None
                base = raw_points(options, state.hand.taken)
                choice = auto_moon_scoring(options, base, state.moon_shooter, state.totals)
                state = apply(state, MoonChoice(state.moon_shooter, choice))
            states[i] = state
        sim.play(batch, chosen)
    points = sim.hand_points(batch, np.zeros((len(deals), options.num_players), dtype=np.int64))
    shooters = sim.shooters(batch)
    for i, state in enumerate(states):
        assert state.phase in (Phase.DEAL, Phase.GAME_OVER)
        assert tuple(points[i].tolist()) == state.results[-1].points
        shooter = state.results[-1].shooter
        assert shooters[i] == (-1 if shooter is None else shooter)


def test_repeat_copies_rows_in_order() -> None:
    options = RuleOptions.standard()
    batch = deals_batch(options, [random_deal(options, random.Random(s)) for s in range(3)])
    repeated = batch.repeat(2)
    assert repeated.size == 6
    assert (repeated.hands[0] == batch.hands[0]).all() and (
        repeated.hands[1] == batch.hands[0]
    ).all()
    assert (repeated.hands[2] == batch.hands[1]).all()
    repeated.hands[0, 0, :] = 0
    assert batch.hands[0, 0].sum() == 13


@pytest.mark.parametrize(
    ("scoring", "totals", "expected"),
    [
        ("add_to_others", (0, 0, 0, 0), (0, 26, 26, 26)),
        ("subtract_from_self", (0, 0, 0, 0), (-26, 0, 0, 0)),
        ("auto", (90, 60, 80, 85), (-26, 0, 0, 0)),  # adding would end the game, S not winning
        ("auto", (10, 60, 20, 30), (0, 26, 26, 26)),
        ("choice", (90, 60, 80, 85), (-26, 0, 0, 0)),  # a computer shooter answers with auto
    ],
)
def test_moon_scoring_on_the_last_trick(
    scoring: str, totals: tuple[int, ...], expected: tuple[int, ...]
) -> None:
    """R12.2–R12.6: S has every penalty card but AH and takes the last trick with it."""
    options = RuleOptions.standard(moon_scoring=scoring)
    rules = sim.Rules.of(options)
    hands = sim.counts_of(options, [[Card.from_str("AH").index], [0], [1], [2]])[None]
    batch = sim.new_batch(
        rules,
        hands.copy(),
        leader=0,
        trick=13,
        broken=True,
        points=np.array([[25, 0, 0, 0]]),
        penalty=np.array([[13, 0, 0, 0]]),
        tricks_won=np.array([[12, 0, 0, 0]]),
    )
    sim.play_out(batch, sim.random_policy, np.random.default_rng(0))
    points = sim.hand_points(batch, np.array([totals]))
    assert tuple(points[0].tolist()) == expected
    assert sim.shooters(batch).tolist() == [0]  # however the moon is scored


def test_shown_voids_are_tracked() -> None:
    """A seat that discards on a led suit is marked void in it, for every row."""
    options = RuleOptions.standard(pass_cycle="none")
    rules = sim.Rules.of(options)
    hands = sim.counts_of(
        options,
        [
            [Card.from_str(c).index for c in ("2C", "3C")],
            [Card.from_str(c).index for c in ("4C", "5C")],
            [Card.from_str(c).index for c in ("2D", "6C")],
            [Card.from_str(c).index for c in ("3D", "7C")],
        ],
    )[None]
    batch = sim.new_batch(rules, hands.copy(), leader=0, trick=12)
    for code in ("2C", "4C", "2D", "7C"):
        sim.play(batch, np.array([Card.from_str(code).index]))
    assert batch.voids[0].tolist() == [
        [False] * 4,
        [False] * 4,
        [True, False, False, False],
        [False] * 4,
    ]


ROLLOUT_TABLES = {
    "standard-4": RuleOptions.standard(),
    "standard-3": RuleOptions.standard(3),
    "omnibus": RuleOptions.standard(omnibus=True),
    "late-game": RuleOptions.standard(target_score=50),
    "cancellation-8": RuleOptions.cancellation(8),  # no kitty: the policy does not count it
}


@pytest.mark.parametrize("name", sorted(ROLLOUT_TABLES))
def test_careful_policy_plays_mediums_card(name: str) -> None:
    """At every play of Medium games, the vectorized policy in a layout consistent with the view
    picks Medium's own card (leads, ducks, discards, moon stops and shots)."""
    options = ROLLOUT_TABLES[name]
    rules = sim.Rules.of(options)
    rng = random.Random(11)
    for _, view in positions(options, 11, lambda view: len(view.legal) > 1, 150):
        k = know(view)
        batch = hard._batch(view, k, rules, [sample_world(k, rng) for _ in range(2)])
        chosen = careful_policy(batch, sim.legal_mask(batch), np.random.default_rng(0))
        expected = medium.choose_play(view, rng).index
        assert chosen.tolist() == [expected, expected]


def test_moon_modes_are_played() -> None:
    """Only seat 0 has taken penalty cards. With `QS` and eleven hearts taken and only sure
    winners left it goes for the moon (leading `AH`, where a normal lead would be `KH`); with
    `QS` and two hearts taken it is a threat the others stop by winning a heart (`9H` over `3H`,
    where a normal follower would duck with `2H`)."""
    options = RuleOptions.standard(pass_cycle="none")
    rules = sim.Rules.of(options)

    def batch_of(codes: list[list[str]], hearts: int) -> sim.Batch:
        hands = sim.counts_of(options, [[Card.from_str(c).index for c in h] for h in codes])
        return sim.new_batch(
            rules,
            hands[None].copy(),
            leader=0,
            trick=12,
            broken=True,
            points=np.array([[13 + hearts, 0, 0, 0]]),
            penalty=np.array([[1 + hearts, 0, 0, 0]]),
        )

    def policy_card(batch: sim.Batch) -> str:
        chosen = careful_policy(batch, sim.legal_mask(batch), np.random.default_rng(0))
        return str(Card.from_index(int(chosen[0])))

    shooter = batch_of([["AH", "KH"], ["2D", "9C"], ["5C", "6C"], ["7C", "8C"]], hearts=11)
    assert policy_card(shooter) == "AH"

    stopper = batch_of([["3H", "4C"], ["2H", "9H"], ["5C", "6C"], ["7C", "8C"]], hearts=2)
    sim.play(stopper, np.array([Card.from_str("3H").index]))
    assert policy_card(stopper) == "9H"


def test_the_compiled_careful_policy_plays_the_vectorized_cards() -> None:
    """The compiled careful policy (the one Hard and Expert imagine every seat playing) picks the
    NumPy reference's card in every row at every step of play-outs at every table: 24 imagined
    layouts from each of 12 positions of Medium games, with game totals drawn anew for each
    layout (near the target some moods change). The moon modes are among the rows checked.
    Asked for some rows only (`careful_where`, every third), it gives the same cards in those and
    −1 in the others."""
    stop_rows = shoot_rows = 0
    for name, options in TABLES.items():
        rules = sim.Rules.of(options)
        rng = random.Random(5)
        totals_rng = np.random.default_rng(5)
        for _, view in positions(options, 5, lambda view: True, 12):
            k = know(view)
            batch = hard._batch(view, k, rules, [sample_world(k, rng) for _ in range(24)])
            batch.totals[:] = totals_rng.integers(0, rules.target, batch.totals.shape)
            while not batch.is_over:
                legal = sim.legal_mask(batch)
                facts = rollout._Facts(batch, legal, None)  # the reference's moods, counted
                stop_rows += int(facts.stop.sum())
                shoot_rows += int(facts.shoot.sum())
                expected = careful_policy_vectorized(batch, legal, np.random.default_rng(0))
                chosen = careful_policy(batch, legal, np.random.default_rng(0))
                assert chosen.tolist() == expected.tolist(), (name, batch.trick, batch.k)
                wanted = np.arange(batch.size) % 3 == batch.k % 3
                some = careful_where(batch, legal, wanted)
                assert np.array_equal(some, np.where(wanted, expected, -1))
                sim.play(batch, expected)
    assert stop_rows > 1000, stop_rows
    assert shoot_rows > 200
