"""The Expert level in a real browser: offered beside the other levels on the new-game screen,
with its description, in every language, at phone and desktop sizes (finger-sized choices, no
sideways scroll); a game against it plays its cards like any other level's."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import DESKTOP, PHONE, SETTLED, Server, shot
from tests.browser.test_table import LEGAL, MY_CARDS

FINGER = 44
NAMES = {
    "en": ["Easy", "Medium", "Hard", "Expert"],
    "ru": ["Лёгкий", "Средний", "Сложный", "Эксперт"],
    "uk": ["Легкий", "Середній", "Складний", "Експерт"],
    "sr": ["Лако", "Средње", "Тешко", "Експертски"],
}


def _fits(page: Page) -> None:
    width = page.viewport_size["width"] if page.viewport_size else DESKTOP["width"]
    for label in page.locator("form.new-game .levels label.level").all():
        box = label.bounding_box()
        assert box is not None and box["height"] >= FINGER, box
        assert box["x"] >= 0 and box["x"] + box["width"] <= width, box
    scroll = page.evaluate("document.documentElement.scrollWidth")
    assert scroll <= width, f"the page scrolls sideways: {scroll} > {width}"


@pytest.mark.parametrize("language", sorted(NAMES))
@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_new_game_screen_offers_expert(
    browser: Browser, server: Server, language: str, size: str
) -> None:
    viewport = PHONE if size == "phone" else DESKTOP
    context = browser.new_context(viewport=viewport, has_touch=size == "phone")
    context.add_cookies([{"name": "hearts_lang", "value": language, "url": server.url}])
    page = context.new_page()
    try:
        page.goto(server.url + "/")
        names = page.locator("form.new-game .levels label.level .level-name")
        expect(names).to_have_text(NAMES[language])
        expert = page.locator("form.new-game .levels label.level").nth(3)
        assert len(expert.locator(".level-hint").inner_text()) > 20
        _fits(page)
        page.locator("form.new-game input[name=level][value=expert]").check()
        page.locator("form.new-game").scroll_into_view_if_needed()
        if language in ("en", "sr"):
            shot(page, f"levels-{language}")
    finally:
        context.close()


def test_a_game_against_expert(page: Page, server: Server) -> None:
    page.goto(server.url + "/")
    page.locator("form.new-game input[name=level][value=expert]").check()
    page.locator("form.new-game input[name=fast_play]").check()
    page.locator("form.new-game button[type=submit]").click()
    expect(page.locator(MY_CARDS)).to_have_count(13)
    for label in page.locator(".you label.card").all()[:3]:
        label.click(position={"x": 6, "y": 24})
    page.locator(".pass-button").click()
    page.wait_for_function(f"() => {SETTLED} && document.querySelector('{LEGAL}') !== null")
    cards = page.locator(MY_CARDS).count()
    button = page.locator(LEGAL).first
    button.click(position={"x": 6, "y": 24})
    if page.locator(f"{LEGAL}.lifted").count():
        page.locator(f"{LEGAL}.lifted").first.click(position={"x": 6, "y": 24})
    expect(page.locator(MY_CARDS)).to_have_count(cards - 1)
    page.wait_for_function(f"() => {SETTLED}")
    assert "Expert" in page.content()
    shot(page, "expert-table")


PASS_WORDS = {"en": "more care", "ru": "тщательнее", "uk": "ретельніше", "sr": "пажљивије"}
"""A phrase of the rules page's paragraph on Expert's pass, in each language."""


@pytest.mark.parametrize("language", sorted(PASS_WORDS))
def test_the_rules_page_describes_how_expert_passes(
    browser: Browser, server: Server, language: str
) -> None:
    context = browser.new_context(viewport=PHONE, has_touch=True)
    context.add_cookies([{"name": "hearts_lang", "value": language, "url": server.url}])
    page = context.new_page()
    try:
        page.goto(server.url + "/rules")
        paragraph = page.locator("p", has_text=PASS_WORDS[language])
        expect(paragraph).to_have_count(1)
        # Beside the one on how Expert plays its cards, under the heading on computer players.
        assert paragraph.evaluate("p => p.previousElementSibling.tagName") == "P"
        box = paragraph.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
        scroll = page.evaluate("document.documentElement.scrollWidth")
        assert scroll <= PHONE["width"], f"the page scrolls sideways: {scroll}"
        if language in ("en", "ru"):
            shot(page, f"rules-{language}")
    finally:
        context.close()
