"""The Hard player: legal, reproducible, bounded by its budget, and sensible (BOT-06, BOT-09)."""

from __future__ import annotations

import functools
import random
import time

import numpy as np
import pytest

from app.bots import hard, inference, medium
from app.bots import simulator as sim
from app.bots.knowledge import Knowledge, know
from app.bots.sampler import World, sample_world
from app.engine import (
    GameState,
    PassDirection,
    Phase,
    Play,
    PlayerView,
    RuleOptions,
    apply,
    card,
    new_game,
    start_hand,
    to_act,
    view_for,
)
from tests.bots.helpers import pass_view, positions, true_world
from tests.engine.helpers import E, N, S, W, random_step

ACROSS = PassDirection.ACROSS

SMALL = hard.Budget(worlds=4, round_size=4, candidates_per_world=1)

TABLES = [
    RuleOptions.standard(),
    RuleOptions.standard(3),
    RuleOptions.standard(5),
    RuleOptions.standard(7),
    RuleOptions.standard(omnibus=True, moon_scoring="auto"),
    RuleOptions.standard(qs_breaks_hearts=True, lead_hearts_if_only_qs_and_hearts=True),
    RuleOptions.cancellation(6),
    RuleOptions.cancellation(8),
    RuleOptions.cancellation(11),
]


@pytest.mark.parametrize("options", TABLES, ids=lambda o: f"{o.variant}-{o.num_players}")
def test_hard_always_returns_a_legal_card(options: RuleOptions) -> None:
    """BOT-09 on every table: a legal card at every play decision of random games."""
    rng = random.Random(options.num_players)
    decisions = 0
    state = new_game(options)
    while decisions < 100:
        if state.is_over:
            state = new_game(options)
        if state.phase is Phase.PLAY:
            seat = to_act(state)[0]
            view = view_for(state, seat)
            choice = hard.choose_play(view, random.Random(decisions), SMALL)
            assert choice in view.legal
            decisions += 1
        state = random_step(state, rng)


def test_same_view_and_seed_give_the_same_card() -> None:
    """BOT-07: the default budget is deterministic for a view and a seed."""
    rng = random.Random(4)
    state = new_game(RuleOptions.standard())
    checked = 0
    while checked < 6:
        if state.phase is Phase.PLAY:
            view = view_for(state, to_act(state)[0])
            if len(view.legal) > 2:
                first = hard.choose_play(view, random.Random(99))
                assert hard.choose_play(view, random.Random(99)) == first
                checked += 1
        state = random_step(state, rng)


DEAL = [
    "AC KC QC JC TC 9C 8C 7C 2D 3D 4D 5D 6D",
    "QS 2S 3S 4S 5S 6S 7S 8S 9S 7D 8D 9D TD",
    "2C 3C 4C 5C 6C JD QD KD AD 2H 3H 4H 5H",
    "TS JS KS AS 6H 7H 8H 9H TH JH QH KH AH",
]


def west_void_in_clubs() -> PlayerView:
    """Trick 2 of a hold hand: S leads KC and W, void in clubs, holds the queen of spades."""
    state = start_hand(new_game(RuleOptions.standard(pass_cycle="none")), DEAL)
    for seat, code in [(N, "2C"), (E, "TS"), (S, "AC"), (W, "7D"), (S, "KC")]:
        state = apply(state, Play(seat, code))
    return view_for(state, W)


def test_a_decision_never_reads_the_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """The budget is counted in layouts, not milliseconds: a loaded server makes the same
    choice as an idle one, so Hard's thinking must not look at any clock."""

    def no_clock() -> float:
        raise AssertionError("Hard read the clock")

    for name in ("perf_counter", "monotonic", "time", "process_time"):
        monkeypatch.setattr(time, name, no_clock)
    view = west_void_in_clubs()
    budget = hard.Budget(worlds=8, round_size=4)
    first = hard.evaluate(view, random.Random(1), budget)
    assert first == hard.evaluate(view, random.Random(1), budget)
    assert set(first) == set(view.legal)


def test_hard_dumps_the_queen_when_void() -> None:
    """§11.3 tip 8: void in the led suit, QS goes onto another player's trick."""
    assert hard.choose_play(west_void_in_clubs(), random.Random(2)) == card("QS")


PASS_BUDGET = hard.Budget(pass_pool=5, pass_worlds=4, pass_finalists=2, pass_final_worlds=3)


@pytest.mark.parametrize(
    "options",
    [RuleOptions.standard(), RuleOptions.standard(5)],
    ids=["standard-4", "standard-5"],
)
def test_hard_passes_three_of_its_cards_reproducibly(options: RuleOptions) -> None:
    """The Monte Carlo pass: cards of the hand, no card twice, the same for the same seed, and one
    of the candidates (the careful player's pass first)."""
    for seed in range(3):
        view = pass_view(options, seed)
        chosen = hard.choose_pass(view, random.Random(seed), PASS_BUDGET)
        assert len(chosen) == options.pass_count and len(set(chosen)) == len(chosen)
        assert set(chosen) <= set(view.hand)
        assert hard.choose_pass(view, random.Random(seed), PASS_BUDGET) == chosen
        candidates = hard.pass_candidates(view, random.Random(seed), 5)
        assert candidates[0] == medium.choose_pass(view, random.Random(seed))
        assert tuple(sorted(chosen)) in {tuple(sorted(c)) for c in candidates}
        scores, points = hard.evaluate_passes(view, candidates, random.Random(seed), 3, PASS_BUDGET)
        assert scores.shape == points.shape == (len(candidates),)


@pytest.mark.parametrize(
    "options",
    [RuleOptions.cancellation(8), RuleOptions.standard(3), RuleOptions.standard(omnibus=True)],
    ids=["cancellation-8", "standard-3", "omnibus-4"],
)
def test_hard_passes_like_medium_at_other_tables(options: RuleOptions) -> None:
    """Cancellation, Omnibus and tables of other sizes keep the careful player's pass."""
    view = pass_view(options, 1)
    assert hard.choose_pass(view, random.Random(1)) == medium.choose_pass(view, random.Random(1))


def test_the_real_layout_never_surprises_when_everyone_plays_carefully() -> None:
    """In games of careful players, the true hidden cards explain every play seen so far (and,
    after an across pass, the cards received), while most random layouts consistent with the view
    do not (the inference Hard draws on)."""
    options = RuleOptions.standard()
    rules = sim.Rules.of(options)
    rng = random.Random(8)

    def layouts(state: GameState, view: PlayerView) -> tuple[Knowledge, list[World]]:
        """The true layout, then ten drawn ones."""
        knowledge = know(view)
        return knowledge, [true_world(state), *(sample_world(knowledge, rng) for _ in range(10))]

    late = positions(options, 8, lambda view: view.trick_number > 3, 25)
    surprised = 0
    for state, view in late:
        knowledge, worlds = layouts(state, view)
        counts = inference.surprises(view, knowledge, rules, worlds)
        assert counts[0] == 0
        surprised += int((counts[1:] > 0).sum())
    assert surprised > 0.5 * 10 * len(late)

    across = positions(options, 9, lambda view: view.direction is ACROSS, 15)
    pass_surprised = 0
    for state, view in across:
        knowledge, worlds = layouts(state, view)
        assert inference.surprises(view, knowledge, rules, worlds)[0] == 0
        passes = inference.pass_surprises(view, knowledge, worlds)
        assert passes[0] == 0
        pass_surprised += int((passes[1:] > 0).sum())
    assert pass_surprised > 0.3 * 10 * len(across)


@pytest.mark.parametrize(
    "options",
    [
        RuleOptions.standard(),
        RuleOptions.standard(3),
        RuleOptions.standard(omnibus=True),
        RuleOptions.cancellation(8),
    ],
    ids=lambda o: f"{o.variant}-{o.num_players}" + ("-omnibus" if o.omnibus else ""),
)
def test_a_layout_is_judged_the_same_in_any_batch(options: RuleOptions) -> None:
    """Hard and Expert imagine all their rounds of layouts in one batch of the simulator, and
    judge all their draws (surprises, likelihoods) in one replay: that is sound only if what a
    layout gives does not depend on the other layouts beside it. Checked mid-hand in games of
    careful players: the batch of all layouts gives what each layout gives alone."""
    rules = sim.Rules.of(options)
    rng = random.Random(options.num_players)

    def wanted(view: PlayerView) -> bool:
        return len(view.legal) > 1 and view.trick_number > 2

    for _, view in positions(options, options.num_players, wanted, 6):
        knowledge = know(view)
        worlds = [sample_world(knowledge, rng) for _ in range(6)]
        judge = functools.partial(
            hard._round,
            view,
            knowledge,
            rules,
            candidates=list(view.legal),
            np_rng=np.random.default_rng(),
            budget=SMALL,
        )
        together = judge(worlds=worlds)
        alone = [judge(worlds=[w]) for w in worlds]
        for got, each in zip(together, zip(*alone, strict=True), strict=True):
            assert (got == np.concatenate(each)).all()
        surprises = inference.surprises(view, knowledge, rules, worlds)
        each_alone = [inference.surprises(view, knowledge, rules, [w])[0] for w in worlds]
        assert surprises.tolist() == each_alone
        likelihoods = inference.log_likelihoods(view, knowledge, rules, worlds)
        each_alone = [inference.log_likelihoods(view, knowledge, rules, [w])[0] for w in worlds]
        assert likelihoods.tolist() == each_alone
