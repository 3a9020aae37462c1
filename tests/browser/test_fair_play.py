"""The Fair play page in the browser: its checker (Web Crypto, no server help) passes a real
game's file and fails a tampered one; the page speaks all four languages, fits a phone (44 px
targets, no sideways scroll, every figure without scrolling its table) and passes axe-core;
every page links to it from its footer."""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from app.services.fairplay import games_figures
from tests.browser.conftest import DESKTOP, PHONE, Server, shot
from tests.browser.test_stats import AXE

FINGER = 44
HEADINGS = {"en": "Fair play", "ru": "Честная игра", "uk": "Чесна гра", "sr": "Поштена игра"}
FOOTER = "footer a[href='/fair-play']"


def _abandoned_game_file(page: Page, server: Server) -> dict[str, Any]:
    """Start a game from the home page, then another (the first is abandoned, its secret
    revealed); the first game's download."""
    ids = []
    for _ in range(2):
        page.goto(server.url + "/")
        page.locator("form.new-game button[type=submit]").first.click()
        page.wait_for_url("**/games/*")
        ids.append(int(page.url.rstrip("/").rsplit("/", 1)[1]))
    response = page.request.get(f"{server.url}/history/{ids[0]}/game.json")
    assert response.ok
    doc: dict[str, Any] = response.json()
    assert doc["fair_play"]["secret"] is not None
    return doc


def _check(page: Page, server: Server, doc: dict[str, Any]) -> list[str]:
    page.goto(server.url + "/fair-play")
    page.fill("#verify-form textarea", json.dumps(doc))
    page.click("#verify-form button[type=submit]")
    page.wait_for_selector("#verify-result[data-done]")
    return [text.strip() for text in page.locator("#verify-result li").all_text_contents()]


def test_the_checker_passes_a_real_game_and_fails_a_tampered_one(
    page: Page, server: Server
) -> None:
    doc = _abandoned_game_file(page, server)
    lines = _check(page, server, doc)
    assert "The secret matches the commitment shown at the start ✓" in lines
    assert "Hand 1: dealt as sealed ✓" in lines
    assert lines[-1] == "Every deal checked: this game was dealt as sealed."
    shot(page, "fair-play-checked")
    forged = json.loads(json.dumps(doc))
    deal = next(a for a in forged["actions"] if a["type"] == "deal")
    deal["hands"][0][0], deal["hands"][2][0] = deal["hands"][2][0], deal["hands"][0][0]
    lines = _check(page, server, forged)
    assert "Hand 1: the cards in the file are not the ones its key deals ✗" in lines
    assert lines[-1] == "This file does not match its seals."
    assert page.locator("#verify-result li.failed").count() >= 2
    forged = json.loads(json.dumps(doc))
    forged["fair_play"]["secret"] = "ab" * 32
    lines = _check(page, server, forged)
    assert lines[0] == "The secret does not match the commitment shown at the start ✗"
    assert lines[-1] == "This file does not match its seals."


@pytest.mark.parametrize("language", list(HEADINGS))
def test_the_page_in_every_language_fits_a_phone(
    browser: Browser, server: Server, language: str
) -> None:
    for size, touch in ((PHONE, True), (DESKTOP, False)):
        context = browser.new_context(viewport=size, has_touch=touch)
        context.add_cookies([{"name": "hearts_lang", "value": language, "url": server.url}])
        page = context.new_page()
        try:
            page.goto(server.url + "/fair-play")
            expect(page.locator("h1")).to_have_text(HEADINGS[language])
            assert page.locator("table.strength-table tbody tr").count() >= 1
            games = page.locator("table.games-table tbody tr")
            assert games.count() == len(games_figures())
            inside = page.locator("table.strength-table").evaluate_all(
                "ts => ts.map(t => t.parentElement.scrollWidth - t.parentElement.clientWidth)"
            )
            assert max(inside) <= 0, f"{language} {size}: a table of figures scrolls {inside} px"
            overflow = page.evaluate(
                "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
            )
            assert overflow <= 0, f"{language} {size}: {overflow} px of sideways scroll"
            for target in (
                "#verify-form button[type=submit]",
                "#verify-form input[type=file]",
                FOOTER,
            ):
                box = page.locator(target).bounding_box()
                assert box is not None and box["height"] >= FINGER, (language, target, box)
            shot(page, f"fair-play-{language}")
        finally:
            context.close()


def test_every_page_links_to_fair_play_and_it_passes_axe_core(
    browser: Browser, server: Server
) -> None:
    context = browser.new_context(viewport=PHONE, bypass_csp=True)
    page = context.new_page()
    try:
        for path in ("/", "/stats", "/history", "/rules", "/settings"):
            page.goto(server.url + path)
            expect(page.locator(FOOTER)).to_be_visible()
        page.locator(FOOTER).click()
        page.wait_for_url("**/fair-play")
        if AXE.exists():
            page.add_script_tag(path=str(AXE))
            result = page.evaluate(
                "async () => await axe.run(document, {resultTypes: ['violations']})"
            )
            serious = [
                v for v in result["violations"] if v.get("impact") in ("serious", "critical")
            ]
            assert not serious, json.dumps(serious, indent=1, default=str)[:3000]
    finally:
        context.close()
