"""Two server processes on one database (a SQLite file; a PostgreSQL database): the same decision
posted several times at once, spread over both processes, is applied exactly once.

Each round reads the table from one process, picks a legal decision and posts it `COPIES` times
concurrently, alternating between the processes (a double click, a retry after a lost response
and a second tab, all at once, on a load-balanced site). Every answer is 200 (the decision
applied, or a copy of it answered as applied) or 409 (the table moved on), never a 5xx; the log
gained exactly one human decision, the posted one, with only the computers' actions after it;
and both processes then show the same table, so neither serves a stale state from its cache.
"""

from __future__ import annotations

import asyncio
import random

from app.engine import Action, GameHeader, Play, apply, replay, view_for
from app.engine.endgame import nothing_left_to_score
from bench.screen import read_screen
from tests.procs.conftest import Decision, Launch, Store, Tab, decide, is_human_decision, run_async

ROUNDS = 24
COPIES = 6


async def _rounds(bases: list[str], store: Store) -> int:
    """Play the rounds; how many posted a decision."""
    rng = random.Random(9)
    tab = Tab()
    posted = 0
    try:
        game_id = await tab.new_game(bases[0])
        assert game_id is not None
        for number in range(ROUNDS):
            screen = await tab.screen(bases[number % 2], game_id)
            assert screen is not None
            decision = decide(screen, rng)
            if decision is None:  # the game is over: start another
                game_id = await tab.new_game(bases[number % 2])
                assert game_id is not None
                continue
            before = store.log(game_id)
            assert decision.version == len(before)
            replies = await asyncio.gather(
                *(
                    tab.request("POST", bases[(number + i) % 2], decision.path, decision.form)
                    for i in range(COPIES)
                )
            )
            assert all(r is not None for r in replies), "a post got no answer"
            statuses = [r.status for r in replies if r is not None]
            assert set(statuses) <= {200, 409}, statuses
            assert 200 in statuses, statuses
            posted += 1
            _assert_applied_once(decision, before, store.log(game_id), store.header(game_id))
            # Every process shows the table as stored, and every 200 answered with that table.
            pages = [await tab.request("GET", base, f"/games/{game_id}") for base in bases]
            assert all(p is not None and p.status == 200 for p in pages)
            bodies = [p.body for p in pages if p is not None]
            assert bodies[0] == bodies[1], "the two processes show different tables"
            shown = read_screen(bodies[0])
            assert shown.version == str(len(store.log(game_id)))
            for reply in replies:
                if reply is not None and reply.status == 200:
                    answered = read_screen(reply.body)
                    assert (answered.kind, answered.version, answered.cards) == (
                        shown.kind,
                        shown.version,
                        shown.cards,
                    )
    finally:
        await tab.close()
    assert all(status < 500 for status in tab.statuses), tab.statuses
    return posted


def _assert_applied_once(
    decision: Decision, before: list[Action], after: list[Action], header: GameHeader
) -> None:
    """The log kept what it had and gained the decision, then only computer actions, and the
    human's cards the table plays for the player (by default, the rest of a hand in which
    nothing is left to score)."""
    assert after[: len(before)] == before
    added = after[len(before) :]
    assert added, f"{decision.kind} at version {decision.version} was not applied"
    assert decision.matches(added[0]), (decision, added[0])
    state = replay(header, [*before, added[0]])
    for action in added[1:]:
        if is_human_decision(action):
            played_for = isinstance(action, Play) and nothing_left_to_score(view_for(state, 0))
            assert played_for, f"a second human decision applied for one: {action}"
        state = apply(state, action)


def test_identical_concurrent_posts_over_two_processes_apply_once(
    database_url: str, launch: Launch, store: Store
) -> None:
    servers = [launch(database_url, "a"), launch(database_url, "b")]
    assert run_async(_rounds([s.url for s in servers], store)) >= ROUNDS - 2
    assert store.replay_all() >= 1
    for server in servers:
        assert not server.log_errors(), server.log_tail()
