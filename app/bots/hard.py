"""Hard: determinized Monte Carlo (seed 004: "imagines many ways the hidden cards could lie, plays
each of them out in its head and chooses the card that is best on average").

For a play: sample layouts of the hidden cards exactly consistent with the view (`sampler`), play
each legal card in each layout and finish the hand with the careful player's habits for every
seat (`rollout.careful_policy`, the Medium player vectorized over the `simulator`'s rows), and
pick the card with the best mean result for the game: the opponents' points against its own,
plus the race to the target when the hand can end the game.

Layouts are drawn a few at a time for each one used, and the ones used are those that best
explain the other seats' plays so far: replaying the hand in each layout, the fewest plays a
careful player holding those cards would not have made (`inference.surprises`). That is
inference from public plays only (BOT-01): the true layout of a table of careful players never
surprises. Expert draws them in proportion to their likelihood instead (`inference`), solves
the last tricks exactly (`endgame`), values outcomes by the game standing (`standing`), looks
again at the cards close to the best (`close_worlds`) and, at the table it was fitted at, counts
its pass's play-outs' points as a value learned from Hard's games predicts them (`pass_value`):
the `Budget` turns each on.

For the pass: candidate passes (every choice among the most passable cards, the careful player's
own pass first) are each played out in imagined deals of the other hands, the other seats passing
as a careful player would; the best few are imagined again in more deals.

The budget is data: a number of layouts, spent in rounds, never a time limit, so a decision is the
same for the same view and seed on an idle machine and on a loaded server (`bench.think` keeps the
time a budget takes in check). The moon choice uses the `auto` rule.
"""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass
from typing import cast

import numpy as np

from app.bots import (
    endgame,
    inference,
    medium,
    opponent,
    pass_value,
    play_value,
    rollout,
    sampler,
    standing,
)
from app.bots import simulator as sim
from app.bots.knowledge import Knowledge, know
from app.bots.moon import choose_moon
from app.bots.rollout import careful_policy, careful_where
from app.bots.sampler import World, sample_worlds
from app.bots.tactics import without
from app.engine import (
    QUEEN_OF_SPADES,
    Card,
    FirstLead,
    PlayerView,
    Suit,
    is_penalty_card,
    pass_target,
    points_of,
)

__all__ = [
    "DEFAULT_BUDGET",
    "Budget",
    "Estimate",
    "appraise",
    "choose_moon",
    "choose_pass",
    "choose_play",
    "evaluate",
    "evaluate_passes",
    "pass_candidates",
    "pass_outcomes",
    "rank_passes",
    "searches_pass",
    "warm_up",
]


@dataclass(frozen=True, slots=True)
class Budget:
    """How much thinking a decision may take."""

    worlds: int = 64
    """Layouts of the hidden cards to imagine (each played out once per legal card)."""
    round_size: int = 32
    """Layouts chosen together: the kept ones of a round are chosen among its own draws. The
    rounds' layouts are then played out in one batch of the simulator (fewer, larger array
    operations), except in an exact endgame, solved round by round (`exact_rows` bounds one
    round)."""
    end_weight: float = 30.0
    """Points a win (or loss) of the game at the end of this hand is worth in the evaluation."""
    candidates_per_world: int = 2
    """Layouts drawn for each one kept: the kept ones are those in which the other seats' plays
    so far look most like a careful player's (the fewest plays a careful player would not have
    made with that hand)."""
    pass_seats: tuple[int, ...] = (4, 5)
    """Table sizes of the standard game at which the pass is searched (in Omnibus only with
    `pass_omnibus`). Elsewhere the pass is the careful player's: imagining whole hands of many
    seats for every candidate costs more time."""
    pass_omnibus: bool = False
    """Whether the pass is searched in Omnibus too (at the sizes of `pass_seats`)."""
    pass_cancellation_seats: tuple[int, ...] = ()
    """Table sizes of Cancellation at which the pass is searched (none by default: there the
    careful player's pass is Hard's)."""
    pass_pool: int = 7
    """Passes considered: every choice of cards among this many of the most passable."""
    pass_worlds: int = 12
    """Deals of the other hands imagined for every candidate pass."""
    pass_finalists: int = 6
    """The candidates with the best results so far, imagined again in more deals."""
    pass_final_worlds: int = 24
    """Further deals imagined for each finalist."""
    pass_close_looks: int = 0
    """How many times the finalists still close to the best (as `close_z` judges cards, over
    every deal they were played in) are imagined again, each time in `pass_close_worlds` more
    deals."""
    pass_close_worlds: int = 96
    """Further deals imagined for each close finalist, per look."""
    weigh_layouts: bool = False
    """Draw the layouts used in proportion to how likely they make the other seats' plays so far
    under a noisy careful player (`inference.log_likelihoods`), instead of keeping the least
    surprising ones."""
    least_ess: float = 0.0
    """With `weigh_layouts`, the share of a round's draws whose worth of evidence its weights must
    keep (0: the likelihoods as they are): when a few draws would take nearly all the weight
    (the effective sample size, 1 / Σw², below this share of the draws), the likelihoods are
    tempered (`inference.temper`) until it is reached."""
    close_worlds: int = 0
    """Layouts imagined again for the cards still close to the best once `worlds` are played
    out (0: none): those whose mean result trails the best card's by less than `close_z`
    standard errors of the difference (paired layout by layout)."""
    close_looks: int = 1
    """How many times the cards still close are played out again, each time in `close_worlds`
    more layouts, and each time among those still close over every layout they were played in."""
    close_z: float = 2.0
    """How many standard errors behind the best a card may trail and still be looked at again."""
    exact_cards: int = 0
    """Solve every layout exactly (`endgame`) once this seat holds at most this many cards (0:
    always roll out)."""
    exact_rows: int = 120_000
    """The most positions one level of an exact solution may hold; past it, roll out."""
    standing: bool = False
    """Value a hand by the game standing (`standing.game_values`) rather than by the hand's
    points plus the race when it ends the game."""
    learned_pass: bool = False
    """Where the learned value fits the table (`pass_value.fits`: the standard game at four
    seats), weigh the pass by every seat's points as it predicts them from the play-out and the
    hands (`pass_value.predict`) rather than by the play-out's own points."""
    learned_play: bool = False
    """Where the learned value fits the table (`play_value.fits`), weigh the cards by every
    seat's points as it predicts them (`play_value.predict`) from the play-out and the state at
    the end of the trick in progress (the play-out is that trick played out, then the rest of
    the hand), rather than by the play-out's own points; not in an exact endgame, nor where the
    next trick is past those the value was fitted at. No level turns it on: Expert with it
    measured no gain over Expert without (bench/results/README.md)."""
    model_replies: bool = False
    """In the play-outs that weigh the cards (not the pass's), every other seat plays a card drawn
    from the learned opponent model (`opponent.draw`: Hard's play as Expert's inference models
    it) instead of the careful card; this seat keeps the careful habits."""
    noisy_replies: float = 0.0
    """Where `model_replies` is off: in the play-outs that weigh the cards (not the pass's), every
    other seat plays a legal card drawn at random with this probability instead of the careful
    card, so that a card's value is averaged over more than the one path of play the careful
    habits take in each layout; this seat keeps the careful habits."""


DEFAULT_BUDGET = Budget()


@dataclass(frozen=True, slots=True)
class Estimate:
    """What a choice is worth over the imagined layouts."""

    value: float
    """The mean result the choice is ranked by (higher is better): the opponents' mean points
    minus this seat's, plus the race to the target when the hand can end the game."""
    points: float
    """This seat's mean points at the end of the hand."""


ROLLOUT_POLICY: sim.Policy = careful_policy
"""How every seat plays in the imagined play-outs."""


def warm_up() -> None:
    """Compile Hard's and Expert's hot loops now (a few seconds the first time on a machine, then
    read from Numba's cache), so that no player waits for them: the play-outs' careful policy,
    the sampler's placing of cards, the learned opponent model of Expert's inference and the
    learned value of Expert's pass (the learned value of the cards, which no level uses, compiles
    when first asked for)."""
    rollout.warm_up()
    sampler.warm_up()
    opponent.warm_up()
    pass_value.warm_up()


def choose_play(view: PlayerView, rng: random.Random, budget: Budget = DEFAULT_BUDGET) -> Card:
    """The legal card with the best mean result over imagined layouts."""
    if len(view.legal) == 1:
        return view.legal[0]
    scores = evaluate(view, rng, budget)
    best = max(scores.values())
    return next(c for c in view.legal if scores[c] == best)


def choose_pass(
    view: PlayerView, rng: random.Random, budget: Budget = DEFAULT_BUDGET
) -> tuple[Card, ...]:
    """The pass with the best mean result over imagined deals of the other hands.

    The candidates are every choice of `pass_count` cards among the `pass_pool` most passable
    ones (the careful Medium player's pass among them, preferred on ties). In each imagined deal
    the other seats pass as a careful player would (or what they already committed), the
    exchange is made, and the whole hand is played out once per candidate. The best few
    candidates are then imagined in more deals; with `pass_close_looks`, those still close to
    the best are imagined in more deals again, a few times over. The best over all its deals
    wins.
    """
    return rank_passes(view, rng, budget)[0][0]


def rank_passes(
    view: PlayerView, rng: random.Random, budget: Budget = DEFAULT_BUDGET
) -> list[tuple[tuple[Card, ...], Estimate | None]]:
    """The passes `choose_pass` weighed, best first, with what each is worth; only the careful
    player's pass, with no estimate, at a table where `budget` does not search the pass."""
    candidates = pass_candidates(view, rng, budget.pass_pool)
    if len(candidates) == 1 or budget.pass_worlds < 1 or not searches_pass(view, budget):
        return [(candidates[0], None)]
    knowledge = know(view)
    each, own = pass_outcomes(view, candidates, rng, budget.pass_worlds, budget, knowledge)
    values, points = each.mean(axis=0), own.mean(axis=0)
    chosen = list(range(len(candidates)))
    if budget.pass_final_worlds > 0 and len(candidates) > budget.pass_finalists:
        ranked: list[int] = np.argsort(-values, kind="stable").tolist()
        chosen = sorted(ranked[: budget.pass_finalists])
        finals = [candidates[i] for i in chosen]
        more, more_own = pass_outcomes(
            view, finals, rng, budget.pass_final_worlds, budget, knowledge
        )
        w1, w2 = budget.pass_worlds, budget.pass_final_worlds
        values = (values[chosen] * w1 + more.mean(axis=0) * w2) / (w1 + w2)
        points = (points[chosen] * w1 + more_own.mean(axis=0) * w2) / (w1 + w2)
        each = np.concatenate([each[:, chosen], more])
    live = list(range(len(chosen)))  # the candidates weighed (indexes into `chosen`) still close
    for _ in range(budget.pass_close_looks):
        close = _close((each, np.ones(len(each))), budget.close_z)
        if len(close) < 2:
            break
        live = [live[j] for j in close]
        again = [candidates[chosen[i]] for i in live]
        more, more_own = pass_outcomes(
            view, again, rng, budget.pass_close_worlds, budget, knowledge
        )
        seen, w3 = len(each), budget.pass_close_worlds
        values[live] = (values[live] * seen + more.mean(axis=0) * w3) / (seen + w3)
        points[live] = (points[live] * seen + more_own.mean(axis=0) * w3) / (seen + w3)
        each = np.concatenate([each[:, close], more])
    order: list[int] = np.argsort(-values, kind="stable").tolist()
    return [(candidates[chosen[i]], Estimate(float(values[i]), float(points[i]))) for i in order]


def searches_pass(view: PlayerView, budget: Budget = DEFAULT_BUDGET) -> bool:
    """Whether a player thinking with `budget` (Hard's by default) imagines the play of its
    candidate passes at this table (else it passes as the careful player does)."""
    options = view.options
    if options.omnibus and not budget.pass_omnibus:
        return False
    seats = budget.pass_cancellation_seats if options.is_cancellation else budget.pass_seats
    return view.num_players in seats


def pass_candidates(view: PlayerView, rng: random.Random, pool_size: int) -> list[tuple[Card, ...]]:
    """The passes worth imagining, the careful player's own first."""
    count = view.options.pass_count
    careful = medium.choose_pass(view, rng)
    hand = list(view.hand)
    rest = without(hand, careful)
    bonus = view.options.bonus_card
    rest.sort(key=lambda c: _pass_risk(hand, c, bonus), reverse=True)
    pool = sorted([*careful, *rest[: max(0, pool_size - len(careful))]])
    out = [careful]
    seen = {tuple(sorted(careful))}
    for combo in itertools.combinations(pool, count):
        if combo not in seen:
            seen.add(combo)
            out.append(combo)
    return out


def _pass_risk(hand: list[Card], c: Card, bonus: Card | None) -> float:
    """How troublesome `c` is to keep (higher: pass it sooner); a rough order for the pool.

    Medium's danger of keeping `c`, but the queen and `AS`/`KS` Medium would pass come first
    and a short club or diamond suit counts more (passing it makes a void). The Omnibus
    `bonus` card and the cards that can capture it count less, as Medium counts them."""
    if c in medium.dangerous_spades(hand):
        return 40.0 if c is QUEEN_OF_SPADES else 25.0 + c.rank
    risk = medium.pass_danger(hand, c, bonus)
    if c.suit in (Suit.CLUBS, Suit.DIAMONDS) and sum(1 for x in hand if x.suit is c.suit) <= 3:
        risk += 3  # a short suit: passing it makes a void
    return risk


def evaluate_passes(
    view: PlayerView,
    candidates: list[tuple[Card, ...]],
    rng: random.Random,
    worlds: int,
    budget: Budget = DEFAULT_BUDGET,
    knowledge: Knowledge | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Mean result of each candidate pass over `worlds` imagined deals of the other hands, and
    this seat's mean points with it (`knowledge`: `know(view)`, if already derived)."""
    each, own = pass_outcomes(view, candidates, rng, worlds, budget, knowledge)
    return each.mean(axis=0), own.mean(axis=0)


def pass_outcomes(
    view: PlayerView,
    candidates: list[tuple[Card, ...]],
    rng: random.Random,
    worlds: int,
    budget: Budget = DEFAULT_BUDGET,
    knowledge: Knowledge | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """The result of each candidate pass in each of `worlds` imagined deals of the other hands,
    and this seat's points with it: two arrays of shape (worlds, candidates)."""
    if knowledge is None:
        knowledge = know(view)
    options = view.options
    rules = sim.Rules.of(options)
    n = view.num_players
    me = view.seat
    direction = view.direction
    target = pass_target(me, direction, n)
    np_rng = np.random.default_rng(rng.getrandbits(64))
    w_count = worlds
    c_count = len(candidates)
    fixed = np.zeros((w_count, n, 52), dtype=np.int8)
    kitty_points = np.zeros(w_count, dtype=np.int64)
    kitty_penalty = np.zeros(w_count, dtype=np.int64)
    for w, world in enumerate(sample_worlds(knowledge, rng, w_count)):
        dealt: list[list[Card]] = []
        passes: list[tuple[Card, ...]] = []
        for s in range(n):
            if s == me:
                dealt.append(list(view.hand))
                passes.append(())
                continue
            committed = world.passes[s]
            if committed is not None:
                dealt.append([*world.hands[s], *committed])
                passes.append(committed)
            else:
                held = tuple(sorted(world.hands[s]))
                dealt.append(list(held))
                passes.append(medium.pass_cards(options, held, view.totals))
        after = sim.counts_of(options, [[c.index for c in d] for d in dealt])
        for s in range(n):
            if s != me:
                np.subtract.at(after[s], [c.index for c in passes[s]], 1)
                np.add.at(after[pass_target(s, direction, n)], [c.index for c in passes[s]], 1)
        fixed[w] = after
        kitty_points[w] = points_of(options, world.kitty)
        kitty_penalty[w] = sum(1 for c in world.kitty if is_penalty_card(c))
    mine = np.zeros((c_count, 52), dtype=np.int8)
    for i, cand in enumerate(candidates):
        np.add.at(mine[i], [c.index for c in cand], 1)
    hands = np.repeat(fixed[:, None], c_count, axis=1)
    hands[:, :, me] -= mine[None]
    hands[:, :, target] += mine[None]
    hands = hands.reshape(w_count * c_count, n, 52)
    if options.first_lead is FirstLead.LEFT_OF_DEALER:
        leader: int | sim.IntArray = (view.dealer + 1) % n
    else:
        leader = np.asarray(hands[:, :, rules.lowest_club].argmax(axis=1), dtype=np.int64)
    rows = w_count * c_count
    kitty = (
        np.full(rows, bool(view.kitty_size)),
        np.repeat(kitty_points, c_count),
        np.repeat(kitty_penalty, c_count),
    )
    totals = np.asarray(view.totals, dtype=np.int64)
    learned = budget.learned_pass and pass_value.fits(options)
    start = hands.copy() if learned else hands
    batch = sim.new_batch(rules, hands, leader=leader, kitty=kitty, totals=totals)
    sim.play_out(batch, ROLLOUT_POLICY, np_rng)
    points = sim.hand_points(batch, totals[None, :])
    if learned:
        points = pass_value.predict(start, points, leader, sim.shooters(batch) >= 0)
    utility = _utility(me, rules, points, totals[None, :], budget)
    own = points[:, me].astype(np.float64)
    return (
        np.asarray(utility.reshape(w_count, c_count), dtype=np.float64),
        own.reshape(w_count, c_count),
    )


def evaluate(
    view: PlayerView, rng: random.Random, budget: Budget = DEFAULT_BUDGET
) -> dict[Card, float]:
    """Mean result of each legal card (higher is better) over the imagined layouts."""
    return {c: e.value for c, e in appraise(view, rng, budget).items()}


def appraise(
    view: PlayerView, rng: random.Random, budget: Budget = DEFAULT_BUDGET
) -> dict[Card, Estimate]:
    """What each legal card is worth over the imagined layouts (`evaluate`, with this seat's
    mean points). With `close_worlds`, the cards still close to the best after the first look
    are played out in that many more layouts and worth their mean over every look, up to
    `close_looks` times."""
    knowledge = know(view)
    rules = sim.Rules.of(view.options)
    candidates = list(view.legal)
    np_rng = np.random.default_rng(rng.getrandbits(64))
    count = budget.worlds
    totals, own, each = _look(view, knowledge, rules, rng, np_rng, candidates, count, budget)
    value = {
        c: Estimate(float(t / count), float(p / count))
        for c, t, p in zip(candidates, totals, own, strict=True)
    }
    if budget.close_worlds <= 0:
        return value
    seen = np.full(len(candidates), count)
    live = list(range(len(candidates)))  # the candidates (indexes) still close
    for _ in range(budget.close_looks):
        close = _close(each, budget.close_z)
        if len(close) < 2:
            break
        live = [live[j] for j in close]
        again = [candidates[i] for i in live]
        more, more_own, (utility, times) = _look(
            view, knowledge, rules, rng, np_rng, again, budget.close_worlds, budget
        )
        totals[live] += more
        own[live] += more_own
        seen[live] += budget.close_worlds
        for i in live:
            value[candidates[i]] = Estimate(float(totals[i] / seen[i]), float(own[i] / seen[i]))
        each = (
            np.concatenate([each[0][:, close], utility]),
            np.concatenate([each[1], times]),
        )
    return value


def _look(
    view: PlayerView,
    knowledge: Knowledge,
    rules: sim.Rules,
    rng: random.Random,
    np_rng: np.random.Generator,
    candidates: list[Card],
    count: int,
    budget: Budget,
) -> tuple[np.ndarray, np.ndarray, tuple[np.ndarray, np.ndarray]]:
    """`count` imagined layouts, each candidate played out in each: the summed results and this
    seat's summed points per candidate, and every layout's results with the times it counts."""
    totals = np.zeros(len(candidates))
    own = np.zeros(len(candidates))
    # Cancellation: many seats to replay, and a face-down kitty the replayed habits do not count.
    per_world = budget.candidates_per_world
    if view.options.is_cancellation and not budget.weigh_layouts:
        per_world = 1
    step = budget.round_size
    sizes = [min(step, count - start) for start in range(0, count, step)]
    rounds = _likely_worlds(
        view, knowledge, rules, rng, sizes, per_world, budget.weigh_layouts, budget.least_ess
    )
    exact = 0 < len(view.hand) <= budget.exact_cards
    utilities: list[np.ndarray] = []
    weights: list[np.ndarray] = []
    for group in [[r] for r in rounds] if exact else [rounds]:
        worlds = [world for kept, _ in group for world in kept]
        utility, points = _round(view, knowledge, rules, worlds, candidates, np_rng, budget)
        start = 0
        for kept, times in group:  # summed round by round, as ever: the same totals to the bit
            end = start + len(kept)
            totals += (utility[start:end] * times[:, None]).sum(axis=0)
            own += (points[start:end] * times[:, None]).sum(axis=0)
            start = end
        utilities.append(utility)
        weights.extend(times for _, times in group)
    return totals, own, (np.concatenate(utilities), np.concatenate(weights))


def _close(each: tuple[np.ndarray, np.ndarray], z: float) -> list[int]:
    """The candidates (indexes) whose mean result trails the best one's by less than `z`
    standard errors of the difference, layout by layout, the best among them; [] if none."""
    utility, times = each
    n = times.sum()
    mean = (utility * times[:, None]).sum(axis=0) / n
    best = int(mean.argmax())
    gap = utility[:, best : best + 1] - utility  # (layouts, candidates)
    spread = ((gap - (mean[best] - mean)) ** 2 * times[:, None]).sum(axis=0) / n
    close = (mean[best] - mean) < z * np.sqrt(spread / n)
    close[best] = True
    return np.flatnonzero(close).tolist() if close.sum() > 1 else []


def _likely_worlds(
    view: PlayerView,
    knowledge: Knowledge,
    rules: sim.Rules,
    rng: random.Random,
    sizes: list[int],
    per_world: int,
    weigh: bool = False,
    least_ess: float = 0.0,
) -> list[tuple[list[World], np.ndarray]]:
    """For each round of `sizes`, that many layouts from `size * per_world` drawn, each with the
    number of times it counts: the least surprising of the round's draws (earlier ones on ties),
    once each; or, if `weigh`, drawn again in proportion to their likelihood, tempered to keep an
    effective sample size of `least_ess` of the draws (a layout drawn again several times is
    imagined once and counts that many times).

    The rounds draw from `rng` one after another (a round's layouts, then the one number its
    resampling uses), and the hand so far is replayed once for the draws of every round."""
    if per_world <= 1:
        return [_once(sample_worlds(knowledge, rng, size)) for size in sizes]
    draws: list[list[World]] = []
    uniforms: list[float] = []
    for size in sizes:
        draws.append(sample_worlds(knowledge, rng, size * per_world))
        if weigh:
            uniforms.append(rng.random())
    every = [world for drawn in draws for world in drawn]
    judged = (
        inference.log_likelihoods(view, knowledge, rules, every)
        if weigh
        else inference.surprises(view, knowledge, rules, every)
    )
    rounds, start = [], 0
    for r, (size, drawn) in enumerate(zip(sizes, draws, strict=True)):
        scores = judged[start : start + len(drawn)]
        start += len(drawn)
        if weigh:
            if least_ess > 0:
                scores = inference.temper(scores, least_ess * len(drawn))
            kept = inference.resample(scores, size, uniforms[r])
            picked, times = np.unique(kept, return_counts=True)
            rounds.append(([drawn[i] for i in picked], times.astype(np.float64)))
        else:
            order = np.argsort(scores, kind="stable")
            rounds.append(_once([drawn[i] for i in order[:size]]))
    return rounds


def _once(worlds: list[World]) -> tuple[list[World], np.ndarray]:
    """Layouts that count once each."""
    return worlds, np.ones(len(worlds))


def _round(
    view: PlayerView,
    knowledge: Knowledge,
    rules: sim.Rules,
    worlds: list[World],
    candidates: list[Card],
    np_rng: np.random.Generator,
    budget: Budget,
) -> tuple[np.ndarray, np.ndarray]:
    """Utility of each candidate in each world, shape (worlds, candidates), and this seat's
    points (the same shape)."""
    c = len(candidates)
    batch = _batch(view, knowledge, rules, worlds).repeat(c)
    first = np.tile(np.array([card.index for card in candidates], dtype=np.int64), len(worlds))
    sim.play(batch, first)
    totals = np.asarray(view.totals, dtype=np.int64)[None, :]
    me = view.seat
    solved = None
    if 0 < len(view.hand) <= budget.exact_cards:
        solved = endgame.solve(batch, _values(me, rules, totals, budget), budget.exact_rows, me)
    learned = None
    if solved is None:
        policy = ROLLOUT_POLICY
        if budget.model_replies:
            policy = _modelled_replies(me)
        elif budget.noisy_replies:
            policy = _noisy_replies(me, budget.noisy_replies)
        if budget.learned_play and play_value.fits(view.options):
            sim.play_trick(batch, policy, np_rng)
            if play_value.FIRST <= batch.trick <= play_value.LAST:
                learned = (
                    batch.hands.copy(),
                    batch.points.copy(),
                    batch.leader.copy(),
                    batch.trick,
                )
        sim.play_out(batch, policy, np_rng)
    else:
        leaves, reached = solved
        batch = leaves.take(reached)
    points = sim.hand_points(batch, totals)
    if learned is not None:
        hands, taken, leader, trick = learned
        points = play_value.predict(hands, points, taken, leader, sim.shooters(batch) >= 0, trick)
    utility = _utility(me, rules, points, totals, budget).reshape(len(worlds), c)
    return utility, points[:, me].astype(np.float64).reshape(len(worlds), c)


def _modelled_replies(me: int) -> sim.Policy:
    """The play-outs' policy of `Budget.model_replies`: seat `me` plays the careful card, every
    other seat a card drawn from the learned opponent model."""
    weights = opponent.weights()

    def policy(b: sim.Batch, legal: sim.BoolArray, rng: np.random.Generator) -> sim.IntArray:
        mine = b.to_play() == me
        return opponent.draw(b, legal, weights, rng, careful_where(b, legal, mine), mine)

    return policy


def _noisy_replies(me: int, noise: float) -> sim.Policy:
    """The play-outs' policy of `Budget.noisy_replies`: the careful card, but each other seat's
    replaced, with probability `noise`, by one of its legal cards drawn at random."""

    def policy(b: sim.Batch, legal: sim.BoolArray, rng: np.random.Generator) -> sim.IntArray:
        cards = ROLLOUT_POLICY(b, legal, rng)
        noisy = (rng.random(b.size) < noise) & (b.to_play() != me)
        if not noisy.any():
            return cards
        return cast(sim.IntArray, np.where(noisy, sim.random_policy(b, legal, rng), cards))

    return policy


def _values(me: int, rules: sim.Rules, totals: sim.IntArray, budget: Budget) -> endgame.Values:
    """The exact solver's leaf values: this seat's `_utility`, every other seat's plain hand
    result."""

    def values(leaves: sim.Batch) -> np.ndarray:
        points = sim.hand_points(leaves, totals)
        out = standing.hand_values(points)
        out[:, me] = _utility(me, rules, points, totals, budget)
        return out

    return values


def _utility(
    me: int, rules: sim.Rules, points: sim.IntArray, totals: sim.IntArray, budget: Budget
) -> np.ndarray:
    """Opponents' mean points minus own points, plus the game's win or loss if it ends (or, with
    `budget.standing`, the value of the hand for the game standing)."""
    if budget.standing:
        return standing.game_values(me, rules, points, totals, budget.end_weight)
    n = rules.n
    own = points[:, me].astype(np.float64)
    others = (points.sum(axis=1) - points[:, me]) / (n - 1)
    after = totals + points
    ends, winners = sim.game_end(rules, after)
    race = np.where(ends, np.where(winners[:, me], budget.end_weight, -budget.end_weight), 0.0)
    return np.asarray(others - own + race, dtype=np.float64)


def _batch(view: PlayerView, k: Knowledge, rules: sim.Rules, worlds: list[World]) -> sim.Batch:
    """The simulator batch of the current position, one row per imagined world."""
    n = view.num_players
    m = len(worlds)
    hands = sim.counts_of_many(
        view.options, [[[c.index for c in h] for h in world.hands] for world in worlds]
    )
    points = np.tile(np.asarray(k.points_taken, dtype=np.int64), (m, 1))
    penalty = np.tile(np.asarray(k.penalty_taken, dtype=np.int64), (m, 1))
    kitty_points = np.array([points_of(view.options, w.kitty) for w in worlds], dtype=np.int64)
    kitty_penalty = np.array(
        [sum(1 for c in w.kitty if is_penalty_card(c)) for w in worlds], dtype=np.int64
    )
    collector = view.kitty_collector
    if collector is not None and collector != view.seat:
        points[:, collector] += kitty_points  # hidden, but taken: it counts for the moon too
        penalty[:, collector] += kitty_penalty
    pending = np.full(m, view.kitty_size > 0 and collector is None)
    tricks_won = np.zeros(n, dtype=np.int64)
    for t in view.tricks:
        if t.collector is not None:
            tricks_won[t.collector] += 1
    bonus = view.options.bonus_card
    bonus_taken = np.zeros((m, n), dtype=np.bool_)
    if bonus is not None:
        for seat, taken in enumerate(k.taken):
            bonus_taken[:, seat] = bonus in taken
    played = view.played_cards
    voids = np.zeros((n, 4), dtype=np.bool_)
    for seat in range(n):
        if seat != view.seat:
            for suit in k.voids[seat]:
                voids[seat, list(Suit).index(suit)] = True
    return sim.new_batch(
        rules,
        hands,
        leader=view.leader if view.leader is not None else 0,
        trick=view.trick_number,
        current=[(seat, c.index) for seat, c in view.current],
        broken=view.hearts_broken,
        points=points,
        penalty=penalty,
        tricks_won=np.tile(tricks_won, (m, 1)),
        bonus_taken=bonus_taken,
        pot=(points_of(view.options, view.pot), sum(1 for c in view.pot if is_penalty_card(c))),
        kitty=(pending, kitty_points, kitty_penalty),
        queens_played=sum(1 for c in played if c.index == sim.QS),
        voids=voids,
        totals=np.asarray(view.totals, dtype=np.int64),
    )
