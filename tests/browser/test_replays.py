"""Playing the same deals again in a real browser (issue 11, item 6): at the end of a game,
"Play these deals again" deals the first hand again, and the deal code on the game-over panel
plays the same deals in another browser from the home page; both games say so."""

from __future__ import annotations

import random

from playwright.sync_api import Browser, Page, expect

from app.engine import (
    Action,
    GameHeader,
    Phase,
    RuleOptions,
    apply,
    legal_actions,
    new_game,
)
from app.engine.fairdeal import secret_deal
from app.store import make_engine, make_sessionmaker, repository, writer
from tests.browser.conftest import PHONE, Server, new_player, shot
from tests.browser.test_stats import play_to_the_end

SECRET = bytes(range(32, 64))
MY_CARDS = ".you [data-card]"


def near_the_end_with_sealed_deals(server: Server, token: str) -> int:
    """A game dealt from `SECRET`, as the server deals, played up to the end of a hand after
    which someone has 85 points or more; its id."""
    options = RuleOptions.standard()
    rng = random.Random(2027)
    state = new_game(options)
    actions: list[Action] = []
    while not (state.phase is Phase.DEAL and state.results and max(state.totals) >= 85):
        action: Action
        if state.phase is Phase.DEAL:
            action = secret_deal(options, SECRET, state.hand_number + 1)
        else:
            action = rng.choice(legal_actions(state))
        state = apply(state, action)
        actions.append(action)
    engine = make_engine(server.database_url)
    try:
        with make_sessionmaker(writer(engine)).begin() as session:
            player = repository.get_player(session, token)
            assert player is not None
            seats = ["human", "easy", "easy", "easy"]
            game = repository.create_game(
                session, player, GameHeader(options), seats, seed=11, fast_play=True
            )
            game.deal_secret = SECRET.hex()
            repository.append_actions(session, game, actions, state)
            return game.id
    finally:
        engine.dispose()


def first_hand() -> list[str]:
    return sorted(str(c) for c in secret_deal(RuleOptions.standard(), SECRET, 1).hands[0])


def hand_on_table(page: Page) -> list[str]:
    expect(page.locator(MY_CARDS)).to_have_count(13)
    return sorted(c.get_attribute("data-card") or "" for c in page.locator(MY_CARDS).all())


def test_play_the_same_deals_again_here_and_in_another_browser(
    page: Page, browser: Browser, server: Server
) -> None:
    token = new_player(page.context, server)
    game_id = near_the_end_with_sealed_deals(server, token)
    page.goto(f"{server.url}/games/{game_id}")
    play_to_the_end(page)
    code = page.locator(".result .deal-code [data-code]").get_attribute("data-code")
    assert code is not None and code.startswith(f"{game_id}-")
    button = page.get_by_role("button", name="Play these deals again")
    box = button.bounding_box()
    assert box is not None and box["height"] >= 44
    shot(page, "deals-game-over")
    button.click()
    page.wait_for_url(lambda url: not url.endswith(f"/games/{game_id}"))
    assert hand_on_table(page) == first_hand()
    expect(page.locator(".table-rules .replayed")).to_have_text("Deals played again")

    other = browser.new_context(viewport=PHONE, has_touch=True)
    try:
        friend = other.new_page()
        friend.goto(server.url + "/")
        friend.fill(".shared-deals input[name=code]", f" {code.upper()} ")
        field = friend.locator(".shared-deals input[name=code]").bounding_box()
        assert field is not None and field["height"] >= 44
        friend.locator(".shared-deals button[type=submit]").tap()
        friend.wait_for_url("**/games/*")
        assert hand_on_table(friend) == first_hand()
        assert friend.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        shot(friend, "deals-shared")
        friend.goto(server.url + "/")
        friend.fill(".shared-deals input[name=code]", "12-0123456789")
        friend.locator(".shared-deals button[type=submit]").tap()
        expect(friend.locator(".shared-deals .message")).to_contain_text("names no finished game")
        shot(friend, "deals-code-refused")
    finally:
        other.close()
