"""Games that are no longer being played, and the services' state cache, on a real database.

A game abandoned for a newer one (say, from another tab whose page still auto-posts `/advance`)
refuses every change with the "moved on" answer (409) instead of failing, and its page no longer
asks the server to advance. The per-process state cache never serves a state that was not the
one committed: not after a write that failed, nor for another database's game of the same id;
a game another process moved on is brought up to date from the state this process knows.
"""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine
from starlette.testclient import TestClient

from app.engine import Action, GameHeader, GameState, Pass, Phase, apply, replay, to_act, view_for
from app.services import games
from app.services.computers import Thinkers
from app.services.database import Database
from app.services.players import Caller
from app.store import make_engine, repository
from app.store.models import ABANDONED, Game
from tests.store.conftest import engine, migrate
from tests.web.conftest import game_state, start, version_of

__all__ = ["engine"]

HX = {"HX-Request": "true"}
INLINE = Thinkers(processes=0)


@pytest.fixture
def db(engine: Engine) -> Database:
    """The services' database on the test database."""
    return Database(engine)


def new_caller(db: Database) -> Caller:
    """A browser whose player exists (created by its first game)."""
    caller = Caller()
    games.start_game(db, INLINE, caller, "easy", fast_play=True)
    assert caller.token is not None
    return caller


def test_a_game_abandoned_from_another_tab_refuses_changes(client: TestClient) -> None:
    first = start(client)
    state = game_state(client, first)
    assert state.phase is Phase.PASS and state.hand is not None
    version = version_of(client.get(f"/games/{first}").text)
    second = start(client)  # the first game is abandoned now
    cards = [str(c) for c in state.hand.hands[0][:3]]
    for path, data in (
        ("pass", {"version": str(version), "cards": cards}),
        ("advance", {"version": str(version)}),
        ("next", {"version": str(version)}),
    ):
        response = client.post(f"/games/{first}/{path}", data=data, headers=HX)
        assert response.status_code == 409, path
        assert "moved on" in response.text
        assert f'action="/games/{first}/advance"' not in response.text
    assert game_state(client, first) == state
    assert client.get(f"/games/{second}").status_code == 200


def _store_the_human_pass_alone(client: TestClient, game_id: int) -> GameState:
    """Store the human's pass without the computers' turns after it, as a game saved before
    the answer to a move carried them: the game then rests at a computer's turn."""
    db: Database = client.app.state.services.db  # type: ignore[attr-defined]
    with db.write() as session:
        game = session.get(Game, game_id)
        assert game is not None
        state = replay(GameHeader.from_json(game.header), repository.load_actions(session, game))
        assert state.hand is not None
        action = Pass(0, state.hand.hands[0][:3])
        state = apply(state, action)
        repository.append_actions(session, game, [action], state)
    return state


def _game_at_a_computers_turn(client: TestClient) -> tuple[int, GameState]:
    """A game stored right after the human's pass, with a computer to lead (a new game until
    the two of clubs is not in the human's hand)."""
    for _ in range(40):
        game_id = start(client)
        state = _store_the_human_pass_alone(client, game_id)
        if any(seat != 0 for seat in to_act(state)):
            return game_id, state
    raise AssertionError("the human held the two of clubs in 40 deals")


def test_a_game_stored_at_a_computers_turn_advances_in_one_request(client: TestClient) -> None:
    game_id, _ = _game_at_a_computers_turn(client)
    page = client.get(f"/games/{game_id}").text
    assert f'action="/games/{game_id}/advance"' in page
    response = client.post(
        f"/games/{game_id}/advance", data={"version": str(version_of(page))}, headers=HX
    )
    assert response.status_code == 200
    assert f'action="/games/{game_id}/advance"' not in response.text
    after = game_state(client, game_id)
    assert to_act(after) == (0,)  # the computers played up to the human's first card
    assert response.text.count('<template class="frame"') == len(after.hand.current) - 1  # type: ignore[union-attr]


def test_an_abandoned_game_with_a_computer_to_act_stops_advancing(client: TestClient) -> None:
    first, state = _game_at_a_computers_turn(client)
    page = client.get(f"/games/{first}").text
    assert f'action="/games/{first}/advance"' in page
    version = version_of(page)
    start(client)
    assert f'action="/games/{first}/advance"' not in client.get(f"/games/{first}").text
    response = client.post(f"/games/{first}/advance", data={"version": str(version)}, headers=HX)
    assert response.status_code == 409
    assert f'action="/games/{first}/advance"' not in response.text
    assert game_state(client, first) == state


def test_a_game_no_longer_active_is_refused_by_the_services(db: Database) -> None:
    caller = Caller()
    game_id = games.start_game(db, INLINE, caller, "easy", fast_play=True)
    games.start_game(db, INLINE, caller, "easy", fast_play=True)
    table = games.table(db, caller, game_id)
    assert table.status == ABANDONED and not table.computer_to_act
    hand = table.view.hand
    with pytest.raises(games.ActionRefusedError) as refused:
        games.act(db, INLINE, caller, game_id, table.version, Pass(0, hand[:3]))
    assert refused.value.refusal.stale
    assert refused.value.table.version == table.version


# --- the state cache --------------------------------------------------------------------------


def _stored_state(db: Database, game_id: int) -> GameState:
    with db.read() as session:
        game = session.get(Game, game_id)
        assert game is not None
        return replay(GameHeader.from_json(game.header), repository.load_actions(session, game))


def test_the_cache_forgets_a_change_whose_write_failed(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A change whose write fails (on SQLite after its actions were appended, before the
    commit; on PostgreSQL, where a move is one statement, as it runs), then another process
    storing a different action at the same version: the table is the stored one."""
    caller = new_caller(db)
    game_id = games.active_game_id(db, caller)
    assert game_id is not None
    table = games.table(db, caller, game_id)
    mine = table.view.hand[:3]
    real_advance = repository.advance_game

    def advance_then_fail(*args: Any, **kwargs: Any) -> repository.GameRow:
        if db.engine.dialect.name == "sqlite":
            assert real_advance(*args, **kwargs) is not None
        raise RuntimeError("say, the disk filled up before the commit")

    monkeypatch.setattr(repository, "advance_game", advance_then_fail)
    with pytest.raises(RuntimeError, match="disk"):
        games.act(db, INLINE, caller, game_id, table.version, Pass(0, mine))
    monkeypatch.setattr(repository, "advance_game", real_advance)
    with db.write() as session:  # another worker passes other cards at the same version
        game = repository.lock_game(session, game_id, caller.player_id)
        assert game is not None
        state = replay(GameHeader.from_json(game.header), repository.load_actions(session, game))
        theirs = Pass(0, state.hand.hands[0][-3:] if state.hand else ())
        repository.append_actions(session, game, [theirs], apply(state, theirs))
    table = games.table(db, caller, game_id)
    assert table.view == view_for(_stored_state(db, game_id), 0)
    assert set(table.view.passed or ()) == set(theirs.cards)


def test_a_game_another_process_moved_on_is_caught_up_from_the_state_known_here(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another process stores the human's pass: this one reads only the action after the state
    it knows (not the whole log) and shows the stored table."""
    caller = new_caller(db)
    game_id = games.active_game_id(db, caller)
    assert game_id is not None
    before = games.table(db, caller, game_id)
    with db.write() as session:  # another process, whose cache this one does not share
        game = repository.lock_game(session, game_id, caller.player_id)
        assert game is not None
        state = replay(GameHeader.from_json(game.header), repository.load_actions(session, game))
        theirs = Pass(0, state.hand.hands[0][:3] if state.hand else ())
        repository.append_actions(session, game, [theirs], apply(state, theirs))
    loads: list[tuple[int, int]] = []
    real_load = repository.load_actions

    def counted(executor: Any, game: Any, since: int = 0) -> list[Action]:
        loads.append((game.version, since))
        return real_load(executor, game, since)

    monkeypatch.setattr(repository, "load_actions", counted)
    table = games.table(db, caller, game_id)
    assert loads == [(before.version + 1, before.version)]
    monkeypatch.setattr(repository, "load_actions", real_load)
    assert table.view == view_for(_stored_state(db, game_id), 0)
    assert set(table.view.passed or ()) == set(theirs.cards)


def test_the_cache_keeps_games_of_two_databases_apart(db: Database, tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'other.db'}"
    migrate(url)
    other = Database(make_engine(url))
    try:
        ids = []
        for database in (db, other):
            caller = Caller()
            ids.append((caller, games.start_game(database, INLINE, caller, "easy", True)))
        assert ids[0][1] == ids[1][1]  # the same game id in both databases
        for database, (caller, game_id) in zip((db, other), ids, strict=True):
            table = games.table(database, caller, game_id)
            assert table.view == view_for(_stored_state(database, game_id), 0)
    finally:
        other.dispose()


class _Together(Thinkers):
    """Thinkers that hold each plan until `parties` plans have been asked for, so that several
    copies of one decision all read the game before any of them writes."""

    def __init__(self, parties: int) -> None:
        super().__init__(processes=0)
        self.barrier = threading.Barrier(parties, timeout=10)

    def plan(self, *args: Any) -> list[Action]:
        self.barrier.wait()
        return super().plan(*args)


def test_identical_decisions_racing_to_the_write_are_all_answered_as_applied(
    db: Database,
) -> None:
    """A double click whose copies both pass the version check before either writes: one
    appends, the other finds the game moved on by that very decision and gets the same answer."""
    caller = new_caller(db)
    game_id = games.active_game_id(db, caller)
    assert game_id is not None
    table = games.table(db, caller, game_id)
    action = Pass(0, table.view.hand[:3])
    thinkers = _Together(parties=2)
    with ThreadPoolExecutor(2) as pool:
        copies = [
            pool.submit(games.act, db, thinkers, caller, game_id, table.version, action)
            for _ in range(2)
        ]
        outcomes = [copy.result() for copy in copies]
    assert outcomes[0] == outcomes[1]
    stored = _stored_state(db, game_id)
    assert outcomes[0].table.view == view_for(stored, 0)
    assert stored.hand is not None and stored.hand.passed[0] == tuple(action.cards)
