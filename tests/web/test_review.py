"""The review of a hand (issue 11, item 4): after a hand, each of the player's decisions with
what it cost against the Hard player's best choice from the same view, the costly ones marked
with the reason, a summary line; on demand, kept per hand, in the history for any scored hand,
and only for the player's own scored hands."""

from __future__ import annotations

import random
import re

import pytest
from starlette.testclient import TestClient

from app.bots import coach
from app.engine import (
    Action,
    GameHeader,
    Pass,
    Phase,
    Play,
    RuleOptions,
    apply,
    new_game,
    random_deal,
    to_act,
    view_for,
)
from app.services import review
from tests.web.conftest import game_state, start, version_of

HX = {"HX-Request": "true"}


def play_first_hand(client: TestClient, game_id: int, seed: int = 1) -> None:
    """Play the human's seat with random legal choices until the first hand is scored."""
    rng = random.Random(seed)
    for _ in range(100):
        state = game_state(client, game_id)
        if state.phase is Phase.DEAL and state.results:
            return
        version = version_of(client.get(f"/games/{game_id}").text)
        assert 0 in to_act(state)
        view = view_for(state, 0)
        if state.phase is Phase.PASS:
            cards = rng.sample(list(view.hand), 3)
            data: dict[str, object] = {"version": version, "cards": [str(c) for c in cards]}
            path = "pass"
        else:
            data = {"version": version, "card": str(rng.choice(list(view.legal)))}
            path = "play"
        response = client.post(f"/games/{game_id}/{path}", data=data, headers=HX)
        assert response.status_code == 200
    raise AssertionError("the hand did not end")


def test_the_review_of_a_hand_weighs_every_decision(client: TestClient) -> None:
    game_id = start(client, fast=False)
    play_first_hand(client, game_id)
    table = client.get(f"/games/{game_id}").text
    link = f"/history/{game_id}/hands/1/review?from=table"
    assert f'href="{link}"' in table
    page = client.get(link)
    assert page.status_code == 200
    rows = re.findall(r'data-decision="(\w+)"', page.text)
    assert rows[0] == "pass" and rows[1:] == [str(n) for n in range(1, len(rows))]
    assert len(rows) == 14  # the pass and 13 cards
    costs = re.findall(r'<td class="cost">([\d.]+)', page.text)
    assert len(costs) == 14 and all(float(c) >= 0 for c in costs)
    costly = page.text.count('<tr class="costly"')
    assert costly == sum(float(c) >= coach.COSTLY for c in costs)
    assert page.text.count('<tr class="why">') == costly
    total = re.search(r'data-given-away="([\d.]+)"', page.text)
    assert total is not None
    assert float(total.group(1)) == pytest.approx(sum(float(c) for c in costs), abs=0.1 * 14)
    if costly:
        assert "points given away this hand" in page.text
    else:
        assert "well played" in page.text
    assert f'href="/games/{game_id}"' in page.text  # back to the table
    replay = client.get(f"/history/{game_id}/hands/1").text
    assert f'href="/history/{game_id}/hands/1/review"' in replay


def test_a_review_is_thought_once_per_hand(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id = start(client)
    play_first_hand(client, game_id, seed=2)
    calls: list[int] = []
    real = coach.assess_all

    def counted(decisions: list[object]) -> object:
        calls.append(len(decisions))
        return real(decisions)  # type: ignore[arg-type]

    monkeypatch.setattr(coach, "assess_all", counted)
    first = client.get(f"/history/{game_id}/hands/1/review").text
    second = client.get(f"/history/{game_id}/hands/1/review").text
    assert first == second and len(calls) <= 1  # another test may have filled the cache


def test_no_review_of_a_hand_not_scored_or_not_yours(client: TestClient) -> None:
    game_id = start(client)
    assert client.get(f"/history/{game_id}/hands/1/review").status_code == 404  # being played
    for path in ("2", "0", "²", "9" * 5000):
        assert client.get(f"/history/{game_id}/hands/{path}/review").status_code == 404
    play_first_hand(client, game_id, seed=3)
    assert client.get(f"/history/{game_id}/hands/1/review").status_code == 200
    client.cookies.clear()
    assert client.get(f"/history/{game_id}/hands/1/review").status_code == 404


def test_the_review_takes_the_players_view_only() -> None:
    """Each decision is weighed from the human seat's view: the decisions the service collects
    are exactly the human's, each with the view the engine gave that seat then."""
    options = RuleOptions.standard()
    header = GameHeader(options)
    rng = random.Random(4)
    state = new_game(options)
    deal = random_deal(options, rng)
    actions: list[Action] = [deal]
    state = apply(state, deal)
    while not state.results:
        seat = to_act(state)[0]
        view = view_for(state, seat)
        action: Pass | Play
        if state.phase is Phase.PASS:
            action = Pass(seat, rng.sample(list(view.hand), 3))
        else:
            action = Play(seat, rng.choice(list(view.legal)))
        actions.append(action)
        state = apply(state, action)
    found = review._decisions(header, actions, 1, seed=9)
    assert found is not None and len(found) == 14
    mine = [a for a in actions if isinstance(a, Pass | Play) and a.seat == 0]
    for (view, chosen, _, _), action in zip(found, mine, strict=True):
        assert view.seat == 0
        assert chosen == (action.cards if isinstance(action, Pass) else (action.card,))
    assert review._decisions(header, actions[:-1], 1, seed=9) is None  # not scored yet
