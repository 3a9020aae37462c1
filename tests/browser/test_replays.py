"""Playing the same deals again in a real browser (issue 11, item 6): at the end of a game,
"Play these deals again" deals the first hand again, and the deal code on the game-over panel
plays the same deals in another browser from the home page; both games say so."""

from __future__ import annotations

from playwright.sync_api import Browser, Page, expect

from app.engine import RuleOptions
from app.engine.fairdeal import secret_deal
from tests.browser.conftest import PHONE, Server, new_player, shot
from tests.browser.test_stats import near_the_end, play_to_the_end

SECRET = bytes(range(32, 64))
MY_CARDS = ".you [data-card]"


def first_hand() -> list[str]:
    return sorted(str(c) for c in secret_deal(RuleOptions.standard(), SECRET, 1).hands[0])


def hand_on_table(page: Page) -> list[str]:
    expect(page.locator(MY_CARDS)).to_have_count(13)
    return sorted(c.get_attribute("data-card") or "" for c in page.locator(MY_CARDS).all())


def test_play_the_same_deals_again_here_and_in_another_browser(
    page: Page, browser: Browser, server: Server
) -> None:
    token = new_player(page.context, server)
    game_id = near_the_end(server, token, SECRET)
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
