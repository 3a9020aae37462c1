"""Playing strength of one bot level against another, by duplicate deals.

    python -m bench.strength [--deals 200] [--table standard-4]
                             [--pairs medium-vs-easy,hard-vs-medium] [--jobs 1] [--seed 0]
    python -m bench.strength --pairs expert-vs-hard --deals 2000 --jobs 2
    python -m bench.strength --pairs expert-vs-hard --games 500 --jobs 2
    python -m bench.strength --compare new.jsonl bench/results/expert-vs-hard-standard-4.jsonl
    python -m bench.strength --moons bench/results/expert-vs-hard-standard-4-v6.jsonl

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
parity is 1/n, what an equal player would win. With `--record`, the share won (and its
half-width) goes into the same file's games, in place of that pair's earlier games at the table.

`--log FILE` keeps a run that takes hours across interruptions: each deal's (or game's) result
is appended to FILE (JSON lines) as soon as it is known, and a run given an existing log plays
only the deals it lacks. The log's first line names the pair, the table, the seed, the mode and
a fingerprint of the code a result depends on (the engine and the bots, data included); a log
made by other code or settings is refused rather than mixed in. Logs of runs that take more
than a session are kept in `bench/results/`.

`--compare LOG BASE` reads two logs of the same pair, table and seed, made by different code (a
change to a level, and the code before it), and prints both D over the deals they have in common
and the change's effect paired deal by deal: `compare: N deals in common (K with the same
result), D A ± a against B ± b, difference X ± x points/hand`. Pairing removes each deal's own
luck, so the interval of the difference is narrower than either D's.

`--moons LOG` reads the shooters a log of deals names for each playing (logged since
2026-12-04) and prints how often each level shot the moon: `moons: N deals, the tested level shot
the moon in X % of its hands, the other level in Y % of its hands in the same seats; a moon against
the tested level in Z % of its hands`.

`--carry LOG [--check K]` keeps a log across a change that cannot alter its results (a change to
a table the log does not play, say): it plays K of the log's deals (or games) again, spread over
the log, with today's code, and only if every result is identical to the logged one does it
stamp the log with today's fingerprint (noting the old one and the check under `carried`), so
that the run can be resumed; one differing result leaves the log as it was. It prints
`carry: K of K identical, LOG now code X (was Y)`.
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import hashlib
import json
import math
import multiprocessing
import random
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime
from pathlib import Path
from typing import TypeVar

from app.bots import Level, choose_action, decision_rng
from app.engine import (
    PASS_CYCLES,
    Action,
    Deal,
    GameState,
    HandResult,
    Phase,
    PlayerView,
    RuleOptions,
    apply,
    new_game,
    random_deal,
    to_act,
    view_for,
)
from app.services.fairplay import FIGURES, listing_order
from bench.tables import parse_table

PAIRS = ("medium-vs-easy", "hard-vs-medium")
LEVELS = tuple(level.value for level in Level)
APP = Path(__file__).resolve().parents[1] / "app"
T = TypeVar("T")
FINGERPRINTED = ("engine", "bots")
"""The packages (under `app/`) whose code and data decide every result of a run."""


def code_fingerprint(root: Path = APP) -> str:
    """A digest of every file of the engine and the bots (paths and contents)."""
    digest = hashlib.sha256()
    for package in FINGERPRINTED:
        for path in sorted((root / package).rglob("*")):
            if path.is_file() and path.suffix in (".py", ".json"):
                digest.update(path.relative_to(root).as_posix().encode() + b"\0")
                digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


class ResultLog:
    """The results of one run so far, appended to a JSON-lines file one task at a time."""

    def __init__(self, path: Path | None, header: dict[str, object]) -> None:
        self.path = path
        self.done: dict[int, list[float]] = {}
        if path is None:
            return
        if path.exists() and path.stat().st_size:
            lines = path.read_text().splitlines()
            if _without_carries(json.loads(lines[0])) != header:
                raise SystemExit(
                    f"{path} was made by other code or settings ({lines[0]}); "
                    "remove it or give another --log"
                )
            kept = lines[:1]
            for line in lines[1:]:
                row = _result_row(line)
                if row is None:
                    continue  # a line cut short when a run was stopped: that task runs again
                self.done[row[0]] = row[1]
                kept.append(line)
            path.write_text("\n".join(kept) + "\n")
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(header) + "\n")

    def add(
        self, index: int, values: Sequence[float], extra: dict[str, object] | None = None
    ) -> None:
        """Remember task `index`'s result, and append it to the file at once (with `extra`
        facts of the task, kept in the file only)."""
        self.done[index] = list(values)
        if self.path is not None:
            with self.path.open("a") as file:
                row = {"i": index, "r": list(values), **(extra or {})}
                file.write(json.dumps(row) + "\n")


def _without_carries(header: dict[str, object]) -> dict[str, object]:
    """A log's header as a run compares it: what it depends on, without the carries' history."""
    return {key: value for key, value in header.items() if key != "carried"}


def _result_row(line: str) -> tuple[int, list[float]] | None:
    """A log line's task index and result (None for a line cut short)."""
    try:
        row = json.loads(line)
        return int(row["i"]), [float(v) for v in row["r"]]
    except (ValueError, KeyError, TypeError):
        return None


def log_header(mode: str, pair: str, table: str, seed: int) -> dict[str, object]:
    """What a result of a log depends on."""
    return {"mode": mode, "pair": pair, "table": table, "seed": seed, "code": code_fingerprint()}


Task = tuple[str, str, str, int, int]
"""(table, tested level, other level, seed, index)."""


def _indexed(worker: Callable[[Task], T], task: Task) -> tuple[int, T]:
    """Run one task in a worker process: its index and result."""
    return task[-1], worker(task)


def _run_tasks(
    worker: Callable[[Task], T],
    tasks: list[Task],
    jobs: int,
    record: Callable[[int, T], None],
    label: str,
) -> None:
    """Run `tasks` in `jobs` processes (in order, or as they finish), passing each result to
    `record` as soon as it is known; sparse progress on stderr."""
    step = max(1, len(tasks) // 10)
    start = time.perf_counter()
    for count, (index, result) in enumerate(_results(worker, tasks, jobs), start=1):
        record(index, result)
        if count % step == 0 or count == len(tasks):
            elapsed = time.perf_counter() - start
            print(f"  {label}: {count}/{len(tasks)}, {elapsed:.0f} s", file=sys.stderr, flush=True)


def _results(worker: Callable[[Task], T], tasks: list[Task], jobs: int) -> Iterator[tuple[int, T]]:
    run = functools.partial(_indexed, worker)
    if jobs <= 1:
        yield from map(run, tasks)
        return
    with multiprocessing.Pool(jobs) as pool:
        yield from pool.imap_unordered(run, tasks)


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


def play_game(task: Task) -> float:
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


def run_games(
    pair: str, table: str, games: int, jobs: int, seed: int, log_path: Path | None = None
) -> list[float]:
    """Every game's share of the win for one pair (those in the log kept, the others played in
    `jobs` processes and logged)."""
    tested, other = parse_pair(pair)
    log = ResultLog(log_path, log_header("games", pair, table, seed))
    tasks = [(table, tested, other, seed, i) for i in range(games) if i not in log.done]
    _run_tasks(play_game, tasks, jobs, lambda i, share: log.add(i, [share]), f"{pair} games")
    return [log.done[i][0] for i in range(games)]


Decisions = dict[tuple[str, int, PlayerView], Action]
"""Decisions already taken in a deal's other playings, by level, action number and view."""


def play_hand(
    state: GameState, levels: Sequence[str], game_seed: int, known: Decisions | None = None
) -> HandResult:
    """Play the dealt hand to its end with a level per seat; return its result.

    A decision is a function of the level, the seat's view and the random stream (seeded by the
    action number and the seat, which the view names): so a decision found in `known` (taken
    by the same level in the same view at the same point of another playing of the deal: the
    other level's passes, and every decision before the playings diverge) is reused, and every new
    one is added."""
    known = {} if known is None else known
    actions = 1  # the deal
    while state.phase in (Phase.PASS, Phase.PLAY, Phase.MOON_CHOICE):
        seat = to_act(state)[0]
        view = view_for(state, seat)
        key = (levels[seat], actions, view)
        action = known.get(key)
        if action is None:
            action = choose_action(view, levels[seat], decision_rng(game_seed, actions, seat))
            known[key] = action
        state = apply(state, action)
        actions += 1
    return state.results[-1]


@dataclass(frozen=True, slots=True)
class DealResult:
    """One deal played with the tested level in every seat in turn."""

    tested: float
    """The tested level's mean points per hand over its n seatings."""
    others: float
    """The other level's mean points per hand over all its seats and seatings."""
    moons: tuple[int, ...] = ()
    """Who shot the moon in each playing (-1: nobody); in playing j the tested level sits in
    seat j. Logged, for `--moons`; empty for results read from a log made before."""

    @property
    def difference(self) -> float:
        """D = opponents' mean − tested points (positive: the tested level is stronger)."""
        return self.others - self.tested


def play_deal(task: Task) -> DealResult:
    """Play deal `index` n times, the tested level in seat j of playing j."""
    table, tested, other, seed, index = task
    options = table_options(table)
    n = options.num_players
    deal = random_deal(options, random.Random(seed + index))
    hand_number = index % len(PASS_CYCLES[options.pass_cycle]) + 1
    start = game_at_hand(options, deal, hand_number)
    mine: list[int] = []
    theirs: list[int] = []
    moons: list[int] = []
    known: Decisions = {}
    for j in range(n):
        levels = [tested if s == j else other for s in range(n)]
        result = play_hand(start, levels, seed + index, known)
        mine.append(result.points[j])
        theirs.extend(p for s, p in enumerate(result.points) if s != j)
        moons.append(-1 if result.shooter is None else result.shooter)
    return DealResult(sum(mine) / len(mine), sum(theirs) / len(theirs), tuple(moons))


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
    mean_d, half_width = mean_and_half_width([r.difference for r in results])
    return PairResult(
        tested=sum(r.tested for r in results) / count,
        others=sum(r.others for r in results) / count,
        difference=mean_d,
        half_width=half_width,
    )


def mean_and_half_width(values: Sequence[float]) -> tuple[float, float]:
    """The mean and its 95 % half-width, 1.96 × sd / sqrt(n) (0 for a single value)."""
    count = len(values)
    mean = sum(values) / count
    var = sum((v - mean) ** 2 for v in values) / (count - 1) if count > 1 else 0.0
    return mean, 1.96 * math.sqrt(var) / math.sqrt(count)


def run_pair(
    pair: str, table: str, deals: int, jobs: int, seed: int, log_path: Path | None = None
) -> PairResult:
    """Every deal of one pair (those in the log kept, the others played in `jobs` processes and
    logged), summarised."""
    tested, other = parse_pair(pair)
    log = ResultLog(log_path, log_header("deals", pair, table, seed))
    tasks = [(table, tested, other, seed, i) for i in range(deals) if i not in log.done]

    def record(index: int, result: DealResult) -> None:
        log.add(index, [result.tested, result.others], {"moons": list(result.moons)})

    _run_tasks(play_deal, tasks, jobs, record, f"{pair} deals")
    return summarise([DealResult(log.done[i][0], log.done[i][1]) for i in range(deals)])


def spread(indices: Sequence[int], count: int) -> list[int]:
    """`count` of `indices` (sorted), spread evenly from the first to the last."""
    ordered = sorted(indices)
    if count >= len(ordered):
        return ordered
    if count == 1:
        return ordered[:1]
    return sorted({ordered[round(j * (len(ordered) - 1) / (count - 1))] for j in range(count)})


def carry_log(path: Path, check: int, jobs: int) -> tuple[int, int, str, str]:
    """Play `check` of the log's deals (or games) again with today's code and, if every result
    is the logged one, stamp the log with today's fingerprint. (identical, checked, old code,
    new code); the log is rewritten only when all were identical."""
    header, done = read_log(path)
    old, new = str(header.get("code")), code_fingerprint()
    if check < 1 or not done:
        raise SystemExit("--check must be at least 1, and the log must hold results")
    mode, pair, table, seed = (
        header["mode"],
        str(header["pair"]),
        str(header["table"]),
        header["seed"],
    )
    if mode not in ("deals", "games") or not isinstance(seed, int):
        raise SystemExit(f"{path} is not a log of deals or games")
    tested, other = parse_pair(pair)
    chosen = spread(list(done), check)
    tasks = [(table, tested, other, seed, i) for i in chosen]
    replayed: dict[int, list[float]] = {}

    def record(index: int, result: DealResult | float) -> None:
        replayed[index] = (
            [result.tested, result.others] if isinstance(result, DealResult) else [result]
        )

    worker: Callable[[Task], DealResult | float] = play_deal if mode == "deals" else play_game
    _run_tasks(worker, tasks, jobs, record, f"{pair} check")
    identical = sum(1 for i in chosen if replayed[i] == done[i])
    if identical == len(chosen) and old != new:
        carried = header.get("carried")
        carries = list(carried) if isinstance(carried, list) else []
        carries.append({"from": old, "checked": len(chosen)})
        lines = path.read_text().splitlines()
        lines[0] = json.dumps({**header, "code": new, "carried": carries})
        path.write_text("\n".join(lines) + "\n")
    return identical, len(chosen), old, new


@dataclass(frozen=True, slots=True)
class Comparison:
    """Two logs of the same deals, each made by its version of the code, deal by deal."""

    deals: int
    """Deals both logs hold."""
    first: PairResult
    second: PairResult
    difference: float
    """The first log's D minus the second's, over the same deals."""
    half_width: float
    """The 95 % half-width of that difference, paired deal by deal (the same deal's luck
    cancels)."""
    identical: int
    """Deals with the same result in both (every decision likely the same)."""


def read_log(path: Path) -> tuple[dict[str, object], dict[int, list[float]]]:
    """A log's header and its results by task index (a line cut short is skipped)."""
    lines = path.read_text().splitlines()
    if not lines:
        raise SystemExit(f"{path} is empty")
    rows = [row for row in map(_result_row, lines[1:]) if row is not None]
    return json.loads(lines[0]), dict(rows)


def compare_logs(first: Path, second: Path) -> Comparison:
    """Compare two deal logs of the same pair, table and seed (by any code): the way to tell
    whether a change to a level made it stronger, paired deal by deal."""
    (head_a, a), (head_b, b) = read_log(first), read_log(second)
    for key in ("mode", "pair", "table", "seed"):
        if head_a.get(key) != head_b.get(key):
            raise SystemExit(f"the logs differ in {key}: {head_a.get(key)} and {head_b.get(key)}")
    if head_a.get("mode") != "deals":
        raise SystemExit("only logs of deals are compared")
    common = sorted(set(a) & set(b))
    if len(common) < 2:
        raise SystemExit("the logs have fewer than two deals in common")
    first_results = [DealResult(a[i][0], a[i][1]) for i in common]
    second_results = [DealResult(b[i][0], b[i][1]) for i in common]
    mean, half_width = mean_and_half_width(
        [x.difference - y.difference for x, y in zip(first_results, second_results, strict=True)]
    )
    return Comparison(
        deals=len(common),
        first=summarise(first_results),
        second=summarise(second_results),
        difference=mean,
        half_width=half_width,
        identical=sum(1 for i in common if a[i] == b[i]),
    )


@dataclass(frozen=True, slots=True)
class Moons:
    """How often each level shot the moon in a log of deals (`--moons`)."""

    deals: int
    tested: float
    """The share of the tested level's hands in which it shot the moon."""
    other: float
    """The share of the other level's hands, in the same seats, in which it shot the moon."""
    against: float
    """The share of the tested level's hands in which another seat shot the moon."""


def moon_rates(path: Path) -> Moons:
    """The moons of a log of deals whose rows name each playing's shooter (`DealResult.moons`)."""
    playings = []
    for line in path.read_text().splitlines()[1:]:
        try:
            playings.append(list(json.loads(line)["moons"]))
        except (ValueError, KeyError, TypeError):
            continue  # a line cut short, or a row logged before the shooters were

    if not playings:
        raise SystemExit(f"{path} names no shooters (a log made before they were logged)")
    n = len(playings[0])
    tested = sum(shooters[j] == j for shooters in playings for j in range(n))
    other = sum(
        shooters[k] == j for shooters in playings for j in range(n) for k in range(n) if k != j
    )
    against = sum(shooters[j] not in (-1, j) for shooters in playings for j in range(n))
    hands = len(playings) * n
    return Moons(len(playings), tested / hands, other / (hands * (n - 1)), against / hands)


def record_figures(
    rows: list[dict[str, object]], measured: date, path: Path | None = None, kind: str = "pairs"
) -> None:
    """Put `rows` (one per pair and table, measured on `measured`) into the figures file
    (`FIGURES` unless `path`), in place of earlier figures of the same pair and table: under
    "pairs" the points a hand of duplicate deals, under "games" the share of whole games won;
    in the order the Fair play page lists them (`fairplay.listing_order`)."""
    path = FIGURES if path is None else path
    known = json.loads(path.read_text()) if path.exists() else {}
    fresh = {(row["pair"], row["table"]) for row in rows}
    kept = [row for row in known.get(kind, []) if (row["pair"], row["table"]) not in fresh]
    added = [{**row, "measured": measured.isoformat()} for row in rows]
    known[kind] = sorted(
        kept + added, key=lambda row: listing_order(str(row["pair"]), str(row["table"]))
    )
    path.write_text(json.dumps(known, indent=2) + "\n")


@dataclasses.dataclass(frozen=True, slots=True)
class GamesResult:
    """The figures of a run of whole games: the games, the wins (a shared win counts as its
    share), the share won with its 95 % half-width (normal approximation), and parity (1/n)."""

    games: int
    won: float
    rate: float
    half_width: float
    parity: float

    @classmethod
    def of(cls, shares: list[float], num_players: int) -> GamesResult:
        rate = sum(shares) / len(shares)
        half = 1.96 * math.sqrt(rate * (1 - rate) / len(shares))
        return cls(len(shares), sum(shares), rate, half, 1 / num_players)


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
    parser.add_argument(
        "--log", type=Path, help="keep each result in this file and resume from it (one pair)"
    )
    parser.add_argument(
        "--compare",
        nargs=2,
        type=Path,
        metavar=("LOG", "BASE"),
        help="compare two logs of the same deals (a change and the code before it) and stop",
    )
    parser.add_argument(
        "--carry",
        type=Path,
        metavar="LOG",
        help="stamp a log with today's code if --check of its results come out the same, and stop",
    )
    parser.add_argument("--check", type=int, default=40, help="results --carry plays again")
    parser.add_argument(
        "--moons", type=Path, metavar="LOG", help="how often each level shot the moon, and stop"
    )
    args = parser.parse_args(argv)
    if args.moons:
        m = moon_rates(args.moons)
        print(
            f"moons: {m.deals} deals, the tested level shot the moon in {100 * m.tested:.2f} % "
            f"of its hands, the other level in {100 * m.other:.2f} % of its hands in the same "
            f"seats; a moon against the tested level in {100 * m.against:.2f} % of its hands"
        )
        return
    if args.carry:
        identical, checked, old, new = carry_log(args.carry, args.check, args.jobs)
        verdict = f"now code {new} (was {old})" if identical == checked else f"left at code {old}"
        print(f"carry: {identical} of {checked} identical, {args.carry} {verdict}")
        return
    if args.compare:
        c = compare_logs(*args.compare)
        print(
            f"compare: {c.deals} deals in common ({c.identical} with the same result), "
            f"D {c.first.difference:.2f} ± {c.first.half_width:.2f} against "
            f"{c.second.difference:.2f} ± {c.second.half_width:.2f}, "
            f"difference {c.difference:+.2f} ± {c.half_width:.2f} points/hand"
        )
        return
    table_options(args.table)  # validate early
    pairs = [p.strip() for p in args.pairs.split(",") if p.strip()]
    for pair in pairs:
        parse_pair(pair)
    if args.deals < 1 or args.games < 0:
        raise SystemExit("--deals must be at least 1 and --games at least 0")
    if args.log is not None and len(pairs) != 1:
        raise SystemExit("--log keeps the results of one pair")
    if args.games:
        n = table_options(args.table).num_players
        won: list[dict[str, object]] = []
        for pair in pairs:
            shares = run_games(pair, args.table, args.games, args.jobs, args.seed, args.log)
            g = GamesResult.of(shares, n)
            won.append({"pair": pair, "table": args.table, **dataclasses.asdict(g)})
            print(
                f"{pair} {args.table}: {g.games} games, won {g.won:g} "
                f"({100 * g.rate:.1f} % ± {100 * g.half_width:.1f}), parity {100 * g.parity:.1f} %",
                flush=True,
            )
        if args.record:
            record_figures(won, datetime.now(UTC).date(), kind="games")
        return
    summary: dict[str, PairResult] = {}
    for pair in pairs:
        result = run_pair(pair, args.table, args.deals, args.jobs, args.seed, args.log)
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
