"""Every table and rule option through the new-game form; the moon choice; the seat layout."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from app.engine import (
    Deal,
    GameHeader,
    MoonScoring,
    Phase,
    RuleOptions,
    apply,
    cards,
    legal_cards,
    new_game,
    to_act,
)
from app.store import repository
from app.store.models import Player
from app.web import layout
from tests.web.conftest import game_state, new_player, sessions_of, version_of

REPO = Path(__file__).resolve().parents[2]


def start(client: TestClient, form: dict[str, str]) -> int:
    response = client.post("/games", data={"level": "easy", **form}, follow_redirects=False)
    assert response.status_code == 303, response.text[:300]
    return int(response.headers["location"].rsplit("/", 1)[1])


@pytest.mark.parametrize(
    ("form", "seats", "keys"),
    [
        ({"preset": "standard", "players_standard": "3"}, 3, "SWE"),
        ({"preset": "standard", "players_standard": "5"}, 5, "ABCDE"),
        ({"preset": "standard", "players_standard": "7"}, 7, "ABCDEFG"),
        ({"preset": "cancellation", "players_cancellation": "6"}, 6, "ABCDEF"),
        ({"preset": "cancellation", "players_cancellation": "11"}, 11, "ABCDEFGHIJK"),
    ],
)
def test_every_table_size_starts_with_its_seats(
    client: TestClient, form: dict[str, str], seats: int, keys: str
) -> None:
    game_id = start(client, form)
    state = game_state(client, game_id)
    assert state.num_players == seats
    html = client.get(f"/games/{game_id}").text
    assert f"seats-{seats}" in html
    assert sorted(re.findall(r'data-seat="(\w)"', html)) == sorted(keys)
    assert state.hand is not None
    assert len(re.findall(r'data-card="\w\w"', html)) == len(state.hand.hands[0])


def test_options_are_read_fixed_and_shown(client: TestClient) -> None:
    form = {
        "preset": "standard",
        "players_standard": "4",
        "omnibus": "true",
        "omnibus_bonus_card": "TD",
        "moon_scoring": "choice",
        "target_score": "50",
        "qs_lead_requires_broken": "true",
        "tie_rule": "shared",
    }
    game_id = start(client, form)
    options = game_state(client, game_id).options
    assert options == RuleOptions.standard(
        omnibus=True,
        omnibus_bonus_card="TD",
        moon_scoring="choice",
        target_score=50,
        qs_lead_requires_broken=True,
        tie_rule="shared",
    )
    html = client.get(f"/games/{game_id}").text
    assert "Ten of diamonds" in html and "The shooter chooses" in html
    assert "Only after hearts are broken" in html


@pytest.mark.parametrize(
    ("form", "message"),
    [
        ({"preset": "standard", "players_standard": "3", "pass_cycle": "LRAH"}, "four players"),
        ({"preset": "cancellation", "omnibus": "true"}, "not offered"),
        ({"preset": "standard", "players_standard": "9"}, "3 to 7"),
        ({"preset": "cancellation", "players_cancellation": "5"}, "6 to 11"),
        ({"preset": "poker"}, "Unknown preset"),
        ({"preset": "standard", "target_score": "75"}, "not offered"),
    ],
)
def test_invalid_tables_are_refused_with_a_message(
    client: TestClient, form: dict[str, str], message: str
) -> None:
    response = client.post("/games", data={"level": "easy", **form}, follow_redirects=False)
    assert response.status_code == 400
    assert message in response.text
    assert 'role="alert"' in response.text


def test_rules_page_follows_the_table(client: TestClient) -> None:
    standard = client.get("/rules").text
    assert "2♣" in standard and "two 52-card decks" not in standard
    cancellation = client.get("/rules?preset=cancellation&players=9").text
    assert "two 52-card decks" in cancellation and "cancel each other" in cancellation
    game_id = start(client, {"preset": "standard", "players_standard": "5"})
    five = client.get(f"/rules?game={game_id}").text
    assert "3♣" in five and "without 2♣, 2♦" in five
    assert '<option value="cancellation" selected>' in cancellation
    assert '<option value="9" selected>' in cancellation
    counts = re.findall(r'<option value="(\d+)"', standard)
    assert counts == [str(n) for n in range(3, 12)]  # every table any preset offers


def test_human_shooter_chooses_how_the_moon_scores(client: TestClient) -> None:
    """R12.5, Q-07: holding all thirteen clubs, South takes every card; the page asks with two
    buttons showing the resulting totals, and the choice is applied."""
    token = new_player(client)
    options = RuleOptions.standard(pass_cycle="none", moon_scoring="choice")
    header = GameHeader(options)
    deal = Deal(
        [
            cards("2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC"),
            cards("2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD"),
            cards("2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS"),
            cards("2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH"),
        ]
    )
    with sessions_of(client).begin() as session:
        player = session.get(Player, token)
        assert player is not None
        game = repository.create_game(session, player, header, ["human"] + ["easy"] * 3, 1, True)
        repository.append_actions(session, game, [deal], apply(new_game(options), deal))
        game_id = game.id
    state = game_state(client, game_id)
    while state.phase is not Phase.MOON_CHOICE:
        version = version_of(client.get(f"/games/{game_id}").text)
        assert 0 in to_act(state)  # the computers played up to South's next card
        data = {"version": str(version), "card": str(legal_cards(state, 0)[0])}
        client.post(f"/games/{game_id}/play", data=data)
        state = game_state(client, game_id)
    html = client.get(f"/games/{game_id}").text
    assert "You shot the moon!" in html
    assert html.count('name="scoring"') == 2
    assert "Add 26 to everyone else" in html and "Take 26 off my score" in html
    version = version_of(html)
    client.post(
        f"/games/{game_id}/moon",
        data={"version": str(version), "scoring": MoonScoring.SUBTRACT_FROM_SELF.value},
    )
    final = game_state(client, game_id)
    assert final.results[-1].shooter == 0
    assert final.totals == (-26, 0, 0, 0)


def test_seat_positions_stylesheet_is_current() -> None:
    """`static/css/seats.css` is what `python -m app.web.layout` writes."""
    assert (REPO / "static" / "css" / "seats.css").read_text() == layout.stylesheet()
