"""The review of a hand in a real browser (issue 11, item 4): from the table's end-of-hand panel
to the review of the player's decisions, which fits a phone; in every language."""

from __future__ import annotations

import random
from datetime import UTC, datetime

import pytest
from playwright.sync_api import Browser, BrowserContext, expect

from app.engine import Action, GameState, RuleOptions, apply, legal_actions, new_game, random_deal
from app.store import make_engine, make_sessionmaker, writer
from tests.browser.conftest import DESKTOP, PHONE, Server, new_player, shot
from tests.stats.history import store

TITLES = {
    "en": "Review of hand 1",
    "ru": "Разбор сдачи 1",
    "uk": "Розбір роздачі 1",
    "sr": "Анализа дељења 1",
}


def game_after_its_first_hand(context: BrowserContext, server: Server) -> int:
    """A game stored for the browser whose first hand (passes included) has just been scored."""
    token = new_player(context, server)
    options = RuleOptions.standard()
    rng = random.Random(8)
    deal = random_deal(options, rng)
    state = apply(new_game(options), deal)
    steps: list[tuple[Action, GameState]] = [(deal, state)]
    while not state.results:
        action = rng.choice(legal_actions(state))
        state = apply(state, action)
        steps.append((action, state))
    engine = make_engine(server.database_url)
    try:
        return store(
            make_sessionmaker(writer(engine)), token, options, "easy", steps, datetime.now(UTC)
        )
    finally:
        engine.dispose()


@pytest.mark.parametrize("language", list(TITLES))
def test_the_review_of_a_hand_from_the_table(
    browser: Browser, server: Server, language: str
) -> None:
    for size, touch in ((PHONE, True), (DESKTOP, False)):
        if language != "en" and size is DESKTOP:
            continue
        context = browser.new_context(viewport=size, has_touch=touch)
        context.add_cookies([{"name": "hearts_lang", "value": language, "url": server.url}])
        page = context.new_page()
        try:
            game_id = game_after_its_first_hand(context, server)
            page.goto(f"{server.url}/games/{game_id}")
            link = page.locator(".result .review-link a")
            box = link.bounding_box()
            assert box is not None and box["height"] >= 44
            link.click()
            page.wait_for_url(f"**/history/{game_id}/hands/1/review?from=table")
            expect(page.locator("h1")).to_have_text(TITLES[language])
            rows = page.locator(".review-table tbody tr[data-decision]")
            expect(rows).to_have_count(14)  # the pass and thirteen cards
            assert rows.first.get_attribute("data-decision") == "pass"
            costly = page.locator(".review-table tr.costly").count()
            assert page.locator(".review-table tr.why").count() == costly
            width = size["width"]
            assert page.evaluate("document.documentElement.scrollWidth") <= width
            shot(page, f"review-{language}")
            page.locator(".page-head .actions a.primary").click()  # back to the table
            page.wait_for_url(f"**/games/{game_id}")
        finally:
            context.close()
