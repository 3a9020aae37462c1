"""The purge of idle players on a full database, and what it costs a server writing beside it.

    python -m bench.purge [--active 10000] [--idle 1000] [--games 2] [--batch 500]
                          [--database-url URL]

A fresh SQLite file (or `--database-url`: an empty scratch database, which is migrated and
filled) gets `--active` players seen yesterday (no games) and `--idle` players last seen a year
ago with `--games` finished games each; every game is a copy of one real game of four Medium
players (its action log and hand results). A dry run counts them; then the purge runs as the
command runs it (the default batches and pause) while another connection, like a server, writes
one small transaction every 20 ms and times each (its wait for the write lock included). The
last line reads
`purge: N players, G games, A actions in T s, longest transaction X ms; writer p50 A ms, p99 B ms,
max C ms`.
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import threading
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import Engine, insert, update

from app.bots import Level, choose_action, decision_rng
from app.engine import (
    GameHeader,
    GameState,
    Phase,
    RuleOptions,
    apply,
    new_game,
    random_deal,
    to_act,
    view_for,
)
from app.services.maintenance import DEFAULT_BATCH, purge
from app.store import make_engine, repository
from app.store.models import Game, GameAction, GameSeat, HandResultRow, Player

ROOT = Path(__file__).resolve().parents[1]
NOW = datetime.now(UTC)
WRITE_EVERY = 0.02
"""Seconds between the simulated server's writes."""


def medium_game(seed: int) -> tuple[GameHeader, list[Any], GameState]:
    """A whole game of four Medium players: its header, actions and final state."""
    options = RuleOptions.standard()
    rng = random.Random(seed)
    state = new_game(options)
    actions: list[Any] = []
    while not state.is_over:
        if state.phase is Phase.DEAL:
            action: Any = random_deal(options, rng)
        else:
            seat = to_act(state)[0]
            view = view_for(state, seat)
            action = choose_action(view, Level.MEDIUM, decision_rng(seed, len(actions), seat))
        state = apply(state, action)
        actions.append(action)
    return GameHeader(options), actions, state


def fill(engine: Engine, active: int, idle: int, games: int) -> None:
    """The players and games described in the module's docstring."""
    header, actions, final = medium_game(1)
    seats = ["human", "medium", "medium", "medium"]
    year_ago = NOW - timedelta(days=365)
    payloads = [repository.encode_action(a) for a in actions]
    with engine.begin() as conn:
        conn.execute(
            insert(Player),
            [
                {"id": f"a{i:07d}", "created_at": NOW, "last_seen_at": NOW - timedelta(days=1)}
                for i in range(active)
            ]
            + [
                {"id": f"i{i:07d}", "created_at": year_ago, "last_seen_at": year_ago}
                for i in range(idle)
            ],
        )
    for i in range(idle):
        with engine.begin() as conn:
            for _ in range(games):
                game_id = conn.execute(
                    insert(Game).returning(Game.id),
                    {
                        "player_id": f"i{i:07d}",
                        "header": header.to_json(),
                        "seats": seats,
                        "seed": 1,
                        "fast_play": False,
                        "status": "finished",
                        "version": len(actions),
                        "hand_number": final.hand_number,
                        "totals": list(final.totals),
                        "winners": list(final.winners),
                        "created_at": year_ago,
                        "updated_at": year_ago,
                        "finished_at": year_ago,
                    },
                ).scalar_one()
                conn.execute(
                    insert(GameSeat),
                    [{"game_id": game_id, "seat": s, "kind": k} for s, k in enumerate(seats)],
                )
                conn.execute(
                    insert(GameAction),
                    [
                        {
                            "game_id": game_id,
                            "seq": seq,
                            "seat": getattr(action, "seat", None),
                            "kind": payload["action"]["type"],
                            "payload": payload,
                            "created_at": year_ago,
                        }
                        for seq, (action, payload) in enumerate(zip(actions, payloads, strict=True))
                    ],
                )
                conn.execute(
                    insert(HandResultRow),
                    repository.hand_result_rows(game_id, seats, final.results),
                )


def writer(url: str, stop: threading.Event, waits: list[float]) -> None:
    """A server's stream of small writes (one player's visit every 20 ms), each timed."""
    engine = make_engine(url)
    try:
        while not stop.is_set():
            started = time.perf_counter()
            with engine.begin() as conn:
                conn.execute(update(Player).where(Player.id == "a0000000").values(last_seen_at=NOW))
            waits.append(time.perf_counter() - started)
            time.sleep(WRITE_EVERY)
    finally:
        engine.dispose()


def main() -> None:
    """Run the benchmark and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--active", type=int, default=10000)
    parser.add_argument("--idle", type=int, default=1000)
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--batch", type=int, default=DEFAULT_BATCH)
    parser.add_argument("--database-url")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        url = args.database_url or f"sqlite:///{Path(tmp) / 'hearts.db'}"
        config = Config(str(ROOT / "alembic.ini"))
        config.attributes["configure_logger"] = False
        config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
        command.upgrade(config, "head")
        engine = make_engine(url)
        started = time.perf_counter()
        fill(engine, args.active, args.idle, args.games)
        print(
            f"{make_engine(url).dialect.name}: filled {args.active} active and {args.idle} idle "
            f"players ({args.games} games each) in {time.perf_counter() - started:.1f} s"
        )
        dry = purge(engine, now=NOW, idle_days=180, batch=args.batch, dry_run=True)
        print(
            f"dry run: {dry.players} players, {dry.games} games, {dry.actions} actions "
            f"({dry.batches} batches), longest transaction {dry.longest_transaction * 1000:.0f} ms"
        )
        stop = threading.Event()
        waits: list[float] = []
        server = threading.Thread(target=writer, args=(url, stop, waits))
        server.start()
        time.sleep(0.5)
        started = time.perf_counter()
        report = purge(engine, now=NOW, idle_days=180, batch=args.batch)
        elapsed = time.perf_counter() - started
        time.sleep(0.5)
        stop.set()
        server.join()
        engine.dispose()
    ms = sorted(w * 1000 for w in waits)
    p99 = ms[min(len(ms) - 1, int(0.99 * len(ms)))]
    print(
        f"purge: {report.players} players, {report.games} games, {report.actions} actions in "
        f"{elapsed:.1f} s ({report.batches} batches), longest transaction "
        f"{report.longest_transaction * 1000:.0f} ms; writer p50 {statistics.median(ms):.1f} ms, "
        f"p99 {p99:.1f} ms, max {ms[-1]:.1f} ms"
    )


if __name__ == "__main__":
    main()
