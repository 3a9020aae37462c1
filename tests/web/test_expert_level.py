"""The Expert level over HTTP: offered on the new-game form, its seats stored as "expert", a hand
played against it to the end, and its figures on the statistics page."""

from __future__ import annotations

from starlette.testclient import TestClient

from app.engine import Phase, legal_cards, to_act
from app.store.models import Game
from tests.web.conftest import game_state, start, version_of


def test_the_new_game_form_offers_expert(client: TestClient) -> None:
    home = client.get("/").text
    assert 'name="level" value="expert"' in home
    assert "Reads the other players from their plays and plays for the game." in home
    russian = client.get("/", headers={"Accept-Language": "ru"}).text
    assert "Эксперт" in russian


def test_a_hand_against_expert_players(client: TestClient) -> None:
    game_id = start(client, "expert")
    db = client.app.state.services.db  # type: ignore[attr-defined]
    state = game_state(client, game_id)
    assert state.hand is not None
    with db.read() as session:
        game = session.get(Game, game_id)
        assert game is not None and list(game.seats) == ["human", "expert", "expert", "expert"]
    moves = 0
    while not state.results:
        assert moves < 80
        page = client.get(f"/games/{game_id}").text
        version = version_of(page)
        if f'action="/games/{game_id}/advance"' in page:
            # More thinking than one response holds (a slow machine): the page asks for the rest.
            assert 0 not in to_act(state)
            response = client.post(f"/games/{game_id}/advance", data={"version": str(version)})
        elif state.phase is Phase.PASS and 0 in to_act(state):
            assert state.hand is not None
            cards = [str(c) for c in sorted(state.hand.hands[0])[-3:]]
            data: dict[str, object] = {"version": str(version), "cards": cards}
            response = client.post(f"/games/{game_id}/pass", data=data)
        else:
            assert state.phase is Phase.PLAY and to_act(state) == (0,)
            card = str(legal_cards(state, 0)[0])
            response = client.post(
                f"/games/{game_id}/play", data={"version": str(version), "card": card}
            )
        assert response.status_code == 200
        state = game_state(client, game_id)
        moves += 1
    stats = client.get("/stats").text
    assert "Expert" in stats
    levels = client.get("/stats?level=expert")
    assert levels.status_code == 200
