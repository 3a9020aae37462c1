"""A computer player's thinking time per decision, on one core (Hard's by default; a hint's, or
a review's).

    python -m bench.think [--positions 200] [--table standard-4] [--seed 1]
                          [--level hard|expert] [--hint | --review]

Positions come from games played by Medium players: passes, leads, follows (holding the led
suit) and discards (void in it), a quarter of each. Forced plays (one legal card) are not
counted: they take no thought. Each decision runs the level (`--level`: Hard or Expert) with its
default budget in this process, pinned to one CPU where the system allows it. Targets: Hard
median 300 ms; Expert median 300 ms and p95 1 s at four seats, p95 1.5 s at eight and eleven.
With `--hint` each decision is the coach's advice instead (`app.bots.coach.advise`: Hard's
choice, the expected points of the best choices and the reason), forced plays included, since
a player may ask for a hint at any turn; targets: median 300 ms, p95 1 s. With `--review` each
decision is the weighing of the Medium player's choice there (`app.bots.coach.assess`), as the
review of a hand weighs each of the player's decisions; a hand's review costs the sum over its
decisions (a pass and 13 cards at four seats).
The last line reads `think: median X ms, p95 Y ms` (`hint: …`, `review: …`).
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import time

from app.bots import Level, bot, choose_action, coach, decision_rng
from app.engine import (
    Card,
    GameState,
    Pass,
    Phase,
    Play,
    PlayerView,
    apply,
    new_game,
    random_deal,
    to_act,
    view_for,
)
from bench.tables import parse_table

KINDS = ("pass", "lead", "follow", "discard")


def kind_of(view: PlayerView, forced: bool = False) -> str | None:
    """Which kind of decision a view asks for; None for a forced play (unless `forced`)."""
    if view.phase is Phase.PASS:
        return "pass"
    if len(view.legal) < 2 and not forced:
        return None
    if not view.current:
        return "lead"
    led = view.current[0][1].suit
    return "follow" if any(c.suit is led for c in view.hand) else "discard"


def positions(
    table: str, wanted: int, seed: int, forced: bool = False
) -> dict[str, list[PlayerView]]:
    """Views of each kind from Medium games, `wanted / 4` of each (forced plays among them if
    `forced`)."""
    options = parse_table(table)
    per_kind = max(1, wanted // len(KINDS))
    found: dict[str, list[PlayerView]] = {k: [] for k in KINDS}
    rng = random.Random(seed)
    game = 0
    state: GameState = new_game(options)
    while any(len(v) < per_kind for v in found.values()):
        if state.is_over:
            game += 1
            state = new_game(options)
        if state.phase is Phase.DEAL:
            state = apply(state, random_deal(options, rng))
            continue
        seat = to_act(state)[0]
        view = view_for(state, seat)
        kind = kind_of(view, forced)
        if kind is not None and len(found[kind]) < per_kind and rng.random() < 0.5:
            found[kind].append(view)
        state = apply(state, choose_action(view, Level.MEDIUM, decision_rng(game, 0, seat)))
    return found


def medium_choice(view: PlayerView, seed: int, i: int) -> tuple[Card, ...]:
    """The Medium player's pass or card in `view`: the decision a review weighs."""
    action = choose_action(view, Level.MEDIUM, decision_rng(seed, -1 - i, view.seat))
    if isinstance(action, Pass):
        return tuple(action.cards)
    assert isinstance(action, Play)
    return (action.card,)


def main() -> None:
    """Run the benchmark and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--table", default="standard-4")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--level", choices=("hard", "expert"), default="hard")
    what = parser.add_mutually_exclusive_group()
    what.add_argument("--hint", action="store_true", help="time the hint (the coach's advice)")
    what.add_argument("--review", action="store_true", help="time a review's weighing")
    args = parser.parse_args()
    label = "hint" if args.hint else "review" if args.review else "think"
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else "?"
    print(
        f"python {platform.python_version()} on {platform.machine()}, one process on {cpus} CPU, "
        f"{args.table}, {label}" + ("" if args.hint or args.review else f" ({args.level})")
    )
    player = bot(args.level)
    found = positions(args.table, args.positions, args.seed, forced=args.hint or args.review)
    times: dict[str, list[float]] = {k: [] for k in KINDS}
    for kind, views in found.items():
        for i, view in enumerate(views):
            rng = decision_rng(args.seed, i, view.seat)
            made = medium_choice(view, args.seed, i) if args.review else ()
            start = time.perf_counter()
            if args.hint:
                coach.advise(view, rng)
            elif args.review:
                coach.assess(view, made, rng)
            elif kind == "pass":
                player.choose_pass(view, rng)
            else:
                player.choose_play(view, rng)
            times[kind].append((time.perf_counter() - start) * 1000)
    everything = sorted(t for ts in times.values() for t in ts)
    for kind in KINDS:
        ts = sorted(times[kind])
        print(
            f"{kind}: {len(ts)} positions, median {statistics.median(ts):.1f} ms, "
            f"max {ts[-1]:.1f} ms"
        )
    p95 = everything[min(len(everything) - 1, int(0.95 * len(everything)))]
    print(f"{label}: median {statistics.median(everything):.0f} ms, p95 {p95:.0f} ms")


if __name__ == "__main__":
    main()
