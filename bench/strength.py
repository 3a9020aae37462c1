"""Playing strength of one bot level against another, by duplicate deals.

    python -m bench.strength [--deals 200] [--table standard-4]
                             [--pairs medium-vs-easy,hard-vs-medium] [--jobs 1] [--seed 0]
    python -m bench.strength --pairs expert-vs-hard --deals 2000 --jobs 2
    python -m bench.strength --pairs expert-vs-hard --games 500 --jobs 2

Any two levels make a pair (easy, medium, hard, expert); the default pairs are the two whose
figures take minutes, not hours.

For a pair "T-vs-O" and a table, deal i (i = 0 … deals−1) is `random_deal(options,
random.Random(seed + i))`. That one hand is played n times (n = seats): in playing j the tested
level T sits in seat j and the other level O in every other seat; everything else is identical.

How a deal is played: a fresh game (totals 0) whose hand number is (i mod cycle) + 1, where cycle
is the length of the options' pass cycle (4 for LRAH, 2 for LR), so the deals rotate through every
pass direction and the dealer moves as in a real game (this matters for Cancellation's first lead,
R34). The hand number is set by placing a finished placeholder hand numbered (i mod cycle) before
the deal; the bots' views show only the hand number and the pass direction of it, and totals 0.

Every decision is `choose_action(view_for(state, seat), level, decision_rng(seed + i,
action_number, seat))`, where action_number counts the actions applied to the game so far (the
deal is action 0), so T and O see the same random streams seat for seat in every playing.

For each deal: T's points per hand (mean over its n seatings), the opponents' mean (over all O
seats of all seatings) and D = opponents' mean − T's points. A pair's line reports the means and
D ± the 95 % half-width 1.96 × sd(D) / sqrt(deals). The last line reads
`strength: medium-vs-easy D1 ± C1, hard-vs-medium D2 ± C2 points/hand` (`n/a` for a pair not run).

`--record` writes each pair's figures, with today's date, into the figures the Fair play page
shows (`app/services/strength.json`), replacing that pair's earlier figures for the table.

With `--games N`, whole games are played instead of single deals: in game i the tested level
sits in seat i mod n and the other level in every other seat, the game is played from totals 0
to its end (its deals from `random.Random(seed + i)`, decisions seeded as above), and the line
reads `T-vs-O table: N games, won W (X % ± h), parity P %`: a shared win counts as its share, and
parity is 1/n, what an equal player would win.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import multiprocessing
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime
from pathlib import Path

from app.bots import Level, choose_action, decision_rng
from app.engine import (
    PASS_CYCLES,
    Deal,
    GameState,
    Phase,
    RuleOptions,
    apply,
    new_game,
    random_deal,
    to_act,
    view_for,
)
from bench.tables import parse_table

PAIRS = ("medium-vs-easy", "hard-vs-medium")
FIGURES = Path(__file__).resolve().parents[1] / "app" / "services" / "strength.json"
"""The measured figures the Fair play page shows (`--record` writes them)."""
LEVELS = tuple(level.value for level in Level)


def table_options(name: str) -> RuleOptions:
    """The options of a table name (`bench.tables.parse_table`): `standard-N` and `omnibus-N`
    (3–7 seats), `cancellation-N` (6–11); anything else ends the program."""
    try:
        options = parse_table(name)
    except ValueError:
        raise SystemExit(f"unknown table {name!r}") from None
    low, high = (6, 11) if options.is_cancellation else (3, 7)
    if not low <= options.num_players <= high:
        raise SystemExit(f"unknown table {name!r}")
    return options


def parse_pair(name: str) -> tuple[str, str]:
    """`"medium-vs-easy"` -> `("medium", "easy")`."""
    tested, sep, other = name.partition("-vs-")
    if not sep or tested not in LEVELS or other not in LEVELS:
        raise SystemExit(f"unknown pair {name!r}")
    return tested, other


def game_at_hand(options: RuleOptions, deal: Deal, hand_number: int) -> GameState:
    """A fresh game (totals 0) with `deal` applied as hand `hand_number`."""
    state = new_game(options)
    if hand_number > 1:
        dealt = apply(state, deal)
        assert dealt.hand is not None
        placeholder = dataclasses.replace(dealt.hand, number=hand_number - 1)
        state = dataclasses.replace(state, hand=placeholder)
    return apply(state, deal)


def play_game(task: tuple[str, str, str, int, int]) -> float:
    """Play game `index` to its end with the tested level in seat index mod n; its share of
    the win (1, a fraction for a shared win, or 0)."""
    table, tested, other, seed, index = task
    options = table_options(table)
    n = options.num_players
    seat_of_tested = index % n
    levels = [tested if s == seat_of_tested else other for s in range(n)]
    deals = random.Random(seed + index)
    state = new_game(options)
    actions = 0
    while not state.is_over:
        if state.phase is Phase.DEAL:
            state = apply(state, random_deal(options, deals))
        else:
            seat = to_act(state)[0]
            rng = decision_rng(seed + index, actions, seat)
            state = apply(state, choose_action(view_for(state, seat), levels[seat], rng))
        actions += 1
    winners = state.winners
    return 1 / len(winners) if seat_of_tested in winners else 0.0


def run_games(pair: str, table: str, games: int, jobs: int, seed: int) -> list[float]:
    """Play every game of one pair, in `jobs` processes, printing sparse progress to stderr."""
    tested, other = parse_pair(pair)
    tasks = [(table, tested, other, seed, i) for i in range(games)]
    shares: list[float] = []
    step = max(1, games // 10)
    start = time.perf_counter()
    with multiprocessing.Pool(max(1, jobs)) as pool:
        for share in pool.imap(play_game, tasks):
            shares.append(share)
            if len(shares) % step == 0 or len(shares) == games:
                elapsed = time.perf_counter() - start
                print(f"  {pair}: {len(shares)}/{games} games, {elapsed:.0f} s", file=sys.stderr)
    return shares


def play_hand(state: GameState, levels: Sequence[str], game_seed: int) -> tuple[int, ...]:
    """Play the dealt hand to its end with a level per seat; return the hand points."""
    actions = 1  # the deal
    while state.phase in (Phase.PASS, Phase.PLAY, Phase.MOON_CHOICE):
        seat = to_act(state)[0]
        rng = decision_rng(game_seed, actions, seat)
        state = apply(state, choose_action(view_for(state, seat), levels[seat], rng))
        actions += 1
    return state.results[-1].points


@dataclass(frozen=True, slots=True)
class DealResult:
    """One deal played with the tested level in every seat in turn."""

    tested: float
    """The tested level's mean points per hand over its n seatings."""
    others: float
    """The other level's mean points per hand over all its seats and seatings."""

    @property
    def difference(self) -> float:
        """D = opponents' mean − tested points (positive: the tested level is stronger)."""
        return self.others - self.tested


def play_deal(task: tuple[str, str, str, int, int]) -> DealResult:
    """Play deal `index` n times, the tested level in seat j of playing j."""
    table, tested, other, seed, index = task
    options = table_options(table)
    n = options.num_players
    deal = random_deal(options, random.Random(seed + index))
    hand_number = index % len(PASS_CYCLES[options.pass_cycle]) + 1
    start = game_at_hand(options, deal, hand_number)
    mine: list[int] = []
    theirs: list[int] = []
    for j in range(n):
        levels = [tested if s == j else other for s in range(n)]
        hand_points = play_hand(start, levels, seed + index)
        mine.append(hand_points[j])
        theirs.extend(p for s, p in enumerate(hand_points) if s != j)
    return DealResult(sum(mine) / len(mine), sum(theirs) / len(theirs))


@dataclass(frozen=True, slots=True)
class PairResult:
    """The summary of a pair over all deals."""

    tested: float
    others: float
    difference: float
    half_width: float


def summarise(results: Sequence[DealResult]) -> PairResult:
    """Means and the 95 % confidence half-width of D."""
    count = len(results)
    diffs = [r.difference for r in results]
    mean_d = sum(diffs) / count
    var = sum((d - mean_d) ** 2 for d in diffs) / (count - 1) if count > 1 else 0.0
    return PairResult(
        tested=sum(r.tested for r in results) / count,
        others=sum(r.others for r in results) / count,
        difference=mean_d,
        half_width=1.96 * math.sqrt(var) / math.sqrt(count),
    )


def run_pair(pair: str, table: str, deals: int, jobs: int, seed: int) -> PairResult:
    """Play every deal of one pair, in `jobs` processes, printing sparse progress to stderr."""
    tested, other = parse_pair(pair)
    tasks = [(table, tested, other, seed, i) for i in range(deals)]
    results: list[DealResult] = []
    step = max(1, deals // 10)
    start = time.perf_counter()

    def progress() -> None:
        if len(results) % step == 0 or len(results) == deals:
            elapsed = time.perf_counter() - start
            print(f"  {pair}: {len(results)}/{deals} deals, {elapsed:.0f} s", file=sys.stderr)

    if jobs <= 1:
        for task in tasks:
            results.append(play_deal(task))
            progress()
    else:
        with multiprocessing.Pool(jobs) as pool:
            for result in pool.imap(play_deal, tasks, chunksize=4):
                results.append(result)
                progress()
    return summarise(results)


def record_figures(rows: list[dict[str, object]], measured: date, path: Path = FIGURES) -> None:
    """Put `rows` (one per pair and table, measured on `measured`) into the figures file, in
    place of earlier figures of the same pair and table."""
    known = json.loads(path.read_text()) if path.exists() else {"pairs": []}
    fresh = {(row["pair"], row["table"]) for row in rows}
    kept = [row for row in known["pairs"] if (row["pair"], row["table"]) not in fresh]
    added = [{**row, "measured": measured.isoformat()} for row in rows]
    known["pairs"] = sorted(kept + added, key=lambda row: (str(row["table"]), str(row["pair"])))
    path.write_text(json.dumps(known, indent=2) + "\n")


def main(argv: Sequence[str] | None = None) -> None:
    """Run the requested pairs and print one line per pair, then the summary line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--table", default="standard-4")
    parser.add_argument("--pairs", default=",".join(PAIRS))
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--games", type=int, default=0, help="play whole games, not deals")
    parser.add_argument(
        "--record", action="store_true", help="record the figures for the Fair play page"
    )
    args = parser.parse_args(argv)
    table_options(args.table)  # validate early
    pairs = [p.strip() for p in args.pairs.split(",") if p.strip()]
    for pair in pairs:
        parse_pair(pair)
    if args.deals < 1 or args.games < 0:
        raise SystemExit("--deals must be at least 1 and --games at least 0")
    if args.games:
        n = table_options(args.table).num_players
        for pair in pairs:
            shares = run_games(pair, args.table, args.games, args.jobs, args.seed)
            rate = sum(shares) / len(shares)
            half = 1.96 * math.sqrt(rate * (1 - rate) / len(shares))
            print(
                f"{pair} {args.table}: {len(shares)} games, won {sum(shares):g} "
                f"({100 * rate:.1f} % ± {100 * half:.1f}), parity {100 / n:.1f} %",
                flush=True,
            )
        return
    summary: dict[str, PairResult] = {}
    for pair in pairs:
        result = run_pair(pair, args.table, args.deals, args.jobs, args.seed)
        summary[pair] = result
        print(
            f"{pair} {args.table}: {args.deals} deals, tested {result.tested:.2f} points/hand, "
            f"opponents {result.others:.2f}, D {result.difference:.2f} ± {result.half_width:.2f}",
            flush=True,
        )

    if args.record:
        rows = [
            {"pair": pair, "table": args.table, "deals": args.deals, **dataclasses.asdict(r)}
            for pair, r in summary.items()
        ]
        record_figures(rows, datetime.now(UTC).date())

    def cell(pair: str) -> str:
        r = summary.get(pair)
        return "n/a" if r is None else f"{r.difference:.2f} ± {r.half_width:.2f}"

    print(
        f"strength: medium-vs-easy {cell('medium-vs-easy')}, "
        f"hard-vs-medium {cell('hard-vs-medium')}, "
        f"expert-vs-hard {cell('expert-vs-hard')} points/hand"
    )


if __name__ == "__main__":
    main()
