"""The hint in a real browser (issue 11, item 3): the Hint button and the H key show what the
Hard player would do and why, the advised cards are marked in the hand, the box fits a phone,
and the game is then marked assisted in the history and the statistics; in all four languages."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import DESKTOP, PHONE, SETTLED, Server, shot
from tests.browser.test_table import LEGAL, MY_CARDS, new_game

FINGER = 44
BOX = "#coach .coach-box"
ADVICE = {
    "en": ("Hard would pass", "Hint"),
    "ru": ("Уровень «Сложный» передал бы", "Подсказка"),
    "uk": ("Рівень «Складний» передав би", "Підказка"),
    "sr": ("Ниво „Тешко” би дао", "Савет"),
}


def _fits(page: Page) -> None:
    """The hint box and button fit the screen: no sideways scroll, a finger-sized button."""
    button = page.locator(".coach-button").bounding_box()
    assert button is not None and button["height"] >= FINGER and button["width"] >= FINGER
    box = page.locator(BOX).bounding_box()
    width = page.viewport_size["width"] if page.viewport_size else DESKTOP["width"]
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
    scroll = page.evaluate("document.documentElement.scrollWidth")
    assert scroll <= width, f"the page scrolls sideways: {scroll} > {width}"


def test_a_hint_by_button_and_by_key_and_the_game_is_marked_assisted(
    page: Page, server: Server
) -> None:
    new_game(page, server)
    page.locator(".coach-button").click()
    expect(page.locator(BOX)).to_be_visible()
    expect(page.locator(BOX)).to_contain_text("Hard would pass")
    reason = page.locator(f"{BOX} .coach-reason").inner_text()
    assert len(reason) > 10
    advised = (page.locator(BOX).get_attribute("data-cards") or "").split()
    assert len(advised) == 3
    marked = page.locator(".you .card.hinted")
    expect(marked).to_have_count(3)
    assert sorted(m.get_attribute("data-card") or "" for m in marked.all()) == sorted(advised)
    _fits(page)
    shot(page, "hint-pass")

    for code in advised:  # take the advice
        page.locator(f"label[data-card='{code}']").click(position={"x": 6, "y": 24})
    page.locator(".pass-button").click()
    page.wait_for_function(f"() => {SETTLED} && document.querySelector('{LEGAL}') !== null")
    expect(page.locator(BOX)).to_have_count(0)  # the table moved on: the old advice is gone
    page.locator("body").press("h")
    expect(page.locator(BOX)).to_contain_text("Hard would play")
    expect(page.locator(".you .card.hinted")).to_have_count(1)
    played = page.locator(".you .card.hinted").get_attribute("data-card")
    assert played is not None
    _fits(page)
    shot(page, "hint-play")
    cards = page.locator(MY_CARDS).count()
    page.locator(f".play-form button[data-card='{played}']").click(position={"x": 6, "y": 24})
    if page.locator(f".play-form button[data-card='{played}'].lifted").count():
        page.locator(f".play-form button[data-card='{played}']").click(position={"x": 6, "y": 24})
    expect(page.locator(MY_CARDS)).to_have_count(cards - 1)

    page.goto(server.url + "/history")
    expect(page.locator(".game-item .assisted")).to_have_count(1)
    page.goto(server.url + "/stats?hints=with")
    expect(page.locator('[data-figure="played"]')).to_have_text("1")
    expect(page.locator('[data-figure="assisted"]')).to_have_text("1")
    page.goto(server.url + "/stats?hints=without")
    expect(page.locator('[data-figure="played"]')).to_have_count(0)  # no game without hints
    page.goto(server.url + "/stats")
    expect(page.locator(".apart-table thead th")).to_have_text(["Without hints", "With hints"])
    expect(page.locator('.apart-table tr[data-row="apart-played"] td')).to_have_text(["0", "1"])
    width = page.viewport_size["width"] if page.viewport_size else DESKTOP["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    shot(page, "stats-apart")


@pytest.mark.parametrize("language", ["ru", "uk", "sr"])
def test_the_hint_speaks_every_language(browser: Browser, server: Server, language: str) -> None:
    context = browser.new_context(viewport=PHONE, has_touch=True)
    context.add_cookies([{"name": "hearts_lang", "value": language, "url": server.url}])
    page = context.new_page()
    try:
        page.goto(server.url + "/")
        page.locator("form.new-game button[type=submit]").click()
        expect(page.locator(MY_CARDS)).to_have_count(13)
        advice, button = ADVICE[language]
        expect(page.locator(".coach-button")).to_have_text(button)
        page.locator(".coach-button").tap()
        expect(page.locator(BOX)).to_contain_text(advice)
        reason = page.locator(f"{BOX} .coach-reason").inner_text()
        assert re.search(r"[а-яА-ЯђјљњћџЂЈЉЊЋЏ]", reason), reason  # Cyrillic, not English
        _fits(page)
        shot(page, f"hint-{language}")
    finally:
        context.close()
