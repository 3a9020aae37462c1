"""Finish a game in the browser, then find it in the statistics and the history, replay a hand
and download it; screenshots of every page at phone and desktop sizes.

So that the test finishes a game in a minute rather than ten, the browser's player gets a game
whose first hands were already played (stored through the repository, as the services store
them) and that stops where someone is close to 100; the player then plays by clicking until the
game is over, however many hands that takes.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from app.engine import (
    Action,
    GameHeader,
    Phase,
    RuleOptions,
    action_from_json,
    apply,
    legal_actions,
    new_game,
    random_deal,
    replay,
)
from app.engine.fairdeal import secret_deal
from app.store import make_engine, make_sessionmaker, repository, writer
from tests.browser.conftest import DESKTOP, PHONE, SETTLED, Server, new_player, shot
from tests.stats.history import prepare

LEGAL = ".play-form button[data-card]:not([disabled], [aria-disabled=true])"
VERSION = "#table input[name=version]"
ACTIONABLE = (
    f"() => {SETTLED} && (document.querySelector('.result') !== null"
    " || document.querySelector('.pass-button') !== null"
    f" || document.querySelector('{LEGAL}') !== null)"
)


def near_the_end(server: Server, token: str, secret: bytes | None = None) -> int:
    """Store, for the player with this cookie, a game played up to the end of a hand after which
    someone has 85 points or more (Easy opponents); return its id. With `secret`, the game is
    dealt from it as the server deals (docs/fair-play.md), else at random."""
    options = RuleOptions.standard()
    for attempt in range(20):  # until a game stops short of the end (not one hand past 100)
        rng = random.Random(2026 + attempt)
        state = new_game(options)
        actions: list[Action] = []
        while not state.is_over and not (
            state.phase is Phase.DEAL and state.results and max(state.totals) >= 85
        ):
            action: Action
            if state.phase is Phase.DEAL and secret is not None:
                action = secret_deal(options, secret, state.hand_number + 1)
            elif state.phase is Phase.DEAL:
                action = random_deal(options, rng)
            else:
                action = rng.choice(legal_actions(state))
            state = apply(state, action)
            actions.append(action)
        if not state.is_over:
            break
    assert not state.is_over
    engine = make_engine(server.database_url)
    try:
        sessions = make_sessionmaker(writer(engine))
        with sessions.begin() as session:
            player = repository.get_player(session, token)
            assert player is not None
            seats = ["human", "easy", "easy", "easy"]
            game = repository.create_game(
                session, player, GameHeader(options), seats, seed=7, fast_play=True
            )
            game.deal_secret = None if secret is None else secret.hex()
            repository.append_actions(session, game, actions, state)
            return game.id
    finally:
        engine.dispose()


def act_and_wait(page: Page, action: object) -> None:
    """Do something on the table and wait until the table has moved on."""
    before = page.locator(VERSION).first.get_attribute("value")
    assert callable(action)
    action()
    page.wait_for_function(
        "v => { const e = document.querySelector('#table input[name=version]');"
        " return e === null || e.value !== v; }",
        arg=before,
    )


def play_to_the_end(page: Page, max_actions: int = 400) -> None:
    """Click through hands (next hand, pass three cards, play the first legal card) until the
    game-over panel shows."""
    for _ in range(max_actions):
        page.wait_for_function(ACTIONABLE, timeout=30_000)
        result = page.locator(".result")
        if result.count() and "Game over" in (result.first.text_content() or ""):
            return
        if result.count():
            act_and_wait(page, page.get_by_role("button", name="Next hand").click)
        elif page.locator(".pass-button").count():
            cards = page.locator("label[data-card]")
            for i in range(3):
                cards.nth(i).click(position={"x": 4, "y": 20})
            act_and_wait(page, page.locator(".pass-button").click)
        else:
            act_and_wait(page, lambda: page.locator(LEGAL).first.click(position={"x": 4, "y": 20}))
    raise AssertionError("the game did not end")


def test_finish_a_game_then_find_it_in_statistics_and_history(page: Page, server: Server) -> None:
    token = new_player(page.context, server)
    game_id = near_the_end(server, token)
    page.goto(f"{server.url}/games/{game_id}")
    play_to_the_end(page)
    shot(page, "stats-game-over")

    # The game-over panel leads to the statistics.
    page.locator(".result").get_by_role("link", name="Statistics").click()
    expect(page.locator("h1")).to_have_text("Statistics")
    expect(page.locator('[data-figure="played"]')).to_have_text("1")
    expect(page.locator('tr[data-row="finished"] td[data-subject="human"]')).to_have_text("1")
    expect(page.locator('tr[data-row="finished"] td[data-subject="easy"]')).to_have_text("3")
    expect(page.locator("#final-chart")).to_be_visible()
    expect(page.locator("#points-chart")).to_be_visible()
    expect(page.locator("#final-chart circle")).to_have_count(1)
    won = page.locator('[data-figure="won"]').text_content()
    shot(page, "stats")

    # The history lists it with the result the statistics counted.
    page.locator("header nav").get_by_role("link", name="History").click()
    item = page.locator(f'[data-game="{game_id}"]')
    expect(item).to_be_visible()
    expect(item).to_contain_text("Won" if won == "1" else "Place")
    shot(page, "history")

    # Its page: the running totals chart, the score sheet and the hands to replay.
    item.locator("a").click()
    expect(page.locator("#running-chart")).to_be_visible()
    hands = page.locator(".sheet tbody tr").count()
    assert hands >= 2
    shot(page, "history-game")

    # A hand replayed trick by trick: every seat's cards are shown, the steps move through it.
    page.locator(".hand-links").get_by_role("link", name=f"Hand {hands}", exact=True).click()
    expect(page.locator(".trick-card")).to_have_count(4)
    expect(page.locator('.step[aria-current="step"]')).to_have_text("13")
    page.locator(".trick-steps").get_by_role("link", name="1", exact=True).click()
    expect(page.locator('.step[aria-current="step"]')).to_have_text("1")
    expect(page.locator("[data-seat-cards]")).to_have_count(4)
    expect(page.locator("[data-seat-cards] .mini")).to_have_count(52)  # before the first trick
    shot(page, "replay")

    # The download replays to the game the server stored.
    response = page.request.get(f"{server.url}/history/{game_id}/game.json")
    assert response.ok
    doc = response.json()
    state = replay(GameHeader.from_json(doc["header"]), map(action_from_json, doc["actions"]))
    assert state.is_over and list(state.totals) == doc["totals"]
    totals = page.goto(f"{server.url}/history/{game_id}")
    assert totals is not None and totals.ok
    for seat, total in enumerate(state.totals):
        expect(page.locator(f'[data-standing="{seat}"] td').first).to_have_text(str(total))
    assert re.search(r"Won|Place", page.locator(".page-head").text_content() or "")


AXE = Path(__file__).resolve().parents[1] / "vendor" / "axe-core" / "axe.min.js"


def test_the_pages_pass_axe_core(browser: Browser, server: Server) -> None:
    """No serious or critical accessibility violation (axe-core, vendored with its checksum) on
    the statistics, the history, a game's page and a replay, on the prepared history, at phone
    and desktop sizes."""
    if not AXE.exists():
        pytest.skip("axe-core is not vendored in tests/vendor/axe-core")
    for size in (PHONE, DESKTOP):
        # The page's CSP forbids inline scripts; the test injects axe by bypassing it.
        context = browser.new_context(viewport=size, bypass_csp=True)
        page = context.new_page()
        try:
            token = new_player(context, server)
            engine = make_engine(server.database_url)
            try:
                history = prepare(make_sessionmaker(writer(engine)), token)
            finally:
                engine.dispose()
            found = {}
            for path in (
                "/stats",
                "/history",
                f"/history/{history.moon}",
                f"/history/{history.moon}/hands/4?trick=5",
                f"/history/{history.cancellation}/hands/2",
                f"/history/{history.active}/hands/2",
            ):
                page.goto(server.url + path)
                page.add_script_tag(path=str(AXE))
                result = page.evaluate(
                    "async () => await axe.run(document, {resultTypes: ['violations']})"
                )
                serious = [
                    v for v in result["violations"] if v.get("impact") in ("serious", "critical")
                ]
                if serious:
                    found[path] = serious
            assert not found, json.dumps(found, indent=1, default=str)[:4000]
        finally:
            context.close()
