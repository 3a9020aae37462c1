"""The Expert player: the exact endgame, inference from play, playing for the game, its choices."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import numpy as np
import pytest

from app.bots import Level, choose_action, expert, hard, inference, medium, moon, opponent, standing
from app.bots import simulator as sim
from app.bots.endgame import solve
from app.bots.knowledge import know
from app.bots.rollout import careful_policy
from app.bots.sampler import sample_world
from app.engine import (
    QUEEN_OF_SPADES,
    Card,
    GameState,
    MoonChoice,
    MoonScoring,
    Phase,
    Play,
    PlayerView,
    RuleOptions,
    Variant,
    apply,
    cards,
    new_game,
    random_deal,
    to_act,
    view_for,
)
from bench import learn_opponent
from tests.bots.helpers import pass_view, positions, true_world

SMALL = dataclasses.replace(expert.BUDGET, worlds=16, round_size=16, close_worlds=16)
"""Expert's budget with fewer layouts (the second look at close cards included), for the many
positions of these tests."""


def best_points(state: GameState, scored: int | None = None) -> tuple[int, ...]:
    """The hand's points under open-card play in which every seat, at its turn, plays the card
    (the lowest-indexed on ties) that leads to its best result: the others' mean points minus its
    own. A plain depth-first search through the engine, independent of the simulator."""
    if scored is None:
        scored = len(state.results)
    if len(state.results) > scored:
        return state.results[-1].points
    seat = to_act(state)[0]
    view = view_for(state, seat)
    if state.phase is Phase.MOON_CHOICE:
        choice = MoonChoice(seat, moon.choose_moon(view, random.Random()))
        return best_points(apply(state, choice), scored)
    best: tuple[int, ...] | None = None
    best_value = -1e9
    for index in sorted({c.index for c in view.legal}):
        card = next(c for c in view.legal if c.index == index)
        points = best_points(apply(state, Play(seat, card)), scored)
        value = standing.hand_values(np.array([points]))[0, seat]
        if value > best_value + 1e-9:
            best, best_value = points, value
    assert best is not None
    return best


@pytest.mark.parametrize(
    ("options", "cards"),
    [
        (RuleOptions.standard(), 3),
        (RuleOptions.standard(3), 3),
        (RuleOptions.standard(omnibus=True), 3),
        (RuleOptions.cancellation(8), 2),
    ],
    ids=["standard-4", "standard-3", "omnibus-4", "cancellation-8"],
)
def test_the_endgame_solution_is_the_exact_one(options: RuleOptions, cards: int) -> None:
    """Solving the true layout of the last tricks gives the points of a plain search through the
    engine, seat by seat, from the lead and from the middle of a trick."""
    rules = sim.Rules.of(options)
    found = positions(options, 5, lambda v: len(v.hand) <= cards, 12)
    for state, view in found:
        batch = hard._batch(view, know(view), rules, [true_world(state)])
        totals = np.asarray(view.totals, dtype=np.int64)[None, :]

        def values(leaves: sim.Batch, totals: np.ndarray = totals) -> np.ndarray:
            return standing.hand_values(sim.hand_points(leaves, totals))

        solved = solve(batch, values, 1_000_000)
        assert solved is not None
        leaves, reached = solved
        points = sim.hand_points(leaves.take(reached), totals)
        assert tuple(points[0].tolist()) == best_points(state)


def test_the_endgame_gives_up_past_its_row_budget() -> None:
    options = RuleOptions.standard()
    state, view = positions(options, 2, lambda v: len(v.hand) == 6, 1)[0]
    batch = hard._batch(view, know(view), sim.Rules.of(options), [true_world(state)])
    assert solve(batch, lambda b: np.zeros((b.size, 4)), 50) is None


def test_the_true_layout_is_the_most_likely_in_careful_games() -> None:
    """Among layouts consistent with the view, the true one of a table of careful players makes
    every play seen so far the careful one, so it is at least as likely as most layouts, and far
    more likely than most (a layout with fewer choices to make can score a little higher: a forced
    play has probability 1)."""
    options = RuleOptions.standard()
    rules = sim.Rules.of(options)
    rng = random.Random(4)
    less = total = 0
    for state, view in positions(options, 9, lambda v: v.trick_number > 4, 20):
        k = know(view)
        worlds = [true_world(state), *(sample_world(k, rng) for _ in range(10))]
        likelihood = inference.log_likelihoods(view, k, rules, worlds)
        assert inference.surprises(view, k, rules, worlds[:1])[0] == 0
        assert likelihood[0] >= np.median(likelihood[1:])
        less += int((likelihood[1:] < likelihood[0] - 1.0).sum())
        total += 10
    assert less > 0.5 * total


def test_weighted_layouts_find_the_queen_more_often() -> None:
    """Over positions of careful games where the queen of spades is hidden, the layouts Expert
    draws put it with its true holder more often than layouts drawn uniformly."""
    options = RuleOptions.standard()
    rules = sim.Rules.of(options)
    rng = random.Random(3)
    uniform = weighted = 0.0

    def hidden_queen(view: PlayerView) -> bool:
        return view.trick_number > 3 and QUEEN_OF_SPADES in know(view).unseen

    found = positions(options, 21, hidden_queen, 40)
    for state, view in found:
        assert state.hand is not None
        holder = next(s for s, h in enumerate(state.hand.hands) if QUEEN_OF_SPADES in h)
        k = know(view)
        drawn = [sample_world(k, rng) for _ in range(256)]
        picked = inference.resample(
            inference.log_likelihoods(view, k, rules, drawn), 64, rng.random()
        )
        uniform += float(np.mean([QUEEN_OF_SPADES in w.hands[holder] for w in drawn]))
        weighted += float(np.mean([QUEEN_OF_SPADES in drawn[i].hands[holder] for i in picked]))
    assert weighted / len(found) > uniform / len(found) + 0.05


def test_the_learned_kind_alone_is_the_models_likelihood_of_every_play() -> None:
    """With no careful kind and no kind whose plays tell nothing, a layout's log-likelihood is
    the learned model's log-probability of each other seat's play, summed (plus the pass term,
    the same for every kind); the mixture of four kinds scores no layout lower than that kind
    alone with its prior share, 1/4 per seat."""
    options = RuleOptions.standard()
    rules = sim.Rules.of(options)
    rng = random.Random(6)
    for _, view in positions(options, 6, lambda v: v.trick_number > 3, 50):
        k = know(view)
        worlds = [sample_world(k, rng) for _ in range(12)]
        learned = inference.log_likelihoods(view, k, rules, worlds, noise=(), uniform=False)
        _, _, seats, model = inference._replay(view, k, rules, worlds, with_model=True)
        passes = inference.pass_surprises(view, k, worlds) > 0
        judged = inference._judges_pass(view)
        pass_term = np.where(passes, np.log(inference.PASS_NOISE), np.log1p(-inference.PASS_NOISE))
        expected = model.sum(axis=1) + (pass_term if judged else 0.0)
        assert np.allclose(learned, expected)
        mixture = inference.log_likelihoods(view, k, rules, worlds)
        others = len(set(seats.tolist()))
        assert (mixture >= learned - others * np.log(4) - 1e-9).all()
        assert not np.allclose(mixture, learned)


def test_resampling_follows_the_weights() -> None:
    picked = inference.resample(
        np.log(np.array([0.5, 0.25, 0.25, 1e-12])), 8, random.Random(1).random()
    )
    assert sorted(picked) == picked
    assert picked.count(0) == 4 and picked.count(1) == 2 and picked.count(2) == 2


def test_tempering_keeps_weights_that_are_even_enough() -> None:
    weights_log = np.log(np.array([0.4, 0.3, 0.2, 0.1]))
    assert inference.effective_size(weights_log) == pytest.approx(1 / 0.3)
    assert inference.temper(weights_log, 3.0) is weights_log
    assert inference.effective_size(np.zeros(8)) == pytest.approx(8.0)


@pytest.mark.parametrize("least", [2.0, 16.0, 64.0, 255.0])
def test_tempering_flattens_uneven_weights_just_enough(least: float) -> None:
    """Weights where a few draws take nearly all are raised to the largest power that keeps the
    wanted effective sample size: a slightly larger power would not keep it. The order of the
    draws is kept."""
    weights_log = np.random.default_rng(1).normal(0.0, 15.0, 256)
    assert inference.effective_size(weights_log) < 2.0
    tempered = inference.temper(weights_log, least)
    ess = inference.effective_size(tempered)
    assert least <= ess < least * 1.01
    beta = tempered[0] / weights_log[0]
    assert 0 < beta < 1
    assert np.allclose(tempered, beta * weights_log)
    assert inference.effective_size(min(1.0, beta * 1.01) * weights_log) < least


def test_expert_keeps_half_its_draws_worth_of_layouts_at_cancellation() -> None:
    """At Cancellation-8 the untempered likelihoods of the other seven seats' plays leave a
    handful of the draws with nearly all the weight; tempered as Expert tempers them, the layouts
    it keeps are many different ones."""
    options = RuleOptions.cancellation(8)
    rules = sim.Rules.of(options)
    rng = random.Random(6)
    raw = kept = 0.0
    found = positions(options, 8, lambda v: v.trick_number > 5, 6)
    for _, view in found:
        k = know(view)
        drawn = [sample_world(k, rng) for _ in range(256)]
        likelihood = inference.log_likelihoods(view, k, rules, drawn)
        tempered = inference.temper(likelihood, expert.BUDGET.least_ess * 256)
        assert inference.effective_size(tempered) >= 128
        raw += inference.effective_size(likelihood)
        kept += len(set(inference.resample(tempered, 64, 0.5)))
    assert raw / len(found) < 40
    assert kept / len(found) > 48


RULES4 = sim.Rules.of(RuleOptions.standard())


def value_of(points: list[int], totals: list[int]) -> float:
    return float(standing.game_values(0, RULES4, np.array([points]), np.array([totals]), 30.0)[0])


def test_early_in_the_game_the_value_is_the_hand_difference() -> None:
    assert value_of([0, 13, 0, 13], [0, 0, 0, 0]) == pytest.approx(26 / 3)
    assert value_of([13, 0, 0, 0], [10, 20, 5, 0]) == pytest.approx(-13.0)


def test_near_the_target_points_on_the_closest_rival_count_more() -> None:
    """With 80 points for the highest total, giving 13 points to the closest rival (seat 2, at 40)
    is worth more than giving them to a seat further behind (seat 1 at 80, seat 3 at 60)."""
    totals = [30, 80, 40, 60]
    assert value_of([0, 0, 13, 0], totals) > value_of([0, 13, 0, 0], totals) + 5
    assert value_of([0, 0, 13, 0], totals) > value_of([0, 0, 0, 13], totals) + 5
    assert value_of([0, 13, 0, 0], totals) == pytest.approx(value_of([0, 0, 0, 13], totals))


def test_when_the_hand_ends_the_game_only_the_place_counts_much() -> None:
    totals = [80, 95, 85, 70]
    win = value_of([0, 6, 0, 0], totals)  # 80 vs 101, 85, 70: seat 3 wins
    first = value_of([0, 6, 20, 0], [60, 95, 85, 70])  # seat 0 lowest at 60
    assert first > 25
    assert win < 0
    last = value_of([26, 0, 0, 0], [80, 95, 60, 70])  # 106: last
    assert last < win


@pytest.mark.parametrize(
    ("totals", "expected"),
    [
        ([10, 40, 50, 60], MoonScoring.ADD_TO_OTHERS),  # leading: bring the end nearer
        ([60, 40, 50, 10], MoonScoring.SUBTRACT_FROM_SELF),  # behind: leave time to catch up
        ([60, 80, 75, 50], MoonScoring.ADD_TO_OTHERS),  # adding ends it with seat 0 winning
        ([40, 80, 75, 10], MoonScoring.SUBTRACT_FROM_SELF),  # adding ends it with seat 3 winning
    ],
)
def test_the_moon_choice_plays_for_the_game(totals: list[int], expected: MoonScoring) -> None:
    add = standing.moon_choice(
        0,
        RULES4,
        np.array([0, 26, 26, 26]),
        np.array([-26, 0, 0, 0]),
        np.array(totals),
        30.0,
    )
    assert (MoonScoring.ADD_TO_OTHERS if add else MoonScoring.SUBTRACT_FROM_SELF) is expected


def test_the_second_look_takes_the_cards_close_to_the_best() -> None:
    """A card is close when it trails the best by less than `close_z` standard errors of the
    paired difference; a clear choice gets no second look."""
    rng = np.random.default_rng(0)
    noise = rng.normal(size=(400, 1))
    # Means 0, -0.05, -3 and -0.05 (but that one far noisier) against the first card.
    utility = np.hstack(
        [
            noise,
            noise - 0.05 + rng.normal(scale=0.1, size=(400, 1)),
            noise - 3 + rng.normal(scale=0.1, size=(400, 1)),
            noise - 0.05 + rng.normal(scale=5.0, size=(400, 1)),
        ]
    )
    times = np.ones(400)
    assert hard._close((utility, times), 2.0) == [0, 1, 3]
    assert hard._close((utility[:, [0, 2]], times), 2.0) == []
    # Layouts drawn again count as often as they were drawn.
    assert hard._close((utility[:200], times[:200] * 2), 2.0) == hard._close(
        (np.vstack([utility[:200], utility[:200]]), np.ones(400)), 2.0
    )


def test_the_second_look_plays_the_close_cards_out_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """A second look changes the values of the best card and the cards close to it (never of one
    card alone), leaves the others as the first look found them, and changes nothing where no
    card is close; it happens in some positions. Expert takes it at every table."""
    options = RuleOptions.standard()
    first = dataclasses.replace(SMALL, close_worlds=0)
    second = dataclasses.replace(SMALL, close_worlds=16)
    looked = 0
    for _, view in positions(options, 31, lambda v: len(v.legal) > 2, 12):
        before = hard.appraise(view, random.Random(5), first)
        after = hard.appraise(view, random.Random(5), second)
        changed = {c for c in view.legal if after[c] != before[c]}
        best = max(before, key=lambda c: before[c].value)
        assert not changed or best in changed
        assert len(changed) != 1
        looked += bool(changed)
    assert looked > 0
    looks: list[int] = []
    close = hard._close

    def counted(each: tuple[np.ndarray, np.ndarray], z: float) -> list[int]:
        looks.append(1)
        return close(each, z)

    monkeypatch.setattr(hard, "_close", counted)
    for table in (RuleOptions.standard(7), RuleOptions.cancellation(8)):  # at seven seats and eight
        view = positions(table, 3, lambda v: len(v.legal) > 2, 1)[0][1]
        looks.clear()
        expert.choose_play(view, random.Random(2), second)
        assert 1 <= len(looks) <= second.close_looks


def test_the_cards_still_close_are_looked_at_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """With `close_looks`, the cards still close after a look are played out again, up to that
    many times, each time among those still close over every layout they were played in: the
    looks narrow, only the cards of the later looks change value (never one card alone), and
    the first two looks are those of a single second look. Expert looks up to three times."""
    one = dataclasses.replace(SMALL, close_looks=1)
    three = dataclasses.replace(SMALL, close_looks=3)
    sizes: list[int] = []
    sums: dict[Card, list[float]] = {}  # per card: summed results, and layouts, over its looks
    look = hard._look

    def counted(*args: Any) -> Any:
        candidates, count = args[5], args[6]
        sizes.append(len(candidates))
        out = look(*args)
        for card, total in zip(candidates, out[0], strict=True):
            sums.setdefault(card, [0.0, 0])
            sums[card][0] += total
            sums[card][1] += count
        return out

    monkeypatch.setattr(hard, "_look", counted)
    again = narrowed = 0
    for _, view in positions(RuleOptions.standard(), 31, lambda v: len(v.legal) > 2, 16):
        sizes.clear()
        once = hard.appraise(view, random.Random(5), one)
        single = list(sizes)
        sizes.clear()
        sums.clear()
        more = hard.appraise(view, random.Random(5), three)
        for card, (total, count) in sums.items():  # worth its mean over every look it was in
            assert more[card].value == pytest.approx(total / count, rel=1e-12)
        assert sizes[: len(single)] == single
        looks = sizes[1:]
        assert len(looks) <= 3 and looks == sorted(looks, reverse=True)
        assert all(n > 1 for n in looks)
        changed = {c for c in view.legal if more[c] != once[c]}
        assert len(changed) == (looks[1] if len(looks) > 1 else 0)
        again += len(looks) > 1
        narrowed += len(looks) > 1 and looks[-1] < looks[0]
    assert again > 0 and narrowed > 0
    assert expert.BUDGET.close_looks == 3 and hard.DEFAULT_BUDGET.close_worlds == 0


def test_the_passes_close_to_the_best_are_imagined_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """After the finalists' deals, the passes still within `close_z` standard errors of the best
    are imagined in more deals, up to `pass_close_looks` times, each look among those still
    close: their values change (the best one's among them, never one alone), the other
    finalists keep theirs, and the same finalists are ranked. Expert takes those looks."""
    first = hard.Budget(pass_pool=6, pass_worlds=8, pass_finalists=4, pass_final_worlds=8)
    again = dataclasses.replace(first, pass_close_looks=3, pass_close_worlds=8)
    weighed: list[int] = []
    outcomes = hard.pass_outcomes

    def counted(view: PlayerView, candidates: list[tuple[Card, ...]], *args: object) -> object:
        weighed.append(len(candidates))
        return outcomes(view, candidates, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(hard, "pass_outcomes", counted)
    looked = narrowed = 0
    for seed in range(8):
        view = pass_view(RuleOptions.standard(), seed)
        before = dict(hard.rank_passes(view, random.Random(seed), first))
        weighed.clear()
        after = dict(hard.rank_passes(view, random.Random(seed), again))
        assert before.keys() == after.keys() and len(before) == 4
        changed = {p for p in before if after[p] != before[p]}
        best = max(before, key=lambda p: before[p].value)  # type: ignore[union-attr]
        assert not changed or best in changed
        assert len(changed) != 1
        looks = weighed[2:]
        assert len(looks) <= 3 and looks == sorted(looks, reverse=True)
        assert all(1 < n <= 4 for n in looks) and (looks[0] if looks else 0) == len(changed)
        looked += bool(changed)
        narrowed += 0 < len(changed) < len(before)
    assert looked > 0 and narrowed > 0
    assert expert.BUDGET.pass_close_looks > 0 and hard.DEFAULT_BUDGET.pass_close_looks == 0


def test_expert_searches_its_pass_at_three_seats_where_hard_passes_carefully() -> None:
    """At three seats Hard passes the careful player's cards; Expert weighs its candidate passes
    there as at four and five seats (an estimate for each, the best first)."""
    small = dataclasses.replace(
        expert.BUDGET, pass_pool=5, pass_worlds=4, pass_final_worlds=4, pass_close_looks=0
    )
    searched = 0
    for seed in range(4):
        view = pass_view(RuleOptions.standard(3), seed)
        assert hard.searches_pass(view, expert.BUDGET) and not hard.searches_pass(view)
        careful = medium.choose_pass(view, random.Random(seed))
        assert hard.choose_pass(view, random.Random(seed)) == careful
        ranked = hard.rank_passes(view, random.Random(seed), small)
        assert len(ranked) > 1 and all(estimate is not None for _, estimate in ranked)
        values = [estimate.value for _, estimate in ranked if estimate is not None]
        assert values == sorted(values, reverse=True)
        chosen = expert.choose_pass(view, random.Random(seed), small)
        assert chosen == ranked[0][0]
        searched += tuple(sorted(chosen)) != tuple(sorted(careful))
    assert searched > 0  # the search does not merely confirm the careful pass


def test_expert_searches_its_pass_at_cancellation_where_hard_passes_carefully() -> None:
    """At every size of Cancellation Hard passes the careful player's cards and Expert weighs
    its candidate passes (R33.1: three cards, left and right in turn)."""
    small = dataclasses.replace(
        expert.BUDGET, pass_pool=5, pass_worlds=2, pass_final_worlds=2, pass_close_looks=0
    )
    for seats in range(6, 12):
        view = pass_view(RuleOptions.cancellation(seats), seats)
        assert hard.searches_pass(view, expert.BUDGET) and not hard.searches_pass(view)
    searched = 0
    for seed in range(3):
        view = pass_view(RuleOptions.cancellation(8), seed)
        careful = medium.choose_pass(view, random.Random(seed))
        assert hard.choose_pass(view, random.Random(seed)) == careful
        ranked = hard.rank_passes(view, random.Random(seed), small)
        assert len(ranked) > 1 and all(estimate is not None for _, estimate in ranked)
        chosen = expert.choose_pass(view, random.Random(seed), small)
        assert chosen == ranked[0][0]
        searched += tuple(sorted(chosen)) != tuple(sorted(careful))
    assert searched > 0


def budgets_played_with(
    monkeypatch: pytest.MonkeyPatch, tables: list[RuleOptions], *budget: hard.Budget
) -> list[hard.Budget]:
    """The budget Expert hands Hard's search for a card at a position of play of each table."""
    used: list[hard.Budget] = []

    def recorded(view: PlayerView, rng: random.Random, budget: hard.Budget) -> Card:
        used.append(budget)
        return view.legal[0]

    monkeypatch.setattr(hard, "choose_play", recorded)
    for table in tables:
        view = positions(table, 3, lambda v: len(v.legal) > 2, 1)[0][1]
        expert.choose_play(view, random.Random(2), *budget)
    return used


def test_past_seven_seats_a_narrower_second_look_and_exact_play_from_two_cards(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for table in (RuleOptions.standard(4), RuleOptions.standard(5), RuleOptions.cancellation(7)):
        assert expert.budget_at(table) is expert.BUDGET
    for seats in (8, 11):
        budget = expert.budget_at(RuleOptions.cancellation(seats))
        assert (budget.close_worlds, budget.exact_cards) == (64, 2)
        wide = dataclasses.replace(budget, close_worlds=128, exact_cards=3, noisy_replies=0)
        assert wide == expert.BUDGET
    cancellation_8 = RuleOptions.cancellation(8)
    assert expert.budget_at(cancellation_8, SMALL) == dataclasses.replace(
        SMALL, exact_cards=2, noisy_replies=0.1
    )
    assert expert.budget_at(RuleOptions.cancellation(11), SMALL) == dataclasses.replace(
        SMALL, exact_cards=2
    )
    used = budgets_played_with(monkeypatch, [RuleOptions.standard(5), cancellation_8])
    assert used == [expert.BUDGET, expert.budget_at(cancellation_8)]


def test_the_replies_are_noisy_at_six_and_seven_seats_and_at_eight_and_nine_of_cancellation(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Expert's play-outs of its cards at standard-6 and -7 and at Cancellation-8 and -9 (and
    nowhere else) let the other seats play a random legal card one time in ten
    (`expert.NOISY_SEATS`, measured at those tables); Hard's never do."""
    assert hard.DEFAULT_BUDGET.noisy_replies == 0 and expert.BUDGET.noisy_replies == 0
    assert expert.NOISY_SEATS == {Variant.STANDARD: (6, 7), Variant.CANCELLATION: (8, 9)}
    for seats in (6, 7):
        budget = expert.budget_at(RuleOptions.standard(seats))
        assert budget == dataclasses.replace(expert.BUDGET, noisy_replies=0.1)
        assert expert.budget_at(RuleOptions.cancellation(seats)).noisy_replies == 0
    for seats in (8, 9):
        assert expert.budget_at(RuleOptions.cancellation(seats)) == dataclasses.replace(
            expert.BUDGET, close_worlds=64, exact_cards=2, noisy_replies=0.1
        )
    quiet = [RuleOptions.standard(3), RuleOptions.standard(4), RuleOptions.standard(5)]
    quiet += [RuleOptions.cancellation(seats) for seats in (10, 11)]
    quiet += [RuleOptions.standard(omnibus=True)]
    for table in quiet:
        assert expert.budget_at(table).noisy_replies == 0
    tables = [RuleOptions.standard(7), RuleOptions.cancellation(8)]
    assert budgets_played_with(monkeypatch, tables, SMALL) == [
        dataclasses.replace(SMALL, noisy_replies=0.1),
        dataclasses.replace(SMALL, exact_cards=2, noisy_replies=0.1),
    ]


@pytest.mark.parametrize(
    "options", [RuleOptions.standard(7), RuleOptions.standard()], ids=["standard-7", "standard-4"]
)
def test_noisy_replies_replace_the_other_seats_careful_card_by_a_random_legal_one(
    options: RuleOptions,
) -> None:
    """`Budget.noisy_replies` in the play-outs: at every step of the rest of a hand, the rows where
    this seat plays get the careful card; the others get it unless a draw of probability `noise`
    replaces it by a legal card drawn uniformly (each legal card within five standard errors of
    its share); with no noise the policy is the careful one, and the same generator draws the
    same cards."""
    rules = sim.Rules.of(options)
    steps = 0
    for i, (state, view) in enumerate(positions(options, 17, lambda v: v.trick_number <= 2, 3)):
        me = view.seat
        batch = hard._batch(view, know(view), rules, [true_world(state)] * 4000)
        noisy, silent = hard._noisy_replies(me, 0.25), hard._noisy_replies(me, 0.0)
        while not batch.is_over:
            legal = sim.legal_mask(batch)
            careful = careful_policy(batch, legal, np.random.default_rng(0))
            cards = noisy(batch, legal, np.random.default_rng(i))
            assert np.array_equal(cards, noisy(batch, legal, np.random.default_rng(i)))
            assert np.array_equal(silent(batch, legal, np.random.default_rng(i)), careful)
            assert legal[np.arange(batch.size), cards].all()
            if batch.to_play()[0] == me:
                assert np.array_equal(cards, careful)
            elif legal[0].sum() > 1:
                n = int(legal[0].sum())
                share = (cards == careful).mean()
                assert abs(share - (0.75 + 0.25 / n)) < 5 * np.sqrt(0.25 / len(cards)) + 1e-9
                others = np.bincount(cards[cards != careful], minlength=52)
                expected = 0.25 / n * len(cards)
                for card in np.flatnonzero(legal[0]):
                    if card != careful[0]:
                        assert abs(others[card] - expected) < 5 * np.sqrt(expected) + 1, others
                steps += 1
            sim.play(batch, careful)
    assert steps >= 20


def test_a_budget_with_noisy_replies_changes_the_values_of_the_cards_only() -> None:
    """The noise moves the values of the cards, and leaves the pass's play-outs and an exact
    endgame as they were."""
    plain = dataclasses.replace(expert.BUDGET, worlds=16, round_size=16, close_worlds=0)
    noisy = dataclasses.replace(plain, noisy_replies=0.1)
    options = RuleOptions.standard(7)
    views = [v for _, v in positions(options, 3, lambda v: len(v.hand) > 4, 8)]
    changed = sum(
        hard.evaluate(view, random.Random(i), noisy) != hard.evaluate(view, random.Random(i), plain)
        for i, view in enumerate(views)
    )
    assert changed >= 6
    endgame = positions(
        RuleOptions.standard(), 4, lambda v: 1 < len(v.legal) <= len(v.hand) <= 3, 2
    )
    for _, view in endgame:
        assert hard.evaluate(view, random.Random(1), noisy) == hard.evaluate(
            view, random.Random(1), plain
        )
    seat_pass = pass_view(RuleOptions.standard(), 2)
    assert hard.choose_pass(seat_pass, random.Random(1), noisy) == hard.choose_pass(
        seat_pass, random.Random(1), plain
    )


def test_expert_decides_the_same_for_the_same_view_and_seed() -> None:
    options = RuleOptions.standard()
    for _, view in positions(options, 13, lambda v: len(v.legal) > 1, 6):
        first = expert.choose_play(view, random.Random(7), SMALL)
        assert first in view.legal
        assert expert.choose_play(view, random.Random(7), SMALL) == first


def test_expert_plays_whole_games_at_every_table() -> None:
    """Expert (with a small budget) finishes hands at 3 to 11 seats, Cancellation included."""
    for options in (
        RuleOptions.standard(3),
        RuleOptions.standard(5),
        RuleOptions.cancellation(8),
        RuleOptions.cancellation(11),
    ):
        rng = random.Random(2)
        state = apply(new_game(options), random_deal(options, rng))
        while not state.results:
            seat = to_act(state)[0]
            view = view_for(state, seat)
            if view.phase is Phase.PASS:
                action = choose_action(view, Level.MEDIUM, rng)
            elif view.phase is Phase.PLAY:
                action = Play(seat, expert.choose_play(view, rng, SMALL))
            else:
                action = MoonChoice(seat, expert.choose_moon(view, rng))
            state = apply(state, action)
        assert state.results


def test_the_opponent_model_is_a_distribution_over_legal_cards() -> None:
    options = RuleOptions.standard()
    rules = sim.Rules.of(options)
    weights = opponent.weights()
    assert weights.shape == (len(opponent.FEATURES),) and np.abs(weights).sum() > 0
    for state, view in positions(options, 17, lambda v: len(v.legal) > 1, 10):
        batch = hard._batch(view, know(view), rules, [true_world(state)])
        legal = sim.legal_mask(batch)
        log_p = opponent.log_probabilities(batch, legal, weights)
        assert np.isneginf(log_p[~legal]).all()
        assert np.exp(log_p[legal]).sum() == pytest.approx(1.0)
        # The same as the features the model was fitted on, weighted (a log-softmax).
        logits = opponent.features(batch, legal)[legal] @ weights
        expected = logits - np.log(np.exp(logits).sum())
        assert log_p[legal] == pytest.approx(expected)


@pytest.mark.parametrize(
    "options",
    [
        RuleOptions.standard(),
        RuleOptions.standard(3),
        RuleOptions.standard(7, first_lead="any_club"),
        RuleOptions.standard(omnibus=True),
        RuleOptions.cancellation(8),
        RuleOptions.cancellation(11),
    ],
    ids=["standard-4", "standard-3", "standard-7", "omnibus-4", "cancellation-8", "cancel-11"],
)
def test_the_compiled_opponent_model_gives_the_numpy_probabilities(options: RuleOptions) -> None:
    """The compiled model Expert's inference asks (`log_probability_of`) gives every legal card
    the probability of the NumPy reference (`log_probabilities`), and −inf to every other card,
    in every row at every step of play-outs of 16 layouts from 6 positions, with the shipped
    weights and with weights drawn anew (so that every feature counts)."""
    rules = sim.Rules.of(options)
    rng = random.Random(11)
    np_rng = np.random.default_rng(11)
    shipped = opponent.weights()
    checked = 0
    for _, view in positions(options, 13, lambda view: True, 6):
        k = know(view)
        batch = hard._batch(view, k, rules, [sample_world(k, rng) for _ in range(16)])
        drawn = np_rng.normal(0.0, 1.0, len(opponent.FEATURES))
        while not batch.is_over:
            legal = sim.legal_mask(batch)
            for weights in (shipped, drawn):
                expected = opponent.log_probabilities(batch, legal, weights)
                for card in np.flatnonzero(legal.any(axis=0)).tolist():
                    got = opponent.log_probability_of(batch, legal, weights, card)
                    assert np.isneginf(got[~legal[:, card]]).all()
                    assert got[legal[:, card]] == pytest.approx(
                        expected[legal[:, card], card], rel=0, abs=1e-12
                    ), (batch.trick, batch.k, card)
                    checked += int(legal[:, card].sum())
            sim.play(batch, careful_policy(batch, legal, np.random.default_rng(0)))
    assert checked > 2000, checked


def test_the_opponent_model_places_each_card_within_its_suit_in_the_hand() -> None:
    """The features that place a card within its suit in the mover's hand, against a plain count
    over the view's hand: the highest, the lowest, the only card of its suit, and its rank among
    its suit (the share of the suit's other cards held that are lower)."""
    options = RuleOptions.standard()
    rules = sim.Rules.of(options)
    column = {name: i for i, name in enumerate(opponent.FEATURES)}
    seen = set()
    for state, view in positions(options, 23, lambda v: True, 40):
        batch = hard._batch(view, know(view), rules, [true_world(state)])
        legal = sim.legal_mask(batch)
        f = opponent.features(batch, legal)[0]
        following = bool(view.current) and any(c.suit == view.current[0][1].suit for c in view.hand)
        way = "lead" if not view.current else "follow" if following else "discard"
        seen.add(way)
        for card in view.hand:
            suit = sorted(c.rank for c in view.hand if c.suit == card.suit)
            x = f[card.index]
            share = suit.index(card.rank) / max(len(suit) - 1, 1)
            assert x[column[f"{way}: rank among its suit"]] == pytest.approx(share)
            if way != "follow":
                assert x[column[f"{way}: the highest of its suit"]] == (card.rank == suit[-1])
                assert x[column[f"{way}: the only card of its suit"]] == (len(suit) == 1)
            if way == "follow":
                assert x[column["follow: the lowest of its suit"]] == (card.rank == suit[0])
            if way == "discard":
                assert x[column["discard: length of its suit"]] == pytest.approx(len(suit) / 13)
            for other in ("lead", "follow", "discard"):
                if other != way:
                    assert x[column[f"{other}: rank among its suit"]] == 0
    assert seen == {"lead", "follow", "discard"}


@pytest.mark.parametrize(
    "options",
    [
        RuleOptions.standard(),
        RuleOptions.standard(7, first_lead="any_club"),
        RuleOptions.standard(omnibus=True),
        RuleOptions.cancellation(8),
    ],
    ids=["standard-4", "standard-7", "omnibus-4", "cancellation-8"],
)
def test_a_card_drawn_from_the_opponent_model_is_as_likely_as_the_model_makes_it(
    options: RuleOptions,
) -> None:
    """`opponent.draw` (the other seats' cards in the play-outs of `Budget.model_replies`): at
    every step of the rest of a hand from 3 positions in its first two tricks, 3,000 rows of the
    same layout draw each legal card about as often as `log_probabilities` makes it likely
    (within five standard errors, and within 0.03), never an illegal one; the rows it keeps get
    their kept card; the same generator draws the same cards, and one whose rows are all kept
    draws no number."""
    rules = sim.Rules.of(options)
    weights = opponent.weights()
    steps = 0
    for i, (state, view) in enumerate(positions(options, 17, lambda v: v.trick_number <= 2, 3)):
        batch = hard._batch(view, know(view), rules, [true_world(state)] * 3000)
        keep = np.arange(batch.size) % 10 == 0
        kept = np.full(batch.size, -7, dtype=np.int64)
        while not batch.is_over:
            legal = sim.legal_mask(batch)
            drawn = opponent.draw(batch, legal, weights, np.random.default_rng(i), kept, keep)
            again = opponent.draw(batch, legal, weights, np.random.default_rng(i), kept, keep)
            assert np.array_equal(drawn, again)
            assert (drawn[keep] == -7).all()
            cards = drawn[~keep]
            assert legal[~keep][np.arange(len(cards)), cards].all()
            p = np.exp(opponent.log_probabilities(batch, legal, weights)[0])
            seen = np.bincount(cards, minlength=52) / len(cards)
            error = np.sqrt(p * (1 - p) / len(cards))
            assert (np.abs(seen - p) <= np.minimum(5 * error + 1e-9, 0.03)).all(), (seen, p)
            steps += int(legal[0].sum() > 1)
            sim.play(batch, careful_policy(batch, legal, np.random.default_rng(0)))
        untouched = np.random.default_rng(3)
        every = np.ones(batch.size, dtype=np.bool_)
        assert opponent.draw(batch, legal, weights, untouched, kept, every) is kept
        assert untouched.random() == np.random.default_rng(3).random()
    assert steps >= 30, steps


def test_a_budget_with_modelled_replies_draws_the_other_seats_cards_in_its_play_outs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With `model_replies`, in the play-outs that weigh the cards every other seat's card is drawn
    from the opponent model and this seat's is the careful one (`opponent.draw` keeps exactly
    the rows where this seat plays), and the values change; the pass's play-outs, an exact
    endgame and a budget without it draw none. No level's budget has it: it measured no gain
    (bench/results/README.md)."""
    calls: list[int] = []
    draw = opponent.draw
    me = {"seat": -1}

    def counted(b: sim.Batch, legal: Any, weights: Any, rng: Any, kept: Any, keep: Any) -> Any:
        assert np.array_equal(keep, b.to_play() == me["seat"])
        assert np.array_equal(kept[keep], careful_policy(b, legal, rng)[keep])
        calls.append(b.size)
        return draw(b, legal, weights, rng, kept, keep)

    monkeypatch.setattr(opponent, "draw", counted)
    plain = dataclasses.replace(expert.BUDGET, worlds=16, round_size=16, close_worlds=0)
    modelled = dataclasses.replace(plain, model_replies=True)
    changed = 0
    views = [v for _, v in positions(RuleOptions.standard(), 3, lambda v: len(v.hand) > 4, 12)]
    for i, view in enumerate(views):
        me["seat"] = view.seat
        before = hard.evaluate(view, random.Random(i), plain)
        assert not calls
        after = hard.evaluate(view, random.Random(i), modelled)
        assert calls
        calls.clear()
        changed += after != before
    assert changed >= 10
    endgame = positions(
        RuleOptions.standard(), 4, lambda v: 1 < len(v.legal) <= len(v.hand) <= 3, 2
    )
    for _, view in endgame:
        hard.evaluate(view, random.Random(1), modelled)
    hard.choose_pass(pass_view(RuleOptions.standard(), 2), random.Random(1), modelled)
    assert not calls
    assert not expert.BUDGET.model_replies and not hard.DEFAULT_BUDGET.model_replies


def test_the_opponent_model_predicts_hard_better_than_chance() -> None:
    """On hands of Hard self-play it was not fitted to, the shipped model gives the cards Hard
    played a higher mean log-probability than every legal card equally likely, and the careful
    player's habits do worse than both (Hard plays otherwise more than half the time)."""
    hands = learn_opponent.play_hands(("standard-4", "hard", 424242, 4))
    x, legal, chosen, careful = learn_opponent.samples("standard-4", hands)
    rows = np.arange(len(chosen))
    model = learn_opponent.log_probabilities(x, legal, opponent.weights())[rows, chosen].mean()
    uniform = -np.log(legal.sum(axis=1)).mean()
    assert model > uniform + 0.03
    assert careful.mean() < 0.6


def test_expert_searches_its_pass_in_omnibus_and_keeps_the_bonus_card_and_its_captors() -> None:
    """In Omnibus (R20) Hard passes the careful player's cards and Expert weighs its candidate
    passes. Its pool counts the bonus card `JD` and the diamonds that can capture it as worth
    keeping, as the careful player does (R20.1: the bonus is worth -10 points to its taker)."""
    small = dataclasses.replace(
        expert.BUDGET, pass_pool=5, pass_worlds=4, pass_final_worlds=4, pass_close_looks=0
    )
    omnibus = RuleOptions.standard(4, omnibus=True)
    for seed in range(3):
        view = pass_view(omnibus, seed)
        assert hard.searches_pass(view, expert.BUDGET) and not hard.searches_pass(view)
        careful = medium.choose_pass(view, random.Random(seed))
        assert hard.choose_pass(view, random.Random(seed)) == careful
        ranked = hard.rank_passes(view, random.Random(seed), small)
        assert len(ranked) > 1 and all(estimate is not None for _, estimate in ranked)
        assert expert.choose_pass(view, random.Random(seed), small) == ranked[0][0]
    hand = cards("QH JH TH TC 9C 8C 7C AD KD QD JD 3S 2S")
    captors = set(cards("AD KD QD JD"))
    for options, kept in ((omnibus, True), (RuleOptions.standard(4), False)):
        view = dataclasses.replace(pass_view(options, 0), hand=hand)
        pool = {c for cand in hard.pass_candidates(view, random.Random(0), 7) for c in cand}
        assert (not pool & captors) is kept
