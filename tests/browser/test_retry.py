"""A move the server cannot take right now is retried by the page, which says so, and the game
goes on once the server answers: the server stopped mid-hand and started again on the same
database and port, and a 503 "busy" answer with `Retry-After`. A new game refused for now
(429, too many new games) is posted again by its page once the wait is over."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, Request, Route, expect

from app.engine import Play
from app.store import Game, load_actions, make_engine, make_sessionmaker
from tests.browser.conftest import DESKTOP, PHONE, Server, shot
from tests.browser.test_table import (
    LEGAL,
    MY_CARDS,
    hand_codes,
    new_game,
    pass_three,
    tap,
    wait_for_turn_or_hand_end,
)

RETRYING = "The server is busy or out of reach; retrying…"
EXPECTED_ERRORS = (
    "Failed to load resource",
    "htmx:afterRequest, ",
    "htmx:sendError",
    "Response Status Error Code 503 ",
)
"""What the browser and htmx log for a request that failed or was answered 503."""


@pytest.fixture(params=["desktop", "phone"])
def page(request: pytest.FixtureRequest, browser: Browser, server: Server) -> Iterator[Page]:
    """A fresh browser context at desktop or phone size whose console may show failed requests
    (these tests make some fail), and no other error."""
    del server
    size = DESKTOP if request.param == "desktop" else PHONE
    context = browser.new_context(viewport=size, has_touch=request.param == "phone")
    context.set_default_timeout(15_000)
    new_page = context.new_page()
    errors: list[str] = []
    new_page.on("pageerror", lambda error: errors.append("pageerror: " + str(error)))
    new_page.on(
        "console",
        lambda m: (
            errors.append(m.text)
            if m.type == "error" and not m.text.startswith(EXPECTED_ERRORS)
            else None
        ),
    )
    yield new_page
    context.close()
    assert not errors, f"browser errors: {errors}"


def mid_hand(page: Page, server: Server) -> None:
    """A new game, the pass, and one card played: the player's turn in the middle of a hand."""
    new_game(page, server)
    pass_three(page)
    assert wait_for_turn_or_hand_end(page)
    tap(page.locator(LEGAL).first)
    page.wait_for_function(f"() => document.querySelectorAll('{MY_CARDS}').length === 12")
    assert wait_for_turn_or_hand_end(page)


def plays_of(server: Server, game_id: int, card: str) -> list[int]:
    """The positions in the game's stored log where the human played `card`."""
    engine = make_engine(server.database_url)
    try:
        with make_sessionmaker(engine)() as session:
            game = session.get(Game, game_id)
            assert game is not None
            actions = load_actions(session, game)
    finally:
        engine.dispose()
    return [
        i
        for i, a in enumerate(actions)
        if isinstance(a, Play) and a.seat == 0 and a.card.code == card
    ]


def game_id_of(page: Page) -> int:
    return int(page.url.rstrip("/").rsplit("/", 1)[1])


def version_of(page: Page) -> int:
    return int(page.locator(".play-form input[name=version]").get_attribute("value") or "")


def play_and_expect_retry(page: Page, shot_name: str) -> tuple[str, int, list[str]]:
    """Tap the first legal card and see the retry message (the table inert meanwhile); the
    card, the version it was played at and the hand before it."""
    before = hand_codes(page)
    version = version_of(page)
    card = page.locator(LEGAL).first
    code = card.get_attribute("data-card") or ""
    tap(card)
    alert = page.locator("#retrying")
    expect(alert).to_be_visible()
    expect(alert).to_have_attribute("role", "alert")
    expect(alert).to_have_text(RETRYING)
    expect(page.locator("#table")).to_have_js_property("inert", True)
    shot(page, shot_name)
    return code, version, before


def expect_applied_once(
    page: Page, server: Server, code: str, version: int, before: list[str]
) -> None:
    """The message is gone, the card left the hand, the log holds it once at its version and
    the table waits for the player again (or shows the hand's end)."""
    expect(page.locator("#retrying")).to_be_hidden(timeout=30_000)
    page.wait_for_function(
        f"() => document.querySelectorAll('{MY_CARDS}').length === {len(before) - 1}"
    )
    assert hand_codes(page) == [c for c in before if c != code]
    assert plays_of(server, game_id_of(page), code) == [version]
    wait_for_turn_or_hand_end(page)
    expect(page.locator("#table")).to_have_js_property("inert", False)


def play_on(page: Page) -> None:
    """The game continues: one more card is taken."""
    assert wait_for_turn_or_hand_end(page)
    count = len(hand_codes(page))
    tap(page.locator(LEGAL).first)
    page.wait_for_function(f"() => document.querySelectorAll('{MY_CARDS}').length === {count - 1}")
    assert wait_for_turn_or_hand_end(page) or page.locator(".result").count() == 1


@pytest.mark.parametrize("page", ["desktop"], indirect=True)
def test_a_move_while_the_server_is_down_goes_through_once_it_is_back(
    page: Page, server: Server
) -> None:
    mid_hand(page, server)
    server.stop()
    code, version, before = play_and_expect_retry(page, "retrying-server-down")
    page.wait_for_timeout(1500)  # a retry or two fail while the server is down
    expect(page.locator("#retrying")).to_be_visible()
    server.start()
    expect_applied_once(page, server, code, version, before)
    play_on(page)


def test_a_503_with_retry_after_shows_the_message_and_is_retried(
    page: Page, server: Server
) -> None:
    mid_hand(page, server)
    posted: list[str | None] = []

    def busy_once(route: Route, request: Request) -> None:
        posted.append(request.post_data)
        if len(posted) == 1:
            route.fulfill(
                status=503,
                headers={"Retry-After": "1", "Content-Type": "text/plain"},
                body="The server is busy; try again.",
            )
        else:
            route.continue_()

    page.route("**/games/*/play", busy_once)
    code, version, before = play_and_expect_retry(page, "retrying")
    expect_applied_once(page, server, code, version, before)
    assert len(posted) == 2 and posted[0] == posted[1], posted
    play_on(page)
    assert len(posted) == 3


@pytest.mark.parametrize(
    # A window far longer than the few seconds a loaded machine takes between the two posts.
    "server",
    [{"HEARTS_RATE_ADDRESS_NEW_GAMES": "1/10 seconds"}],
    indirect=True,
)
def test_a_new_game_refused_for_now_is_posted_again_by_its_page(page: Page, server: Server) -> None:
    # The limiter's windows start at multiples of ten seconds, and a post in the next window
    # weighs the previous one's post at less than one: begin just after a window starts, so
    # both posts fall in the same window.
    time.sleep(10 - time.time() % 10 + 0.1)
    new_game(page, server)
    first = game_id_of(page)
    page.goto(server.url + "/")
    page.get_by_text("Hard", exact=True).click()
    refused: list[int] = []
    page.on(
        "response",
        lambda r: (
            refused.append(r.status) if r.url.endswith("/games") and r.status >= 400 else None
        ),
    )
    page.locator("form.new-game button[type=submit]").click()
    expect(page.locator("h1")).to_have_text("Too many requests")
    expect(page.locator("form.resubmit")).to_contain_text("This page will try again in")
    button = page.locator("form.resubmit button[type=submit]").bounding_box()
    assert button is not None and button["height"] >= 44
    shot(page, "new-game-too-many")
    # No click: the page posts the same form again once the wait is over.
    expect(page.locator(MY_CARDS)).to_have_count(13, timeout=30_000)
    assert refused == [429]
    assert game_id_of(page) != first
    assert seats_of(server, game_id_of(page))[1:] == ["hard"] * 3  # the form as it was sent


def seats_of(server: Server, game_id: int) -> list[str]:
    """Who sits at each seat of a stored game: "human" or a computer level."""
    engine = make_engine(server.database_url)
    try:
        with make_sessionmaker(engine)() as session:
            game = session.get(Game, game_id)
            assert game is not None
            return list(game.seats)
    finally:
        engine.dispose()
