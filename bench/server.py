"""Load benchmark: the real server, real HTTP, real games, simulated players at human pace.

    python -m bench.server [--players 200] [--level easy|medium|hard|expert] [--hard-players 0]
        [--duration 60] [--ramp 10] [--processes N] [--database-url postgresql+psycopg://…]
        [--env KEY=VALUE]... [--ceiling] [--seed 1]

It migrates a temporary database (a SQLite file by default; with `--database-url` a fresh
database on that PostgreSQL server, dropped at the end), starts uvicorn on 127.0.0.1 and a free
port with production settings (`SERVER_ENV`, plus `--env`) and `--processes` worker processes,
and lets the players (`bench.players`) play: they start spread over the ramp-up, think 1.5–3.5 s
before each decision and wait out the page's pauses. Figures cover the measured period, which
starts once the ramp-up is over and every player's first game has started (the last players
start theirs a thought after the ramp-up: that burst of new games is not the steady load, and
the setup line says how long the warm-up took); failures cover the whole run. Then it measures
how long the server takes to serve again (`/healthz` and one real move, every 0.5 s). The
server's log is printed if it dies.

The last line reads
`server: N players, R req/s, card p50 A ms, p95 B ms, p99 C ms, failures F`;
with `--ceiling` (32 clients by default, no thinking, no pauses) it reads
`ceiling: R req/s, p99 C ms, failures F` (the card's p99).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import resource
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import psutil

from bench.metrics import (
    FAILURE_KINDS,
    Recorder,
    RequestSample,
    Spread,
    WaitSample,
    failures,
    in_window,
    requests_in_window,
    statuses,
)
from bench.players import Browser, Pace, Player, Prober
from bench.serverproc import ServerProcess, temporary_database

PER_ADDRESS_LIMITS: dict[str, str] = {
    "HEARTS_RATE_ADDRESS": "100000/second",
    "HEARTS_RATE_ADDRESS_NEW_SESSIONS": "100000/second",
    "HEARTS_RATE_ADDRESS_NEW_GAMES": "100000/second",
}
"""Settings that raise the server's per-address rate limits for the benchmark: all its players
share the address 127.0.0.1, where real players each have their own. Only these are raised; the
per-session limits and every other limit keep their production values."""

SERVER_ENV: dict[str, str] = {
    "HEARTS_SECURE_COOKIES": "1",  # production: the cookie is Secure (behind HTTPS)
    **PER_ADDRESS_LIMITS,
}
"""The server's environment beyond `DATABASE_URL`: production settings."""

CEILING_CLIENTS = 32
RECOVERY_LIMIT_S = 60.0
WARM_UP_LIMIT_S = 30.0
"""The measured period starts at the latest this long after the ramp-up, even if some player
has not started a game (say, the server refused it)."""
PROBE_EVERY_S = 0.5
WAIT_KINDS = ("card", "hand", "new game", "page")
"""What players wait for, in the order printed: a card (a play or a pass), a hand (next hand,
moon choice), a new game (the form, the table it leads to), a page."""


@dataclass(frozen=True)
class Config:
    """One run."""

    players: int
    level: str
    hard_players: int
    duration: float
    ramp: float
    pace: Pace
    fast_play: float
    """The share of players who tick "Fast play" (shorter pauses)."""
    seed: int
    ceiling: bool


@dataclass
class Outcome:
    """What a run measured."""

    recorder: Recorder
    start: float
    """The measured period: after the warm-up, until the load ended (monotonic seconds)."""
    end: float
    server_cpu: float
    """Server CPU seconds in the measured period."""
    client_cpu: float
    """This process's CPU seconds in the measured period (the load generator's own share of
    the machine)."""
    warm_up: float = 0.0
    """Seconds from the first player's start to the measured period."""
    recovery: float | None = None
    """Seconds from the end of the load until the server served again; None if it did not."""
    server_died: bool = False
    groups: dict[str, int] = field(default_factory=dict)
    """Players per level."""


def make_players(config: Config, base_url: str, recorder: Recorder) -> list[Player]:
    """The players of a run, shuffled so each level's players start spread over the ramp-up."""
    levels = [config.level] * config.players + ["hard"] * config.hard_players
    random.Random(config.seed).shuffle(levels)
    players = []
    for i, level in enumerate(levels):
        rng = random.Random(f"{config.seed}-{i}")
        browser = Browser(base_url, recorder, level)
        players.append(Player(browser, level, rng.random() < config.fast_play, config.pace, rng))
    return players


async def _until(deadline: float, server: ServerProcess) -> bool:
    """Sleep until `deadline`; False as soon as the server has died."""
    while (left := deadline - time.monotonic()) > 0:
        await asyncio.sleep(min(left, 0.5))
        if not server.alive():
            return False
    return server.alive()


async def _warmed_up(players: list[Player], server: ServerProcess, deadline: float) -> bool:
    """Wait until every player's first game has started, or `deadline`; False as soon as the
    server has died."""
    while not all(p.in_game for p in players) and time.monotonic() < deadline:
        await asyncio.sleep(0.1)
        if not server.alive():
            return False
    return True


async def run_load(server: ServerProcess, config: Config) -> Outcome:
    """Let the players play for the ramp-up and the measured period, then measure recovery."""
    recorder = Recorder()
    prober = Prober(server.url)
    if not await prober.prepare():
        await prober.close()
        raise RuntimeError("the probe could not start a game on the idle server")
    players = make_players(config, server.url, recorder)
    begin = time.monotonic()

    async def start(player: Player, delay: float) -> None:
        await asyncio.sleep(delay)
        await player.run()

    count = len(players)
    tasks = [asyncio.create_task(start(p, config.ramp * i / count)) for i, p in enumerate(players)]
    this_process = psutil.Process()
    alive = await _until(begin + config.ramp, server)
    if alive:
        alive = await _warmed_up(players, server, begin + config.ramp + WARM_UP_LIMIT_S)
    window_start = time.monotonic()
    server_cpu, client_cpu = server.cpu_seconds(), sum(this_process.cpu_times()[:2])
    if alive:
        alive = await _until(window_start + config.duration, server)
    window_end = time.monotonic()
    server_cpu = server.cpu_seconds() - server_cpu
    client_cpu = sum(this_process.cpu_times()[:2]) - client_cpu
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    outcome = Outcome(
        recorder,
        window_start,
        window_end,
        server_cpu,
        client_cpu,
        server_died=not alive,
        warm_up=window_start - begin,
        groups=dict(Counter(p.level for p in players)),
    )
    if alive:
        outcome.recovery = await measure_recovery(prober, window_end)
    await prober.close()
    return outcome


async def measure_recovery(prober: Prober, since: float) -> float | None:
    """Seconds from `since` until `/healthz` and a real move both succeed, trying every 0.5 s;
    None if that does not happen within a minute."""
    while time.monotonic() - since < RECOVERY_LIMIT_S:
        tried = time.monotonic()
        if await prober.attempt():
            return time.monotonic() - since
        await asyncio.sleep(max(0.0, PROBE_EVERY_S - (time.monotonic() - tried)))
    return None


def _ms(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.0f}"


def _kb(values: list[int]) -> str:
    return f"{sum(values) / len(values) / 1024:.1f} KB" if values else "n/a"


def report(config: Config, outcome: Outcome, database: str, processes: int) -> list[str]:
    """The figures, one line each; the summary line last."""
    rec = outcome.recorder
    seconds = max(outcome.end - outcome.start, 1e-9)
    requests = requests_in_window(rec.requests, outcome.start, outcome.end)
    waits = in_window(rec.waits, outcome.start, outcome.end)
    failed = failures(rec.requests)
    total_failed = sum(failed.values())
    players = config.players + config.hard_players
    levels = ", ".join(f"{n} {level}" for level, n in sorted(outcome.groups.items()))
    mode = "ceiling (no thinking, no pauses)" if config.ceiling else "human pace"
    lines = [
        f"setup: {database}, {processes} process(es), {players} players ({levels}), {mode}, "
        f"ramp-up {config.ramp:g} s, warm-up {outcome.warm_up:.1f} s, measured {seconds:.1f} s",
        f"requests: {len(requests)} in the measured period, {len(requests) / seconds:.1f} req/s; "
        f"by kind: {_counts(Counter(r.kind for r in requests))}",
        f"status (whole run): {_counts(statuses(rec.requests))}",
        f"failures (whole run): {total_failed} ("
        + ", ".join(f"{kind} {failed.get(kind, 0)}" for kind in FAILURE_KINDS)
        + "); "
        + _when(rec.requests, outcome),
    ]
    for kind in WAIT_KINDS:
        spread = Spread.of(w.seconds for w in waits if w.kind == kind)
        if spread is not None:
            lines.append(f"{kind} ({spread.count}): {spread}")
    requests_spread = Spread.of(r.seconds for r in requests if r.status is not None)
    if requests_spread is not None:
        lines.append(f"any request ({requests_spread.count}): {requests_spread}")
    if len(outcome.groups) > 1:
        lines += [_group_line(level, n, waits, rec.requests) for level, n in outcome.groups.items()]
    cards = [w for w in waits if w.kind == "card"]
    cpu_ms = outcome.server_cpu * 1000
    per_request = cpu_ms / len(requests) if requests else None
    per_card = cpu_ms / len(cards) if cards else None
    load = outcome.server_cpu / seconds
    holds = ""
    if load > 0 and not config.ceiling and not total_failed:
        holds = f"; one core holds ≈ {players / load:.0f} players at this pace"
    lines.append(
        f"server CPU: {outcome.server_cpu:.1f} s in {seconds:.1f} s ({100 * load:.0f} % of one "
        f"core), {_ms(per_request)} ms per request, {_ms(per_card)} ms per human card{holds}"
    )
    lines.append(
        f"load generator CPU: {100 * outcome.client_cpu / seconds:.0f} % of one core (same machine)"
    )
    sizes = []
    for kind in ("card", "advance", "page"):
        these = [r for r in requests if r.kind == kind and r.status == 200]
        if these:
            body = _kb([r.body_bytes for r in these])
            wire = _kb([r.wire_bytes for r in these if r.wire_bytes is not None])
            sizes.append(f"{kind} {body} ({wire} on the wire)")
    if sizes:
        lines.append("mean response: " + ", ".join(sizes))
    if outcome.server_died:
        lines.append("the server died during the run")
    elif outcome.recovery is None:
        lines.append(f"not recovered within {RECOVERY_LIMIT_S:.0f} s")
    else:
        lines.append(f"recovered in {outcome.recovery:.1f} s")
    card = Spread.of(w.seconds for w in cards)
    p50, p95, p99 = (card.p50, card.p95, card.p99) if card else (None, None, None)
    rate = len(requests) / seconds
    if config.ceiling:
        lines.append(f"ceiling: {rate:.1f} req/s, p99 {_ms(p99)} ms, failures {total_failed}")
    else:
        lines.append(
            f"server: {players} players, {rate:.1f} req/s, card p50 {_ms(p50)} ms, "
            f"p95 {_ms(p95)} ms, p99 {_ms(p99)} ms, failures {total_failed}"
        )
    return lines


def _when(samples: list[RequestSample], outcome: Outcome) -> str:
    """When the failed requests ended: in the warm-up, the measured period or after it."""
    ends = [s.end for s in samples if s.outcome != "ok"]
    ramp = sum(1 for end in ends if end < outcome.start)
    after = sum(1 for end in ends if end > outcome.end)
    return f"warm-up {ramp}, measured {len(ends) - ramp - after}, after {after}"


def _counts(counter: Counter[str]) -> str:
    return " ".join(f"{key}×{n}" for key, n in sorted(counter.items())) or "none"


def _group_line(
    level: str, players: int, waits: list[WaitSample], requests: list[RequestSample]
) -> str:
    spread = Spread.of(w.seconds for w in waits if w.kind == "card" and w.group == level)
    failed = sum(failures(r for r in requests if r.group == level).values())
    cards = f"card ({spread.count}): {spread}" if spread else "no card"
    return f"{level} ({players} players): {cards}, failures {failed}"


def _think(text: str) -> tuple[float, float]:
    low, sep, high = text.partition("-")
    try:
        pair = (float(low), float(high if sep else low))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: give seconds as MIN-MAX") from None
    if not 0 <= pair[0] <= pair[1]:
        raise argparse.ArgumentTypeError(f"{text!r}: give seconds as MIN-MAX, MIN <= MAX")
    return pair


def _env(text: str) -> tuple[str, str]:
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise argparse.ArgumentTypeError(f"{text!r}: give KEY=VALUE")
    return key, value


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    """The command line."""
    parser = argparse.ArgumentParser(
        prog="python -m bench.server", description=__doc__.split("\n\n")[0] if __doc__ else None
    )
    parser.add_argument("--players", type=int, help="players (default 200; 32 with --ceiling)")
    parser.add_argument("--level", choices=("easy", "medium", "hard", "expert"), default="easy")
    parser.add_argument(
        "--hard-players", type=int, default=0, help="extra players at Hard beside the others"
    )
    parser.add_argument("--duration", type=float, default=60.0, help="measured seconds")
    parser.add_argument("--ramp", type=float, help="ramp-up seconds (default 10; 2 at ceiling)")
    parser.add_argument(
        "--processes",
        type=int,
        default=os.cpu_count() or 1,
        help="server processes (default: one per core, as scripts/serve)",
    )
    parser.add_argument(
        "--database-url",
        help="a PostgreSQL server (postgresql+psycopg://…) to create the temporary database "
        "on; a SQLite file without it",
    )
    parser.add_argument(
        "--env",
        type=_env,
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="extra server environment (repeatable)",
    )
    parser.add_argument(
        "--uvicorn-arg", action="append", default=[], help="extra uvicorn option (repeatable)"
    )
    parser.add_argument("--ceiling", action="store_true", help="no thinking, no pauses")
    parser.add_argument(
        "--think", type=_think, default=(1.5, 3.5), metavar="MIN-MAX", help="seconds of thought"
    )
    parser.add_argument(
        "--fast-play", type=float, default=0.5, help="share of players with fast play"
    )
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if args.players is None:
        args.players = CEILING_CLIENTS if args.ceiling else 200
    if args.ramp is None:
        args.ramp = 2.0 if args.ceiling else 10.0
    if args.players < 0 or args.hard_players < 0 or args.players + args.hard_players < 1:
        parser.error("at least one player")
    if args.processes < 1 or args.duration <= 0 or args.ramp < 0:
        parser.error("--processes >= 1, --duration > 0, --ramp >= 0")
    return args


def _raise_open_files(players: int) -> None:
    """Room for every player's connections, here and in the server (which inherits it)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = 8 * players + 1024
    if soft != resource.RLIM_INFINITY and soft < wanted:
        limit = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (limit, hard))


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark; 1 if the server died or did not start."""
    args = parse_args(argv)
    config = Config(
        players=args.players,
        level=args.level,
        hard_players=args.hard_players,
        duration=args.duration,
        ramp=args.ramp,
        pace=Pace.ceiling() if args.ceiling else Pace(args.think),
        fast_play=args.fast_play,
        seed=args.seed,
        ceiling=args.ceiling,
    )
    _raise_open_files(config.players + config.hard_players)
    database = "PostgreSQL" if args.database_url else "SQLite"
    with (
        tempfile.TemporaryDirectory(prefix="hearts-bench-") as tmp,
        temporary_database(Path(tmp), args.database_url) as url,
    ):
        server = ServerProcess(
            url,
            Path(tmp) / "server.log",
            processes=args.processes,
            env={**SERVER_ENV, **dict(args.env)},
            uvicorn_args=args.uvicorn_arg,
        )
        try:
            server.start()
            outcome = asyncio.run(run_load(server, config))
        except RuntimeError as err:
            print(err, file=sys.stderr)
            return 1
        finally:
            died = server.process is not None and not server.alive()
            server.stop()
            tail, errors = server.log_tail(), server.log_errors()
        lines = report(config, outcome, database, args.processes)
        if errors:
            logged = "; ".join(f"{n}× {error}" for error, n in errors.most_common(3))
            lines.insert(-1, f"server log: {errors.total()} exception lines; {logged}")
        for line in lines:
            print(line, flush=True)
        if died or outcome.server_died:
            print(f"the server's log ends with:\n{tail}", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
