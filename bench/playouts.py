"""How well the play-outs Hard and Expert imagine predict real play.

    python -m bench.playouts [--hands 200] [--table standard-4] [--level hard] [--jobs 1]
                             [--seed 0]

Hard and Expert value a card by playing the hand out in imagined layouts with the careful
player's habits for every seat (`rollout.careful_policy`). This measures how far those habits
are from the players actually met, with the layout taken out of the question: hand i (i = 0 …
hands−1, deal `random_deal(options, random.Random(seed + i))`, hand number (i mod cycle) + 1 as
in `bench.strength`, so every pass direction comes in turn) is played by `--level` in every
seat; at the start of every trick it is also played out from there by the careful habits in the
true layout, and each seat's points at the end of that play-out are set against the points it
really took:

- the correlation of the play-out's points with the real ones (every seat of every position);
- the mean of the real points minus the play-out's;
- the moons: how often the real hand ended in one, how often the play-outs did, and how often a
  play-out ended in a moon the real hand did not have (false) or missed one it had.

One line per third of the hand, `tricks A-B: N positions, correlation C, real minus play-out M
points, moons real R %, play-outs P %, false F %, missed X %`, and the last line for every
position: `playouts: level L, N positions, correlation C, real minus play-out M points, moons
real R %, play-outs P %, false F %, missed X %`.

With `--level medium` the play-outs are the real play (the habits are Medium's, card for card
but for the few inferences from leads a play-out does not track): a correlation of about 1,
and no moon false or missed (tested). The figures against Hard are in bench/results/README.md.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from app.bots import Level, choose_action, decision_rng, hard
from app.bots import simulator as sim
from app.bots.knowledge import know
from app.bots.rollout import careful_policy
from app.bots.sampler import World
from app.engine import PASS_CYCLES, GameState, Phase, apply, random_deal, to_act, view_for
from bench.strength import game_at_hand, table_options


def stages(tricks: int) -> list[tuple[int, int]]:
    """The thirds of a hand of `tricks` tricks, reported apart: the first and last trick of
    each, by the number of the trick about to start (1–4, 5–8 and 9–13 in a hand of 13)."""
    first, second = tricks // 3, 2 * tricks // 3
    return [(1, first), (first + 1, second), (second + 1, tricks)]


@dataclass(frozen=True, slots=True)
class Position:
    """The start of a trick of a real hand: its number, every seat's real points at the end of
    the hand and its points at the end of the careful play-out from there, and whether each
    ended in a moon."""

    trick: int
    real: tuple[int, ...]
    playout: tuple[int, ...]
    real_moon: bool
    playout_moon: bool
    hands: tuple[tuple[int, ...], ...]
    """Every seat's cards as the trick starts (card indexes, ascending)."""
    leader: int
    """The seat that leads the trick."""
    taken: tuple[int, ...]
    """Every seat's points taken before the trick."""


def careful_playout(state: GameState, seat: int) -> tuple[tuple[int, ...], bool]:
    """Every seat's points once the careful habits have played out the rest of the hand of
    `state` from the true layout (as `seat` sees the hand so far), and whether it ended in a
    moon."""
    hand = state.hand
    assert hand is not None
    view = view_for(state, seat)
    kitty = () if hand.kitty_settled else hand.kitty
    world = World(hands=hand.hands, kitty=kitty, passes=(None,) * len(hand.hands))
    batch = hard._batch(view, know(view), sim.Rules.of(view.options), [world])
    sim.play_out(batch, careful_policy, np.random.default_rng(0))
    points = sim.hand_points(batch, np.asarray(view.totals, dtype=np.int64)[None, :])[0]
    return tuple(int(p) for p in points), bool(sim.shooters(batch)[0] >= 0)


def play(task: tuple[str, str, int, int]) -> list[Position]:
    """Play hand `index` with `level` in every seat; the positions at the start of its tricks."""
    table, level, seed, index = task
    options = table_options(table)
    deal = random_deal(options, random.Random(seed + index))
    state = game_at_hand(options, deal, index % len(PASS_CYCLES[options.pass_cycle]) + 1)
    starts: list[
        tuple[int, tuple[int, ...], bool, tuple[tuple[int, ...], ...], int, tuple[int, ...]]
    ] = []
    done = len(state.results)
    actions = 1
    while len(state.results) == done:
        hand = state.hand
        assert hand is not None
        if state.phase is Phase.PLAY and not hand.current:
            view = view_for(state, hand.leader)
            out, moon = careful_playout(state, hand.leader)
            held = tuple(tuple(sorted(c.index for c in h)) for h in hand.hands)
            taken = tuple(know(view).points_taken)
            starts.append((view.trick_number, out, moon, held, hand.leader, taken))
        seat = to_act(state)[0]
        view = view_for(state, seat)
        state = apply(state, choose_action(view, level, decision_rng(seed + index, actions, seat)))
        actions += 1
    result = state.results[-1]
    real, real_moon = tuple(result.points), result.shooter is not None
    return [
        Position(trick, real, out, real_moon, moon, held, leader, taken)
        for trick, out, moon, held, leader, taken in starts
    ]


def summary(positions: Sequence[Position]) -> str:
    """The figures of a set of positions (see the module's docstring)."""
    real = [p for pos in positions for p in pos.real]
    imagined = [p for pos in positions for p in pos.playout]
    both = len(real) > 1 and statistics.pstdev(real) > 0 and statistics.pstdev(imagined) > 0
    correlation = statistics.correlation(real, imagined) if both else 1.0
    gap = statistics.fmean(r - i for r, i in zip(real, imagined, strict=True))
    count = len(positions)
    real_moons = [pos.real_moon for pos in positions]
    imagined_moons = [pos.playout_moon for pos in positions]
    false = sum(i and not r for r, i in zip(real_moons, imagined_moons, strict=True))
    missed = sum(r and not i for r, i in zip(real_moons, imagined_moons, strict=True))

    def share(k: int) -> str:
        return f"{100 * k / count:.1f} %"

    return (
        f"{count} positions, correlation {correlation:.3f}, real minus play-out {gap:+.2f} "
        f"points, moons real {share(sum(real_moons))}, play-outs {share(sum(imagined_moons))}, "
        f"false {share(false)}, missed {share(missed)}"
    )


def main(argv: Sequence[str] | None = None) -> None:
    """Run the benchmark and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200)
    parser.add_argument("--table", default="standard-4")
    parser.add_argument("--level", choices=[level.value for level in Level], default="hard")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    hard.warm_up()
    tasks = [(args.table, args.level, args.seed, i) for i in range(args.hands)]
    if args.jobs > 1:
        with multiprocessing.Pool(args.jobs) as pool:
            hands = pool.map(play, tasks, chunksize=1)
    else:
        hands = [play(task) for task in tasks]
    positions = [pos for hand in hands for pos in hand]
    for low, high in stages(sim.Rules.of(table_options(args.table)).tricks):
        stage = [pos for pos in positions if low <= pos.trick <= high]
        if stage:
            print(f"tricks {low}-{high}: {summary(stage)}")
    print(f"playouts: level {args.level}, {summary(positions)}")


if __name__ == "__main__":
    main()
