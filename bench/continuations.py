"""Whether Expert tells its two best cards apart as real play does, and what its card is worth
over another level's.

    python -m bench.continuations [--hands 200] [--table standard-4] [--continuations 2]
                                  [--jobs 1] [--seed 500000] [--log PAIRS.jsonl]
                                  [--against LEVEL]

Expert values a card by the mean of careful play-outs over imagined layouts (`hard.appraise`). A
value learned to correct those play-outs would have to be fitted to what separates two choices
in the same position when the hand is really played on. This measures that difference and how
noisy it is. Hand i (deal `random_deal(options, random.Random(seed + i))`, hand number as in
`bench.strength`, so every pass direction comes in turn) is played with Expert in seat i mod n
and Hard in the others, up to Expert's first play with a choice from a trick drawn at random
(1 to the hand's last but two, from the hand's seed). There Expert weighs its legal cards as it
plays, and its best card A and its second B are each played; from the true layout the hand is
then finished `--continuations` times by Hard in every seat (the k-th time with the same random
numbers after A as after B), and once by the careful habits of the play-outs. Every figure is
Expert's seat's result (the others' mean points minus its own; a fresh game, so that is what
Expert weighs), A's minus B's:

- `real`: the mean over the continuations by Hard;
- `expert`: Expert's own estimate;
- `habits`: the careful play-out from the true layout;
- `real minus expert`: what a correction of Expert's estimate would have to learn, with its
  standard error.

With `--against LEVEL`, B is the card that level would play in Expert's place (the same view
and random numbers), and the pair is Expert's first play from the drawn trick on where the two
differ (Expert plays its own card where they agree): `real` is then what Expert's choice is
worth over that level's, one decision at a time.

One line per kind of play (lead, follow, discard) and per third of the hand, `KIND: N pairs, real
R ± E, expert X, habits H, real minus expert M ± F`, then `noise: one continuation's sd S points,
pairs' sd P`, and the last line for every pair: `continuations: N pairs, real …` as above. The
figures are in bench/results/README.md. `--log` also writes every pair, a JSON object a line
(its hand's index, the trick, the kind, both cards and the three kinds of values), for looking
at other groups.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import multiprocessing
import random
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from app.bots import Level, bot, choose_action, decision_rng, expert, hard, standing
from app.bots import simulator as sim
from app.engine import (
    PASS_CYCLES,
    Card,
    GameState,
    Phase,
    Play,
    apply,
    random_deal,
    to_act,
    view_for,
)
from bench.playouts import careful_playout, stages
from bench.strength import game_at_hand, table_options

CONTINUATION_SEEDS = 7919
"""The k-th continuation's decisions use the hand's seed plus k times this."""


@dataclass(frozen=True, slots=True)
class Pair:
    """Expert's two best cards in one position, and what each was worth."""

    index: int
    """The hand's index."""
    cards: tuple[str, str]
    """A and B."""
    trick: int
    kind: str
    """`lead`, `follow` or `discard` (a follow off the led suit)."""
    expert: tuple[float, float]
    habits: tuple[float, float]
    real: tuple[tuple[float, ...], tuple[float, ...]]
    """Each card's result in every continuation by Hard."""

    def real_difference(self) -> float:
        """A's mean real result minus B's."""
        return statistics.fmean(self.real[0]) - statistics.fmean(self.real[1])


def result(points: Sequence[int], seat: int) -> float:
    """`seat`'s result of a hand: the others' mean points minus its own."""
    row = np.asarray([points], dtype=np.int64)
    return float(standing.hand_values(row)[0, seat])


def finish(state: GameState, seed: int, actions: int) -> tuple[int, ...]:
    """Every seat's points once Hard in every seat has finished the hand of `state`."""
    done = len(state.results)
    while len(state.results) == done:
        seat = to_act(state)[0]
        view = view_for(state, seat)
        state = apply(state, choose_action(view, "hard", decision_rng(seed, actions, seat)))
        actions += 1
    return tuple(state.results[-1].points)


def habits(state: GameState, seat: int) -> float:
    """`seat`'s result of the careful play-out of the rest of the hand from the true layout."""
    points, _ = careful_playout(state, seat)
    return result(points, seat)


def kind_of(state: GameState, card: Card) -> str:
    """Whether `card` would lead, follow or discard."""
    hand = state.hand
    assert hand is not None
    if not hand.current:
        return "lead"
    return "follow" if card.suit is hand.current[0][1].suit else "discard"


def pair(task: tuple[str, int, int, int, str]) -> Pair | None:
    """The pair of hand `index` (None if Expert had no choice from the trick drawn on, or, with
    another level to set against, never chose otherwise than it)."""
    table, seed, index, continuations, against = task
    options = table_options(table)
    n = options.num_players
    me = index % n
    deal = random_deal(options, random.Random(seed + index))
    state = game_at_hand(options, deal, index % len(PASS_CYCLES[options.pass_cycle]) + 1)
    tricks = sim.Rules.of(options).tricks
    first = random.Random(seed + index).randint(1, max(1, tricks - 2))
    done = len(state.results)
    actions = 1
    while len(state.results) == done:
        seat = to_act(state)[0]
        view = view_for(state, seat)
        rng = decision_rng(seed + index, actions, seat)
        choosing = seat == me and state.phase is Phase.PLAY and len(view.legal) > 1
        if choosing and view.trick_number >= first:
            estimates = hard.appraise(view, rng, expert.budget_at(options))
            a, b = sorted(view.legal, key=lambda c: -estimates[c].value)[:2]
            if against:
                b = bot(against).choose_play(view, decision_rng(seed + index, actions, seat))
            if b != a:
                return _continued(
                    state, (a, b), estimates, (index, seed + index, actions), continuations
                )
            state = apply(state, Play(me, a))
            actions += 1
            continue
        level = "expert" if seat == me else "hard"
        state = apply(state, choose_action(view, level, rng))
        actions += 1
    return None


def _continued(
    state: GameState,
    cards: tuple[Card, Card],
    estimates: dict[Card, hard.Estimate],
    where: tuple[int, int, int],
    continuations: int,
) -> Pair:
    """The pair of `cards` in `state` (`where`: the hand's index, its seed and the number of
    the action about to be taken): each played, then the hand finished by Hard in every seat
    `continuations` times and once by the careful habits."""
    index, seed, actions = where
    me = to_act(state)[0]
    after = [apply(state, Play(me, c)) for c in cards]
    real = tuple(
        tuple(
            result(finish(s, seed + CONTINUATION_SEEDS * k, actions + 1), me)
            for k in range(continuations)
        )
        for s in after
    )
    a, b = cards
    return Pair(
        index=index,
        cards=(str(a), str(b)),
        trick=view_for(state, me).trick_number,
        kind=kind_of(state, a),
        expert=(estimates[a].value, estimates[b].value),
        habits=(habits(after[0], me), habits(after[1], me)),
        real=(real[0], real[1]),
    )


def _mean_se(values: Sequence[float]) -> tuple[float, float]:
    """The mean and its standard error."""
    if len(values) < 2:
        return statistics.fmean(values), 0.0
    return statistics.fmean(values), statistics.stdev(values) / len(values) ** 0.5


def summary(pairs: Sequence[Pair]) -> str:
    """The figures of a set of pairs (see the module's docstring)."""
    real = [p.real_difference() for p in pairs]
    mine = [p.expert[0] - p.expert[1] for p in pairs]
    careful = statistics.fmean(p.habits[0] - p.habits[1] for p in pairs)
    real_mean, real_se = _mean_se(real)
    gap_mean, gap_se = _mean_se([r - e for r, e in zip(real, mine, strict=True)])
    return (
        f"{len(pairs)} pairs, real {real_mean:+.2f} ± {real_se:.2f}, expert "
        f"{statistics.fmean(mine):+.2f}, habits {careful:+.2f}, real minus expert "
        f"{gap_mean:+.2f} ± {gap_se:.2f}"
    )


def noise(pairs: Sequence[Pair]) -> str:
    """How noisy one continuation is (the spread of a card's results with other random numbers)
    and the pairs' real differences."""
    spreads = [statistics.variance(each) for p in pairs for each in p.real if len(each) > 1]
    one = statistics.fmean(spreads) ** 0.5 if spreads else 0.0
    real = [p.real_difference() for p in pairs]
    spread = statistics.stdev(real) if len(real) > 1 else 0.0
    return f"noise: one continuation's sd {one:.2f} points, pairs' sd {spread:.2f}"


def main(argv: Sequence[str] | None = None) -> None:
    """Run the benchmark and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200)
    parser.add_argument("--table", default="standard-4")
    parser.add_argument("--continuations", type=int, default=2)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--seed", type=int, default=500_000)
    parser.add_argument("--log")
    parser.add_argument("--against", choices=["", *(level.value for level in Level)], default="")
    args = parser.parse_args(argv)
    if args.continuations < 1:
        raise SystemExit("--continuations must be at least 1")
    hard.warm_up()
    tasks = [
        (args.table, args.seed, i, args.continuations, args.against) for i in range(args.hands)
    ]
    if args.jobs > 1:
        with multiprocessing.Pool(args.jobs) as pool:
            found = pool.map(pair, tasks, chunksize=1)
    else:
        found = [pair(task) for task in tasks]
    pairs = [p for p in found if p is not None]
    if not pairs:
        raise SystemExit("no position with a choice")
    if args.log:
        with open(args.log, "w", encoding="utf-8") as out:
            for p in pairs:
                out.write(json.dumps(dataclasses.asdict(p)) + "\n")
    for kind in ("lead", "follow", "discard"):
        some = [p for p in pairs if p.kind == kind]
        if some:
            print(f"{kind}: {summary(some)}")
    for low, high in stages(sim.Rules.of(table_options(args.table)).tricks):
        some = [p for p in pairs if low <= p.trick <= high]
        if some:
            print(f"tricks {low}-{high}: {summary(some)}")
    print(noise(pairs))
    print(f"continuations: {summary(pairs)}")


if __name__ == "__main__":
    main()
