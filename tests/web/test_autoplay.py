"""What the table plays for the player, as the settings ask: the only legal card (off by
default), and the rest of a hand in which nothing is left to score (on by default), with the
tricks it played out said once and every one of them in the hand's history."""

from __future__ import annotations

import re

from starlette.testclient import TestClient

from app.engine import Phase, Play, legal_cards, points_of, to_act
from app.store import repository
from app.store.models import Game
from app.web import preferences
from tests.web.conftest import game_state, start, version_of

HX = {"HX-Request": "true"}
FINISHED = re.compile(r"Nothing was left to score: the last (?:(\d+) tricks were|trick was)")


def human_plays(client: TestClient, game_id: int) -> int:
    """The human's plays in the game's log."""
    db = client.app.state.services.db  # type: ignore[attr-defined]
    with db.read() as session:
        game = session.get(Game, game_id)
        assert game is not None
        actions = repository.load_actions(session, game)
    return sum(1 for a in actions if isinstance(a, Play) and a.seat == 0)


def play_hands(client: TestClient, game_id: int, hands: int) -> tuple[int, list[str]]:
    """Play `hands` hands (or the game) by posting the first legal card; the plays posted and
    the answers."""
    posted = 0
    answers: list[str] = []
    state = game_state(client, game_id)
    data: dict[str, str | list[str]]
    while not state.is_over and len(state.results) < hands:
        version = str(version_of(client.get(f"/games/{game_id}").text))
        if state.phase is Phase.DEAL:
            path, data = "next", {"version": version}
        elif state.phase is Phase.PASS:
            assert state.hand is not None
            data = {"version": version, "cards": [str(c) for c in state.hand.hands[0][:3]]}
            path = "pass"
        elif state.phase is Phase.MOON_CHOICE:
            path, data = "moon", {"version": version, "scoring": "add_to_others"}
        else:
            assert 0 in to_act(state)
            # points first (hearts, the queen of spades): they are gone sooner
            card = max(legal_cards(state, 0), key=lambda c: points_of(state.options, [c]))
            path, data = "play", {"version": version, "card": str(card)}
            posted += 1
        response = client.post(f"/games/{game_id}/{path}", data=data, headers=HX)
        assert response.status_code == 200
        answers.append(response.text)
        state = game_state(client, game_id)
    return posted, answers


def test_the_only_legal_card_is_played_for_the_player_who_asks(client: TestClient) -> None:
    client.cookies.set(preferences.ONLY_CARD, "1")
    client.cookies.set(preferences.FINISH_HAND, "0")
    game_id = start(client)
    posted, _ = play_hands(client, game_id, hands=3)
    state = game_state(client, game_id)
    # Never asked to play a forced card: the table played those (the log holds more plays).
    assert human_plays(client, game_id) > posted
    assert state.phase is not Phase.PLAY or len(legal_cards(state, 0)) > 1


def test_every_card_is_the_players_own_by_default(client: TestClient) -> None:
    client.cookies.set(preferences.FINISH_HAND, "0")
    game_id = start(client)
    posted, answers = play_hands(client, game_id, hands=2)
    assert human_plays(client, game_id) == posted == 26  # 13 cards a hand at four seats
    assert not any(FINISHED.search(a) for a in answers)


def test_a_hand_with_nothing_left_to_score_finishes_at_once(client: TestClient) -> None:
    """On by default: once every scoring card is taken, the answer to the player's card (or
    the computers' cards before their turn) plays the rest of the hand; the hand result says
    how many tricks were played out, and the history lists all thirteen."""
    finished = 0
    for _ in range(12):  # random deals: about one hand in five ends early with this play
        game_id = start(client)
        posted, answers = play_hands(client, game_id, hands=3)
        state = game_state(client, game_id)
        plays = human_plays(client, game_id)
        said = [FINISHED.search(a) for a in answers]
        at_once = [int(m.group(1) or 1) for m in said if m]
        assert plays - posted == sum(at_once)  # one card of the player's in each trick it said
        for answer, match in zip(answers, said, strict=True):
            if match:
                assert "Hand " in answer and "is over" in answer  # the hand result, at once
                assert answer.count("<li value=") == 13  # every trick in the history
        finished += len(at_once)
        assert state.results
        if finished >= 2:
            break
    assert finished >= 2, "hardly any hand ended early in twelve games"
