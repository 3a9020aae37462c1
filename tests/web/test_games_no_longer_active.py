"""Games that are no longer being played, and the services' state cache, on a real database.

A game abandoned for a newer one (say, from another tab whose page still auto-posts `/advance`)
refuses every change with the "moved on" answer (409) instead of failing, and its page no longer
asks the server to advance. The per-process state cache never serves a state that was not the
one committed: not after a rolled-back change, nor for another database's game of the same id.
"""

from __future__ import annotations

from pathlib import Path

from sqlalchemy.orm import Session, sessionmaker
from starlette.testclient import TestClient

from app.engine import (
    GameHeader,
    GameState,
    Pass,
    Phase,
    apply,
    legal_cards,
    replay,
    to_act,
    view_for,
)
from app.services import games
from app.store import make_engine, make_sessionmaker, repository
from app.store.models import ABANDONED, Game, Player
from tests.store.conftest import engine, migrate, sessions
from tests.web.conftest import game_state, start, version_of

__all__ = ["engine", "sessions"]

HX = {"HX-Request": "true"}


def _player(session: Session, token: str) -> Player:
    player = repository.get_player(session, token)
    assert player is not None
    return player


def _play_until_a_computer_is_to_act(client: TestClient, game_id: int) -> None:
    state = game_state(client, game_id)
    while not any(seat != 0 for seat in to_act(state)):
        assert state.hand is not None and 0 in to_act(state)
        version = version_of(client.get(f"/games/{game_id}").text)
        if state.phase is Phase.PASS:
            cards = [str(c) for c in state.hand.hands[0][:3]]
            data = {"version": str(version), "cards": cards}
            assert client.post(f"/games/{game_id}/pass", data=data).status_code in (200, 303)
        else:
            card = str(legal_cards(state, 0)[0])
            data = {"version": str(version), "card": card}
            assert client.post(f"/games/{game_id}/play", data=data).status_code in (200, 303)
        state = game_state(client, game_id)


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


def test_an_abandoned_game_with_a_computer_to_act_stops_advancing(client: TestClient) -> None:
    first = start(client)
    _play_until_a_computer_is_to_act(client, first)
    page = client.get(f"/games/{first}").text
    assert f'action="/games/{first}/advance"' in page
    version = version_of(page)
    state = game_state(client, first)
    start(client)
    assert f'action="/games/{first}/advance"' not in client.get(f"/games/{first}").text
    response = client.post(f"/games/{first}/advance", data={"version": str(version)}, headers=HX)
    assert response.status_code == 409
    assert f'action="/games/{first}/advance"' not in response.text
    assert game_state(client, first) == state


def test_a_game_no_longer_active_is_refused_by_the_services(
    sessions: sessionmaker[Session],
) -> None:
    with sessions.begin() as session:
        token = repository.create_player(session).id
        game_id = games.start_game(session, _player(session, token), "easy", fast_play=True)
    with sessions.begin() as session:
        player = _player(session, token)
        games.start_game(session, player, "easy", fast_play=True)
    with sessions.begin() as session:
        player = _player(session, token)
        table = games.table(session, player, game_id)
        assert table.status == ABANDONED and not table.computer_to_act
        hand = table.view.hand
        try:
            games.act(session, player, game_id, table.version, Pass(0, hand[:3]))
        except games.ActionRefusedError as refused:
            assert refused.refusal.stale
            assert refused.table.version == table.version
        else:
            raise AssertionError("an abandoned game took an action")


# --- the state cache --------------------------------------------------------------------------


def _stored_state(session: Session, game_id: int) -> GameState:
    game = session.get(Game, game_id)
    assert game is not None
    return replay(GameHeader.from_json(game.header), repository.load_actions(session, game))


def test_the_cache_forgets_a_change_that_was_rolled_back(sessions: sessionmaker[Session]) -> None:
    """A change remembered and then rolled back, and another process storing a different action
    at the same version: the table is the stored one."""
    with sessions.begin() as session:
        token = repository.create_player(session).id
        game_id = games.start_game(session, _player(session, token), "easy", fast_play=True)
    with sessions() as session:
        player = _player(session, token)
        table = games.table(session, player, game_id)
        mine = table.view.hand[:3]
        games.act(session, player, game_id, table.version, Pass(0, mine))
        session.rollback()  # say, the page failed to render
    with sessions.begin() as session:  # another worker passes other cards at the same version
        game = repository.lock_game(session, game_id, token)
        assert game is not None
        state = replay(GameHeader.from_json(game.header), repository.load_actions(session, game))
        theirs = Pass(0, state.hand.hands[0][-3:] if state.hand else ())
        repository.append_actions(session, game, [theirs], apply(state, theirs))
    with sessions.begin() as session:
        player = _player(session, token)
        table = games.table(session, player, game_id)
        assert table.view == view_for(_stored_state(session, game_id), 0)
        assert set(table.view.passed or ()) == set(theirs.cards)


def test_the_cache_keeps_games_of_two_databases_apart(
    sessions: sessionmaker[Session], tmp_path: Path
) -> None:
    url = f"sqlite:///{tmp_path / 'other.db'}"
    migrate(url)
    other_engine = make_engine(url)
    try:
        others = make_sessionmaker(other_engine)
        ids = []
        for factory in (sessions, others):
            with factory.begin() as session:
                player = repository.create_player(session)
                ids.append((player.id, games.start_game(session, player, "easy", fast_play=True)))
        assert ids[0][1] == ids[1][1]  # the same game id in both databases
        for factory, (token, game_id) in zip((sessions, others), ids, strict=True):
            with factory.begin() as session:
                player = _player(session, token)
                table = games.table(session, player, game_id)
                assert table.view == view_for(_stored_state(session, game_id), 0)
    finally:
        other_engine.dispose()
