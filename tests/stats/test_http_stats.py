"""The statistics page, the history, the replay and the JSON download over HTTP, on the prepared
history (a moon, an Omnibus game, a Cancellation game, a shared win, an abandoned game and a game
in progress), on SQLite and PostgreSQL."""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from app.engine import (
    Card,
    GameHeader,
    GameState,
    Phase,
    RuleOptions,
    action_from_json,
    card,
    points_of,
    replay,
)
from app.settings import Settings
from app.web.main import create_app
from app.web.stats_view import number, percent
from tests.stats.expected import Expected, expected_figures, stored_games
from tests.stats.history import History, month, play, store
from tests.stats.pages import read_figures, subjects
from tests.web.conftest import game_state, new_player, sessions_of

SUBJECT_ORDER = ("human", "easy", "medium", "hard")


def _expected(client: TestClient, include: set[int] | None = None) -> dict[str, Expected]:
    token = client.cookies.get("hearts_session")
    assert token
    with sessions_of(client)() as session:
        return expected_figures(stored_games(session, token), include)


def _cells_for(e: Expected, places: int) -> dict[str, str]:
    """What each figure cell of a subject must read."""
    current, longest = e.streaks
    share = Fraction(e.zero_hands, e.hands) if e.hands else None
    cells = {
        "played": number(e.played),
        "finished": number(e.finished),
        "abandoned": number(e.abandoned),
        "active": number(e.active),
        "won": number(e.wins),
        "win-rate": percent(e.win_rate),
        "current-streak": number(current),
        "longest-streak": number(longest),
        "average-final": number(e.average_final),
        "best": number(min(e.finals)) if e.finals else "—",
        "worst": number(max(e.finals)) if e.finals else "—",
        "hands": number(e.hands),
        "points-per-hand": number(e.points_per_hand),
        "zero-hands": f"{number(e.zero_hands)} {percent(share)}",
        "queens": number(e.queens),
        "hearts": number(e.hearts),
        "moons-shot": number(e.moons_shot),
        "moons-suffered": number(e.moons_suffered),
    }
    for place in range(1, places + 1):
        cells[f"place-{place}"] = number(e.places.get(place, 0))
    return cells


def test_every_figure_for_you_and_each_computer_level(
    client: TestClient, browser_history: History
) -> None:
    del browser_history
    response = client.get("/stats")
    assert response.status_code == 200
    html = response.text
    expected = _expected(client)
    assert subjects(html) == [k for k in SUBJECT_ORDER if k in expected]
    assert subjects(html) == ["human", "easy", "medium", "hard"]
    figures = read_figures(html)
    for kind, e in expected.items():
        for row, text in _cells_for(e, 8).items():
            assert figures.cells[(row, kind)] == text, (row, kind)
        for direction, (hands, points) in e.by_direction.items():
            cell = figures.cells[(f"direction-{direction}", kind)]
            assert cell.startswith(number(Fraction(points, hands)) + " ")
            assert f"{hands} hand" in cell
        bonus = figures.cells[("bonus", kind)]
        if e.omnibus_hands:
            assert bonus == f"{number(e.bonus_cards)} in {e.omnibus_hands} hands"
        else:
            assert bonus == "—"
    human = expected["human"]
    assert figures.tiles["played"] == "6"
    assert figures.tiles["won"] == number(human.wins)
    assert figures.tiles["win-rate"] == percent(human.win_rate)
    assert figures.tiles["longest-streak"] == number(human.streaks[1])
    # The prepared history shows up in the figures: the moon, the shared win, the abandoned game.
    assert human.moons_shot >= 2 and figures.cells[("moons-shot", "human")] != "0"
    assert figures.cells[("abandoned", "hard")] == "3"  # three Hard seats in the abandoned game
    assert figures.cells[("active", "human")] == "1"
    for text in (
        "Queens of spades taken",
        "Hearts taken",
        "Bonus card taken (Omnibus)",
        "Moons suffered",
        "Passing left",
        "No passing",
        "Each computer seat",
    ):
        assert text in html
    assert "A game that is lost or abandoned ends the streak." in html


def test_the_charts_are_svg_with_text_alternatives(
    client: TestClient, browser_history: History
) -> None:
    html = client.get("/stats").text
    for chart in ("final-chart", "points-chart"):
        svg = re.search(rf'<svg class="chart" id="{chart}"[^>]*>(.*?)</svg>', html, re.S)
        assert svg is not None, chart
        assert 'role="img"' in svg.group(0) and f'aria-labelledby="{chart}-title' in svg.group(0)
        assert f'<title id="{chart}-title">' in svg.group(1)
        assert f'<desc id="{chart}-desc">' in svg.group(1)
    finals = re.search(r'id="final-chart".*?</svg>', html, re.S)
    assert finals is not None
    assert finals.group(0).count('class="dot') == 4  # the four finished games
    expected = _expected(client)
    bars = re.findall(r'<rect class="bar"[^>]*><title>([^<]*)</title>', html)
    assert sum(int(b.rsplit(": ", 1)[1]) for b in bars) == expected["human"].hands
    assert html.count('<table class="data">') >= 2  # the numbers behind both charts
    page = client.get(f"/history/{browser_history.moon}").text
    running = re.search(r'<svg class="chart" id="running-chart".*?</svg>', page, re.S)
    assert running is not None
    assert running.group(0).count('class="series series-') == 4
    assert 'class="target-line"' in running.group(0)
    assert 'class="legend"' in page


def test_filters_by_difficulty_table_and_dates(
    client: TestClient, browser_history: History
) -> None:
    h = browser_history
    cases = [
        ("level=easy", {h.cancellation}, ["human", "easy"]),
        ("level=hard", {h.moon, h.shared, h.abandoned, h.active}, ["human", "hard"]),
        ("table=standard-4", {h.moon, h.omnibus, h.shared, h.abandoned, h.active}, None),
        ("since=2026-02-01&until=2026-03-31", {h.omnibus, h.cancellation}, None),
    ]
    for query, ids, columns in cases:
        html = client.get(f"/stats?{query}").text
        expected = _expected(client, ids)
        if columns:
            assert subjects(html) == columns
        figures = read_figures(html)
        for kind, e in expected.items():
            assert figures.cells[("played", kind)] == number(e.played), (query, kind)
            assert figures.cells[("points-per-hand", kind)] == number(e.points_per_hand)
        listed = re.findall(r'data-game="(\d+)"', client.get(f"/history?{query}").text)
        assert sorted(map(int, listed)) == sorted(ids), query
    bad = client.get("/stats?level=godlike&since=someday")
    assert bad.status_code == 200
    assert "Unknown difficulty" in bad.text and "was not understood" in bad.text
    none = client.get("/stats?table=standard-7")
    assert "No game matches these filters." in none.text


def test_history_lists_every_game_with_its_result(
    client: TestClient, browser_history: History
) -> None:
    h = browser_history
    html = client.get("/history").text
    listed = [int(x) for x in re.findall(r'data-game="(\d+)"', html)]
    assert listed == h.all[::-1]  # newest first
    item = {
        game_id: re.search(rf'data-game="{game_id}".*?</li>', html, re.S).group(0)  # type: ignore[union-attr]
        for game_id in listed
    }
    assert "Abandoned" in item[h.abandoned]
    assert "In progress" in item[h.active]
    assert "Shared win" in item[h.shared]
    assert "Cancellation Hearts · 8 players" in item[h.cancellation]
    assert "Omnibus" in item[h.omnibus]
    for game_id in listed:
        assert f'href="/history/{game_id}"' in item[game_id]
    state = game_state(client, h.moon)
    assert f"Your score: {state.totals[0]}" in item[h.moon]


def test_a_game_page_has_its_score_sheet_replays_and_download(
    client: TestClient, browser_history: History
) -> None:
    h = browser_history
    state = game_state(client, h.moon)
    html = client.get(f"/history/{h.moon}").text
    for r in state.results:
        assert f'href="/history/{h.moon}/hands/{r.number}"' in html
    assert html.count('class="moon-cell"') >= 1
    assert f'href="/history/{h.moon}/game.json"' in html
    totals = re.findall(r'data-standing="\d+">\s*<th[^>]*>.*?</th>\s*<td>(-?\d+)</td>', html, re.S)
    assert [int(t) for t in totals] == list(state.totals)
    active = client.get(f"/history/{h.active}").text
    assert f'href="/games/{h.active}"' in active  # "Continue this game"
    assert "being played" in active


def test_replay_of_the_moon_hand_trick_by_trick(
    client: TestClient, browser_history: History
) -> None:
    h = browser_history
    state = game_state(client, h.moon)
    hand4 = state.results[3]
    assert hand4.shooter == 0
    html = client.get(f"/history/{h.moon}/hands/4?trick=1").text
    assert "shot the moon" in html
    # Every seat's dealt cards are shown (a finished hand), and nothing is hidden.
    assert ">hidden<" not in html
    assert html.count("data-seat-cards=") == 4
    actions = _actions(client, h.moon)
    deals = [a for a in actions if a["type"] == "deal"]
    plays = _hand_plays(actions, 4)
    first_trick = re.findall(r'class="trick-card[^"]*" data-played="(\w\w)"', html)
    assert first_trick == plays[:4]
    dealt = deals[3]["hands"]
    assert isinstance(dealt, list)
    for hand in dealt:
        for code in hand:
            assert f">{_label(code)}<" in html
    last = client.get(f"/history/{h.moon}/hands/4").text
    assert re.findall(r'class="trick-card[^"]*" data-played="(\w\w)"', last) == plays[-4:]
    assert 'aria-current="step">13<' in last
    # Every trick in one list, in the table's own lines (its trick history's macro), with the
    # points the engine counts for each (the download's).
    doc = client.get(f"/history/{h.moon}/game.json").json()
    rows = re.findall(r'<li value="(\d+)">.*?</li>', last, re.S)
    assert rows == [str(n) for n in range(1, 14)]
    taken = re.findall(r'<span class="taken">→ ([^<(]+?)(?: \((-?\d+)\))?</span>', last)
    points = [t["points"] for t in doc["hands"][3]["tricks"]]
    assert [int(p or 0) for _, p in taken] == points
    middle = client.get(f"/history/{h.moon}/hands/4?trick=7").text
    assert 'aria-current="step">7<' in middle
    cards_before = re.search(r'data-seat-cards="0">.*?</tr>', middle, re.S)
    assert cards_before is not None
    assert cards_before.group(0).count('class="mini') == 7  # 13 dealt, 6 played


def test_replay_of_the_hand_being_played_shows_only_your_cards(
    client: TestClient, browser_history: History
) -> None:
    h = browser_history
    state = game_state(client, h.active)
    assert state.hand is not None and state.hand.number == 2 and not state.is_over
    html = client.get(f"/history/{h.active}/hands/2").text
    assert "still being played" in html
    assert_no_hidden_card(html, state)
    assert html.count(">hidden<") >= 3 * 2  # dealt and held cards of the three others
    for code in state.hand.dealt[0]:
        assert f">{_label(str(code))}<" in html
    # The finished first hand of the same game is shown whole.
    first = client.get(f"/history/{h.active}/hands/1").text
    assert ">hidden<" not in first
    # The JSON of an active game stops at the end of its last scored hand.
    doc = client.get(f"/history/{h.active}/game.json").json()
    assert doc["game"]["complete"] is False
    assert sum(a["type"] == "deal" for a in doc["actions"]) == 1  # hand 2's deal is left out
    assert [hand["number"] for hand in doc["hands"]] == [1]
    replayed = replay(GameHeader.from_json(doc["header"]), map(action_from_json, doc["actions"]))
    assert replayed.phase is Phase.DEAL and replayed.results == state.results


def test_json_download_replays_to_the_stored_game(
    client: TestClient, browser_history: History
) -> None:
    h = browser_history
    for game_id in (h.moon, h.omnibus, h.cancellation, h.shared, h.abandoned):
        response = client.get(f"/history/{game_id}/game.json")
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("application/json")
        assert "attachment" in response.headers["content-disposition"]
        doc = response.json()
        assert (doc["format"], doc["format_version"]) == ("hearts-game", 1)
        header = GameHeader.from_json(doc["header"])
        replayed = replay(header, [action_from_json(a) for a in doc["actions"]])
        stored = game_state(client, game_id)
        assert replayed == stored
        assert doc["totals"] == list(stored.totals) and doc["winners"] == list(stored.winners)
        assert len(doc["hands"]) == stored.hand_number
        for hand, result in zip(doc["hands"], stored.results, strict=False):
            assert hand["result"]["points"] == list(result.points)
            assert hand["result"]["totals"] == list(result.totals)
            plays = [p["card"] for t in hand["tricks"] for p in t["plays"]]
            dealt = sorted(c for seat in hand["deal"]["hands"] for c in seat)
            assert sorted(plays) == dealt  # every card of the deal was played once
    omnibus = client.get(f"/history/{h.omnibus}/game.json").json()
    assert omnibus["header"]["options"]["omnibus"] is True
    abandoned = client.get(f"/history/{h.abandoned}/game.json").json()
    assert abandoned["hands"][-1]["result"] is None  # the hand it was abandoned in


@pytest.mark.parametrize("leftover", ["first_trick_winner", "last_trick_winner"])
def test_trick_points_are_what_the_collector_took_kitty_included(
    client: TestClient, leftover: str
) -> None:
    """In a Cancellation game with a kitty, a trick's points count the kitty that went with it:
    the collected tricks' points and the points nobody took add up to the whole pack's."""
    token = new_player(client)
    options = RuleOptions.cancellation(7, target_score=50, cancel_leftover_to=leftover)
    sessions = sessions_of(client)
    game_id = store(sessions, token, options, "easy", play(options, 11), month(7))
    doc = client.get(f"/history/{game_id}/game.json").json()
    kitty_points = 0
    for hand in doc["hands"]:
        assert len(hand["deal"]["kitty"]) == 6
        pack = [card(c) for cards in (*hand["deal"]["hands"], hand["deal"]["kitty"]) for c in cards]
        collected = sum(t["points"] for t in hand["tricks"] if t["collector"] is not None)
        assert collected + hand["result"]["uncollected_points"] == points_of(options, pack)
        kitty_points += points_of(options, [card(c) for c in hand["deal"]["kitty"]])
    assert kitty_points > 0  # the kitty carried points in some hand


def test_another_players_games_are_not_found(
    client: TestClient, browser_history: History, database_url: str
) -> None:
    h = browser_history
    other = TestClient(create_app(Settings(database_url=database_url, secure_cookies=False)))
    for game_id in h.all:
        for path in (
            f"/history/{game_id}",
            f"/history/{game_id}/hands/1",
            f"/history/{game_id}/game.json",
        ):
            assert other.get(path).status_code == 404, path
    assert 'data-game="' not in other.get("/history").text
    assert "No games yet" in other.get("/stats").text
    for path in (
        "/history/abc",
        "/history/999999",
        f"/history/{h.moon}/hands/0",
        f"/history/{h.moon}/hands/99",
        f"/history/{h.moon}/hands/x",
        "/history/99999999999999999999999/game.json",
    ):
        assert client.get(path).status_code == 404, path
    assert client.get(f"/history/{h.moon}/hands/1?trick=999").status_code == 200


def test_pages_keep_the_content_security_policy(
    client: TestClient, browser_history: History
) -> None:
    h = browser_history
    stylesheet = client.app.state.templates.env.globals["static_url"]("css/stats.css")  # type: ignore[attr-defined]
    for path in (
        "/stats",
        "/history",
        f"/history/{h.cancellation}",
        f"/history/{h.cancellation}/hands/1?trick=3",
        f"/history/{h.omnibus}/hands/2",
    ):
        response = client.get(path)
        assert response.status_code == 200, path
        assert " style=" not in response.text and "<script>" not in response.text
        assert f'<link rel="stylesheet" href="{stylesheet}">' in response.text
    assert client.get(stylesheet).status_code == 200


def test_game_over_panel_links_to_the_statistics() -> None:
    table = (Path(__file__).resolve().parents[2] / "templates/partials/table.html").read_text()
    assert 'href="/stats"' in table


# --- helpers ----------------------------------------------------------------------------------


def hidden_cards(state: GameState) -> set[Card]:
    """Cards South may not know in the hand being played: the others' unplayed cards, except
    those South dealt to itself and passed on (it knows where those went)."""
    hand = state.hand
    assert hand is not None
    others = {c for seat, cards in enumerate(hand.hands) if seat != 0 for c in cards}
    if hand.kitty_collector != 0:
        others.update(hand.kitty)
    known = set(hand.dealt[0]) | set(hand.hands[0]) | {c for _, c in hand.current}
    known |= {c for t in hand.tricks for c in t.cards}
    return others - known


def assert_no_hidden_card(text: str, state: GameState) -> None:
    """No hidden card appears as a card on the page."""
    for c in hidden_cards(state):
        for needle in (f">{c.label}<", f'data-played="{c}"', f'data-card="{c}"'):
            assert needle not in text, f"{c} leaked as {needle!r}"


def _actions(client: TestClient, game_id: int) -> list[dict[str, object]]:
    doc = client.get(f"/history/{game_id}/game.json").json()
    actions: list[dict[str, object]] = doc["actions"]
    return actions


def _hand_plays(actions: list[dict[str, object]], number: int) -> list[str]:
    hand = 0
    plays: list[str] = []
    for a in actions:
        if a["type"] == "deal":
            hand += 1
        elif a["type"] == "play" and hand == number:
            plays.append(str(a["card"]))
    return plays


def _label(code: str) -> str:
    rank = "10" if code[0] == "T" else code[0]
    return rank + {"C": "♣", "D": "♦", "S": "♠", "H": "♥"}[code[1]]
