"""Playing the same deals again (issue 11, item 6): after a game has ended, "Play these deals
again" deals a new game from its secret; its deal code does the same in another browser; both
new games are marked replayed and the statistics keep them apart. A game in progress gives
away nothing, and no code answers 5xx."""

from __future__ import annotations

import re

import pytest
from sqlalchemy import update
from starlette.testclient import TestClient

from app.store.models import Game
from tests.web.conftest import game_state, sessions_of, start


def dealt(client: TestClient, game_id: int) -> tuple[object, ...]:
    """The first hand's cards as dealt, seat by seat."""
    state = game_state(client, game_id)
    assert state.hand is not None and state.hand_number == 1
    return state.hand.dealt


def stored(client: TestClient, game_id: int) -> Game:
    db = client.app.state.services.db  # type: ignore[attr-defined]
    with db.read() as session:
        game: Game | None = session.get(Game, game_id)
        assert game is not None
        return game


def code_of(client: TestClient, game_id: int) -> str:
    page = client.get(f"/history/{game_id}").text
    found = re.search(r'data-code="(\d+-[0-9a-f]{10})"', page)
    assert found is not None, "no deal code on the game's page"
    return found.group(1)


def test_play_these_deals_again(client: TestClient) -> None:
    first = start(client, "medium")
    second = start(client)  # the first is abandoned: it has ended
    page = client.get(f"/history/{first}").text
    assert f'action="/games/{first}/deals-again"' in page
    response = client.post(f"/games/{first}/deals-again", follow_redirects=False)
    assert response.status_code == 303
    again = int(response.headers["location"].rsplit("/", 1)[1])
    assert again not in (first, second)
    assert dealt(client, again) == dealt(client, first)
    copy, original = stored(client, again), stored(client, first)
    assert copy.replayed and not original.replayed
    assert (copy.seed, copy.deal_secret, copy.header) == (
        original.seed,
        original.deal_secret,
        original.header,
    )
    assert list(copy.seats) == list(original.seats)  # the same computer players
    assert stored(client, second).status == "abandoned"
    # Posted twice (a double click), it starts one game.
    twice = client.post(f"/games/{first}/deals-again", follow_redirects=False)
    assert twice.headers["location"] == f"/games/{again}"
    table = client.get(f"/games/{again}").text
    assert 'class="replayed"' in table
    assert client.get(f"/history/{again}/game.json").json()["game"]["replayed"] is True


def test_a_game_in_progress_gives_nothing_away(client: TestClient) -> None:
    game_id = start(client)
    response = client.post(f"/games/{game_id}/deals-again", follow_redirects=False)
    assert response.status_code == 404
    page = client.get(f"/history/{game_id}").text
    assert "data-code=" not in page and "deals-again" not in page
    table = client.get(f"/games/{game_id}").text
    assert "data-code=" not in table
    # Its code (which its owner could work out from the commitment) opens nothing either.
    commitment = re.search(r'<code class="hex">([0-9a-f]{64})</code>', table)
    assert commitment is not None
    code = f"{game_id}-{commitment.group(1)[:10]}"
    response = client.post("/shared-deals", data={"code": code}, follow_redirects=False)
    assert response.status_code == 400
    assert stored(client, game_id).status == "active"


def test_a_deal_code_plays_the_deals_in_another_browser(client: TestClient) -> None:
    first = start(client, "hard")
    start(client)
    code = code_of(client, first)
    client.cookies.clear()  # another browser
    home = client.get("/").text
    assert 'action="/shared-deals#shared"' in home
    typed = f"  {code.upper()} "
    response = client.post(
        "/shared-deals", data={"code": typed, "fast_play": "on"}, follow_redirects=False
    )
    assert response.status_code == 303
    theirs = int(response.headers["location"].rsplit("/", 1)[1])
    assert dealt(client, theirs) == dealt(client, first)
    game = stored(client, theirs)
    assert game.replayed and game.fast_play and list(game.seats)[1:] == ["hard"] * 3
    assert game.player_id != stored(client, first).player_id
    assert client.get(f"/history/{first}").status_code == 404  # still not their game


@pytest.mark.parametrize(
    "code",
    ["", "abc", "1-", "1-0123456789", "٣-0123456789", "1-012345678g", "9" * 5000, "1" * 13 + "-0"],
)
def test_a_code_that_names_no_deals_is_refused_on_the_home_page(
    client: TestClient, code: str
) -> None:
    before = client.get("/stats").text
    response = client.post("/shared-deals", data={"code": code}, follow_redirects=False)
    assert response.status_code == 400
    assert "names no finished game" in response.text
    assert client.get("/stats").text == before  # no game was started


def test_a_wrong_code_for_a_real_game_is_refused(client: TestClient) -> None:
    first = start(client)
    start(client)
    number, digits = code_of(client, first).split("-")
    wrong = f"{number}-{'0' if digits[0] != '0' else '1'}{digits[1:]}"
    response = client.post("/shared-deals", data={"code": wrong}, follow_redirects=False)
    assert response.status_code == 400


def test_statistics_keep_deals_played_again_apart(client: TestClient) -> None:
    first = start(client)
    start(client)
    client.post(f"/games/{first}/deals-again", follow_redirects=False)

    def figure(query: str, name: str) -> int:
        page = client.get(f"/stats{query}").text
        found = re.search(rf'data-figure="{name}">([\d,]+)<', page)
        return int(found.group(1)) if found else 0

    assert (figure("", "played"), figure("", "replayed")) == (3, 1)
    assert (figure("?deals=again", "played"), figure("?deals=again", "replayed")) == (1, 1)
    assert (figure("?deals=new", "played"), figure("?deals=new", "replayed")) == (2, 0)
    assert "Unknown choice of deals" in client.get("/stats?deals=both").text
    page = client.get("/stats").text
    heads = re.findall(r'<th scope="col" data-apart="\d">([^<]+)</th>', page)
    assert heads == ["New deals", "Deals played again"]
    row = re.search(r'<tr data-row="apart-played">(.*?)</tr>', page)
    assert row is not None and re.findall(r"<td>([\d,]+)</td>", row.group(1)) == ["2", "1"]
    history = client.get("/history?deals=again").text
    assert len(re.findall(r'data-game="(\d+)"', history)) == 1
    assert 'class="replayed"' in history


def test_a_game_dealt_before_verifiable_deals_cannot_be_played_again(client: TestClient) -> None:
    first = start(client)
    start(client)
    with sessions_of(client).begin() as session:
        session.execute(update(Game).where(Game.id == first).values(deal_secret=None))
    assert "deals-again" not in client.get(f"/history/{first}").text
    response = client.post(f"/games/{first}/deals-again", follow_redirects=False)
    assert response.status_code == 404
