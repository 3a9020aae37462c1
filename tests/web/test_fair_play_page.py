"""The Fair play page over HTTP: in every language, with the recorded strength figures and the
date each was measured; linked from every page's footer; it reads no game and writes nothing.
`bench.strength --record` keeps one row per pair and table."""

from __future__ import annotations

import dataclasses
import json
import math
from datetime import date
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from app.services.fairplay import (
    FIGURES,
    GamesFigure,
    StrengthFigure,
    games_figures,
    strength_figures,
)
from app.web import routes_fair
from bench.strength import GamesResult, record_figures
from tests.web.conftest import start

HEADINGS = {"en": "Fair play", "ru": "Честная игра", "uk": "Чесна гра", "sr": "Поштена игра"}


@pytest.mark.parametrize("language", list(HEADINGS))
def test_the_page_speaks_every_language(client: TestClient, language: str) -> None:
    client.cookies.set("hearts_lang", language)
    page = client.get("/fair-play")
    assert page.status_code == 200
    assert f"<h1>{HEADINGS[language]}</h1>" in page.text
    assert 'id="verify-form"' in page.text and "/static/js/fairplay.js" in page.text
    assert "set-cookie" not in page.headers  # no player is made for reading it


def test_the_page_shows_every_recorded_figure_with_its_date(client: TestClient) -> None:
    figures, games = strength_figures(), games_figures()
    assert figures, f"{FIGURES} holds no figures: run python -m bench.strength --record"
    assert games, f"{FIGURES} holds no games: run python -m bench.strength --games 500 --record"
    recorded = json.loads(FIGURES.read_text())
    assert (len(recorded["pairs"]), len(recorded["games"])) == (len(figures), len(games))
    page = client.get("/fair-play").text
    for figure in figures:
        assert f"{figure.difference:.2f} ± {figure.half_width:.2f}" in page
        assert figure.half_width > 0 and figure.deals >= 100
    for g in games:
        assert f"{100 * g.rate:.1f} % ± {100 * g.half_width:.1f}" in page
        assert g.games >= 500 and 0 < g.half_width < 0.1 and g.parity == 1 / g.players
    for measured in {f.measured for f in figures} | {g.measured for g in games}:
        assert f"{measured:%b} {measured.day}, {measured.year}" in page


def test_every_page_links_to_fair_play_from_its_footer(client: TestClient) -> None:
    game_id = start(client)
    for path in (
        "/",
        "/stats",
        "/history",
        "/rules",
        "/settings",
        f"/games/{game_id}",
        f"/history/{game_id}",
    ):
        html = client.get(path).text
        footer = html.split("<footer", 1)
        assert len(footer) == 2 and 'href="/fair-play"' in footer[1], path


def test_recording_keeps_one_row_per_pair_and_table(tmp_path: Path) -> None:
    path = tmp_path / "strength.json"
    row = {
        "pair": "hard-vs-medium",
        "table": "standard-4",
        "deals": 100,
        "tested": 5.0,
        "others": 8.0,
        "difference": 3.0,
        "half_width": 0.5,
    }
    record_figures([row], date(2026, 1, 2), path)
    record_figures([{**row, "table": "cancellation-8"}], date(2026, 1, 3), path)
    record_figures([{**row, "difference": 3.3}], date(2026, 2, 1), path)
    rows = json.loads(path.read_text())["pairs"]
    assert [(r["table"], r["difference"], r["measured"]) for r in rows] == [
        ("standard-4", 3.3, "2026-02-01"),
        ("cancellation-8", 3.0, "2026-01-03"),
    ]
    figures = strength_figures.__wrapped__(path)
    assert [f.players for f in figures] == [4, 8]
    assert figures[0].tested_level == "hard" and figures[0].other_level == "medium"


def test_the_figures_go_up_the_ladder_of_levels_then_by_game_and_seats(tmp_path: Path) -> None:
    """However they were recorded, the page lists Medium against Easy first and Expert's
    figures last, each level's tables the standard game's first, by seats (7 after 3)."""
    path = tmp_path / "strength.json"
    row = {"deals": 100, "tested": 5.0, "others": 6.0, "difference": 1.0, "half_width": 0.5}
    recorded = [
        ("expert-vs-hard", "cancellation-8"),
        ("expert-vs-hard", "standard-7"),
        ("hard-vs-medium", "standard-4"),
        ("expert-vs-hard", "omnibus-4"),
        ("expert-vs-hard", "standard-3"),
        ("medium-vs-easy", "standard-4"),
        ("expert-vs-hard", "cancellation-11"),
    ]
    for pair, table in recorded:
        record_figures([{**row, "pair": pair, "table": table}], date(2026, 1, 2), path)
    figures = strength_figures.__wrapped__(path)
    assert [(f.tested_level, f.variant, f.players) for f in figures] == [
        ("medium", "standard", 4),
        ("hard", "standard", 4),
        ("expert", "standard", 3),
        ("expert", "standard", 7),
        ("expert", "omnibus", 4),
        ("expert", "cancellation", 8),
        ("expert", "cancellation", 11),
    ]
    shipped = json.loads(FIGURES.read_text())
    again = tmp_path / "again.json"
    for kind in ("pairs", "games"):
        again.write_text(json.dumps({kind: shipped[kind][::-1]}))
        record_figures([], date(2026, 1, 2), again, kind=kind)
        assert json.loads(again.read_text())[kind] == shipped[kind]  # the shipped file is in order


GAMES = {
    "en": ("Games won", "1,000 games", "an equal player wins 33.3\xa0%"),
    "ru": ("Выиграно партий", "1\xa0000 партий", "равный по силе игрок выигрывает 33.3\xa0%"),
    "uk": ("Виграно ігор", "1\xa0000 ігор", "рівний за силою гравець виграє 33.3\xa0%"),
    "sr": ("Добијено партија", "1.000 партија", "једнако јак играч добија 33.3\xa0%"),
}


@pytest.mark.parametrize("language", list(GAMES))
def test_a_share_of_games_won_reads_in_every_language(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, language: str
) -> None:
    figure = GamesFigure("expert", "hard", "standard-3", 1000, 0.41, 0.031, 1 / 3, date(2027, 1, 2))
    monkeypatch.setattr(routes_fair, "games_figures", lambda: (figure,))
    client.cookies.set("hearts_lang", language)
    page = client.get("/fair-play").text
    heading, games, parity = GAMES[language]
    assert f'<th scope="col" role="columnheader">{heading}</th>' in page
    assert "<strong>41.0 % ± 3.1</strong>" in page
    assert games in page and parity in page and "2027" in page


OMNIBUS = {"en": "Omnibus", "ru": "Омнибус", "uk": "Омнібус", "sr": "Омнибус"}


@pytest.mark.parametrize("language", list(OMNIBUS))
def test_a_figure_of_omnibus_names_its_table(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, language: str
) -> None:
    figure = StrengthFigure(
        "expert", "hard", "omnibus-4", 400, 4.0, 4.6, 0.6, 0.39, date(2027, 1, 2)
    )
    monkeypatch.setattr(routes_fair, "strength_figures", lambda: (figure,))
    client.cookies.set("hearts_lang", language)
    page = client.get("/fair-play").text
    assert "<strong>0.60 ± 0.39</strong>" in page
    assert f" · {OMNIBUS[language]}</td>" in page


def test_without_games_recorded_the_page_shows_no_games_table(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(routes_fair, "games_figures", tuple)
    page = client.get("/fair-play").text
    assert "games-table" not in page and "strength-table" in page


def test_recording_games_keeps_the_points_and_one_row_per_pair_and_table(tmp_path: Path) -> None:
    path = tmp_path / "strength.json"
    deals = {"pair": "expert-vs-hard", "table": "standard-4", "deals": 300, "tested": 6.0}
    record_figures(
        [{**deals, "others": 7.0, "difference": 1.0, "half_width": 0.2}], date(2026, 1, 1), path
    )
    shares = [1.0, 0.0, 0.5, 0.0, 1.0, 0.0, 0.0, 0.0]
    result = GamesResult.of(shares, 4)
    assert (result.games, result.won, result.rate, result.parity) == (8, 2.5, 2.5 / 8, 0.25)
    assert result.half_width == pytest.approx(1.96 * math.sqrt(2.5 / 8 * 5.5 / 8 / 8))
    row = {"pair": "expert-vs-hard", "table": "standard-4", **dataclasses.asdict(result)}
    record_figures([row], date(2026, 1, 2), path, kind="games")
    record_figures([{**row, "rate": 0.3}], date(2026, 1, 3), path, kind="games")
    record_figures(
        [{**row, "table": "standard-3", "parity": 1 / 3}], date(2026, 1, 4), path, kind="games"
    )
    known = json.loads(path.read_text())
    assert [(r["table"], r["measured"]) for r in known["pairs"]] == [("standard-4", "2026-01-01")]
    assert [(r["table"], r["rate"], r["measured"]) for r in known["games"]] == [
        ("standard-3", 2.5 / 8, "2026-01-04"),
        ("standard-4", 0.3, "2026-01-03"),
    ]
    games = games_figures.__wrapped__(path)
    assert [(g.players, g.games, g.parity) for g in games] == [(3, 8, 1 / 3), (4, 8, 0.25)]
    assert games[1].tested_level == "expert" and games[1].variant == "standard"
    assert strength_figures.__wrapped__(path)[0].difference == 1.0
