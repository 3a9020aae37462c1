"""`kill -9` of a live server while players post moves, then a restart on the same database
(a SQLite file; a PostgreSQL database): no acknowledged move is lost and every game goes on.

A few players each play their own game as fast as the server answers (a few milliseconds of
thought). At a random moment of each round the server's processes are killed; each player stops
at its first request that gets no answer. The server is started again on the same database and:
- every move whose answer was received (200, or 303 for a new game) is in its game's log, at the
  version it was made at;
- a move that got no answer, posted again as the page's retry does, is answered 200 (applied
  now, or answered as applied before the crash) or 409 (it was applied and the game has ended),
  and is then in the log exactly at its version;
- every game shows a version and legal decisions, and posting one gets 200;
- every stored game's log has no gap (`load_actions`) and replays, and no request got a 5xx.
"""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass, field

from bench.screen import Screen, read_screen
from bench.serverproc import ServerProcess
from tests.procs.conftest import Decision, Launch, Store, Tab, decide, kill, run_async

PLAYERS = 4
ROUNDS = 3
KILL_AFTER_S = (0.3, 2.0)
"""When in a round the server is killed (seconds after the players start)."""
THINK_S = 0.03
"""A player's longest thought before a move."""


@dataclass
class Player:
    """One browser playing one game after another."""

    tab: Tab
    rng: random.Random
    game_id: int | None = None
    screen: Screen | None = None
    pending: Decision | None = None
    """A move posted that got no answer (the server died first)."""
    acknowledged: list[Decision] = field(default_factory=list)
    retried: int = 0

    async def play(self, base: str) -> None:
        """Play until a request gets no answer."""
        while True:
            if self.game_id is None:
                self.game_id = await self.tab.new_game(base)
                if self.game_id is None:
                    return
                self.screen = None
            if self.screen is None:
                self.screen = await self.tab.screen(base, self.game_id)
                if self.screen is None:
                    return
            decision = decide(self.screen, self.rng)
            if decision is None:  # game over: start another
                assert self.screen.kind == "over", self.screen
                self.game_id = None
                continue
            await asyncio.sleep(self.rng.uniform(0, THINK_S))
            self.pending = decision
            reply = await self.tab.request("POST", base, decision.path, decision.form)
            if reply is None:
                return
            assert reply.status == 200, (decision, reply.status, reply.body[:300])
            self.pending = None
            self.acknowledged.append(decision)
            self.screen = read_screen(reply.body)

    async def resume(self, base: str, store: Store) -> None:
        """After the restart: post the unanswered move again, then check that the game takes
        its next move."""
        if self.pending is not None:
            decision, self.pending = self.pending, None
            reply = await self.tab.request("POST", base, decision.path, decision.form)
            assert reply is not None, f"no answer to {decision} after the restart"
            assert reply.status in (200, 409), (decision, reply.status, reply.body[:300])
            log = store.log(decision.game_id)
            assert len(log) > decision.version and decision.matches(log[decision.version]), (
                f"the retried {decision} is not in the log at its version"
            )
            self.acknowledged.append(decision)
            self.retried += 1
        self.screen = None
        if self.game_id is None:
            return
        screen = await self.tab.screen(base, self.game_id)
        assert screen is not None, "no answer to the game's page after the restart"
        move = decide(screen, self.rng)
        if move is None:
            assert screen.kind == "over", screen
            self.game_id = None
            return
        assert screen.cards or screen.kind in ("moon", "next"), screen
        reply = await self.tab.request("POST", base, move.path, move.form)
        assert reply is not None and reply.status == 200, (move, reply and reply.status)
        self.acknowledged.append(move)
        self.screen = read_screen(reply.body)


def _assert_acknowledged_stored(players: list[Player], store: Store) -> None:
    for player in players:
        for decision in player.acknowledged:
            log = store.log(decision.game_id)
            assert len(log) > decision.version, f"acknowledged {decision} is not stored"
            assert decision.matches(log[decision.version]), (decision, log[decision.version])


async def _rounds(server: ServerProcess, store: Store) -> list[Player]:
    rng = random.Random()
    players = [Player(Tab(keepalive=False), random.Random(rng.random())) for _ in range(PLAYERS)]
    try:
        for number in range(ROUNDS + 1):
            if number:
                await asyncio.to_thread(server.start)
                await asyncio.gather(*(p.resume(server.url, store) for p in players))
                _assert_acknowledged_stored(players, store)
            if number == ROUNDS:
                break
            tasks = [asyncio.create_task(p.play(server.url)) for p in players]
            await asyncio.sleep(rng.uniform(*KILL_AFTER_S))
            assert not any(t.done() for t in tasks), [t.exception() for t in tasks if t.done()]
            kill(server)
            await asyncio.wait_for(asyncio.gather(*tasks), timeout=30)
    finally:
        for player in players:
            await player.tab.close()
    return players


def test_kill_9_loses_no_acknowledged_move_and_every_game_goes_on(
    database_url: str, launch: Launch, store: Store
) -> None:
    server = launch(database_url)
    players = run_async(_rounds(server, store))
    _assert_acknowledged_stored(players, store)
    assert sum(len(p.acknowledged) for p in players) >= ROUNDS * PLAYERS
    assert sum(p.retried for p in players) >= 1, "no move was left unanswered by a kill"
    assert store.replay_all() >= PLAYERS
    statuses = [s for p in players for s in p.tab.statuses]
    assert all(s < 500 for s in statuses), statuses
    assert not server.log_errors(), server.log_tail()
