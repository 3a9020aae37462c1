"""Hints through HTTP (issue 11, item 3): the hint box at the player's turn, the game marked
assisted, and the statistics and history that keep assisted games apart."""

from __future__ import annotations

import re

from starlette.testclient import TestClient

from app.bots import coach
from app.engine import Phase, to_act
from app.web.coaching import REASONS
from tests.web.conftest import BROWSER, game_state, start, version_of

HX = {"HX-Request": "true"}


def _hint(client: TestClient, game_id: int, version: int | str, htmx: bool = True) -> str:
    response = client.post(
        f"/games/{game_id}/hint", data={"version": str(version)}, headers=HX if htmx else {}
    )
    assert response.status_code == 200, response.text[:300]
    return response.text


def test_the_hint_box_names_the_pass_its_reason_and_expected_points(client: TestClient) -> None:
    game_id = start(client)
    page = client.get(f"/games/{game_id}").text
    assert 'class="button coach-button"' in page and 'aria-keyshortcuts="h"' in page
    state = game_state(client, game_id)
    assert state.phase is Phase.PASS and state.hand is not None
    box = _hint(client, game_id, version_of(page))
    codes = re.search(r'data-cards="([^"]*)"', box)
    assert codes is not None
    advised = codes.group(1).split()
    assert len(advised) == 3 and set(advised) <= {str(c) for c in state.hand.hands[0]}
    assert "Hard would pass" in box
    reason = re.search(r'<p class="coach-reason">([^<]+)</p>', box)
    assert reason is not None and len(reason.group(1).strip()) > 10
    points = re.findall(r'<span class="coach-choice">[^<]*<b>(\d+\.\d)</b>', box)
    assert len(points) == 3 and all(0 <= float(p) <= 26 for p in points)


def test_a_hint_changes_nothing_but_marks_the_game_assisted(client: TestClient) -> None:
    game_id = start(client)
    page = client.get(f"/games/{game_id}").text
    version = version_of(page)
    assert "Assisted" not in page
    first = _hint(client, game_id, version)
    assert _hint(client, game_id, version) == first  # the same advice again (seeded)
    state = game_state(client, game_id)
    assert len(state.results) == 0 and state.phase is Phase.PASS
    page = client.get(f"/games/{game_id}").text
    assert version_of(page) == version  # the page's forms stay current
    assert 'class="assisted"' in page
    advised = re.findall(r'data-cards="([^"]*)"', first)[0].split()
    moved = client.post(
        f"/games/{game_id}/pass", data={"version": version, "cards": advised}, headers=HX
    )
    assert moved.status_code == 200
    assert 'class="assisted"' in client.get(f"/history/{game_id}").text
    assert client.get(f"/history/{game_id}/game.json").json()["game"]["assisted"] is True


def test_a_hint_for_a_card(client: TestClient) -> None:
    game_id = start(client)
    page = client.get(f"/games/{game_id}").text
    state = game_state(client, game_id)
    assert state.hand is not None
    cards = [str(c) for c in state.hand.hands[0][:3]]
    client.post(
        f"/games/{game_id}/pass", data={"version": version_of(page), "cards": cards}, headers=HX
    )
    state = game_state(client, game_id)
    assert state.phase is Phase.PLAY and 0 in to_act(state)
    page = client.get(f"/games/{game_id}").text
    box = _hint(client, game_id, version_of(page))
    advised = re.findall(r'data-cards="([^"]*)"', box)[0].split()
    assert len(advised) == 1 and "Hard would play" in box


def test_without_scripts_the_page_opens_with_the_hint(client: TestClient) -> None:
    game_id = start(client)
    version = version_of(client.get(f"/games/{game_id}").text)
    page = _hint(client, game_id, version, htmx=False)
    assert 'id="table"' in page and '<div class="coach-box"' in page


def test_a_stale_or_unreadable_hint_request_changes_nothing(client: TestClient) -> None:
    game_id = start(client)
    version = version_of(client.get(f"/games/{game_id}").text)
    stale = client.post(f"/games/{game_id}/hint", data={"version": version - 1}, headers=HX)
    assert stale.status_code == 409
    assert stale.headers["HX-Retarget"] == "#table" and 'id="table"' in stale.text
    for bad in ("", "²", "9" * 5000, "-1"):
        response = client.post(f"/games/{game_id}/hint", data={"version": bad}, headers=HX)
        assert response.status_code in (400, 409), bad
    assert client.post(f"/games/{game_id}/hint", data={}, headers=HX).status_code == 400
    page = client.get(f"/games/{game_id}").text
    assert 'class="assisted"' not in page and version_of(page) == version


def test_no_hint_in_a_game_that_takes_no_more_decisions(client: TestClient) -> None:
    game_id = start(client)
    version = version_of(client.get(f"/games/{game_id}").text)
    start(client)  # a new game abandons the first
    response = client.post(f"/games/{game_id}/hint", data={"version": version}, headers=HX)
    assert response.status_code == 409
    assert "coach-box" not in response.text and "moved on" in response.text


def test_another_browsers_game_has_no_hint(client: TestClient) -> None:
    game_id = start(client)
    version = version_of(client.get(f"/games/{game_id}").text)
    client.cookies.clear()
    response = client.post(f"/games/{game_id}/hint", data={"version": version}, headers=HX)
    assert response.status_code == 404


def test_statistics_keep_assisted_games_apart(client: TestClient) -> None:
    helped = start(client)
    _hint(client, helped, version_of(client.get(f"/games/{helped}").text))
    start(client)  # abandons the first; the second is played without hints
    start(client)

    def played(query: str) -> int:
        page = client.get(f"/stats{query}").text
        found = re.search(r'data-figure="played">([\d,]+)<', page)
        return int(found.group(1)) if found else 0

    def assisted(query: str) -> int:
        page = client.get(f"/stats{query}").text
        found = re.search(r'data-figure="assisted">([\d,]+)<', page)
        assert found is not None
        return int(found.group(1))

    assert (played(""), assisted("")) == (3, 1)
    assert (played("?hints=with"), assisted("?hints=with")) == (1, 1)
    assert (played("?hints=without"), assisted("?hints=without")) == (2, 0)
    page = client.get("/stats?hints=maybe").text
    assert "Unknown choice of hints" in page and played("?hints=maybe") == 3
    page = client.get("/stats").text
    heads = re.findall(r'<th scope="col" data-apart="\d">([^<]+)</th>', page)
    assert heads == ["Without hints", "With hints"]
    row = re.search(r'<tr data-row="apart-played">(.*?)</tr>', page)
    assert row is not None and re.findall(r"<td>([\d,]+)</td>", row.group(1)) == ["2", "1"]
    assert "data-apart" not in client.get("/stats?hints=with").text  # already apart
    history = client.get("/history?hints=with").text
    assert re.findall(r'data-game="(\d+)"', history) == [str(helped)]
    assert 'option value="with" selected' in history


def test_hint_posts_need_a_browser_origin(client: TestClient) -> None:
    game_id = start(client)
    version = version_of(client.get(f"/games/{game_id}").text)
    headers = {k: v for k, v in client.headers.items() if k.lower() != "origin"}
    client.headers.clear()
    client.headers.update(headers)
    response = client.post(f"/games/{game_id}/hint", data={"version": version}, headers=HX)
    assert response.status_code == 403
    client.headers.update(BROWSER)


def test_every_reason_has_a_sentence() -> None:
    assert set(REASONS) == coach.REASON_KEYS
