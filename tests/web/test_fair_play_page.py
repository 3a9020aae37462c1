"""The Fair play page over HTTP: in every language, with the recorded strength figures and the
date each was measured; linked from every page's footer; it reads no game and writes nothing.
`bench.strength --record` keeps one row per pair and table."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from app.services.fairplay import FIGURES, strength_figures
from bench.strength import record_figures
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
    figures = strength_figures()
    assert figures, f"{FIGURES} holds no figures: run python -m bench.strength --record"
    rows = json.loads(FIGURES.read_text())["pairs"]
    assert len(rows) == len(figures)
    page = client.get("/fair-play").text
    for figure in figures:
        assert f"{figure.difference:.2f} ± {figure.half_width:.2f}" in page
        assert str(figure.measured.year) in page
        assert figure.half_width > 0 and figure.deals >= 100


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
        ("cancellation-8", 3.0, "2026-01-03"),
        ("standard-4", 3.3, "2026-02-01"),
    ]
    figures = strength_figures.__wrapped__(path)
    assert [f.players for f in figures] == [8, 4]
    assert figures[1].tested_level == "hard" and figures[1].other_level == "medium"
