"""The table in a real browser: pass, play a whole hand by clicking, history and scores, reload
and server restart mid-hand, and a double click that plays one card (UI-03 … UI-15)."""

from __future__ import annotations

import re

from playwright.sync_api import Locator, Page, expect

from tests.browser.conftest import SETTLED, Server, shot

MY_CARDS = ".you [data-card]"
LEGAL = ".play-form button[data-card]:not([disabled], [aria-disabled=true])"


def tap(card: Locator) -> None:
    """Tap a card where it shows: its left edge (cards in a hand overlap)."""
    card.click(position={"x": 6, "y": 24})


def new_game(page: Page, server: Server, level: str = "Easy") -> None:
    page.goto(server.url + "/")
    page.get_by_text(level, exact=True).click()
    page.locator("form.new-game").get_by_label(re.compile("Fast play")).check()
    page.locator("form.new-game button[type=submit]").click()
    expect(page.locator(MY_CARDS)).to_have_count(13)


def pass_three(page: Page) -> list[str]:
    """Select the first three cards and pass them; return their codes."""
    cards = page.locator("label[data-card]")
    codes = [cards.nth(i).get_attribute("data-card") or "" for i in range(3)]
    for i in range(3):
        tap(cards.nth(i))
    page.locator(".pass-button").click()
    expect(page.locator(".play-form")).to_be_visible()
    return codes


def wait_for_turn_or_hand_end(page: Page) -> bool:
    """Wait until the player may play (True) or the hand is over (False), once the page has
    played out the computers' cards (`SETTLED`)."""
    page.wait_for_function(
        f"() => {SETTLED} && (document.querySelector('.result') !== null || "
        f"document.querySelector('{LEGAL}') !== null)",
        timeout=30_000,
    )
    return page.locator(".result").count() == 0


def hand_codes(page: Page) -> list[str]:
    return [c.get_attribute("data-card") or "" for c in page.locator(MY_CARDS).all()]


def trick_codes(page: Page) -> list[str]:
    return [c.get_attribute("data-played") or "" for c in page.locator(".trick .played").all()]


def test_pass_three_cards(page: Page, server: Server) -> None:
    """UI-03, UI-04, UI-07: three taps raise three cards, a fourth stays down, a second tap
    lowers a card, the pass button names the direction, and received cards are marked."""
    new_game(page, server)
    shot(page, "pass")
    button = page.locator(".pass-button")
    expect(button).to_contain_text("Pass left")
    expect(button).to_be_disabled()
    cards = page.locator("label[data-card]")
    for i in range(4):
        tap(cards.nth(i))
    expect(page.locator("input[name=cards]:checked")).to_have_count(3)
    tap(cards.nth(0))
    expect(page.locator("input[name=cards]:checked")).to_have_count(2)
    tap(cards.nth(3))
    expect(button).to_be_enabled()
    shot(page, "pass-selected")
    passed = {cards.nth(i).get_attribute("data-card") for i in (1, 2, 3)}
    button.click()
    expect(page.locator(".play-form")).to_be_visible()
    expect(page.locator(MY_CARDS)).to_have_count(13)
    assert passed.isdisjoint(hand_codes(page))
    expect(page.locator(".card.received")).to_have_count(3)
    shot(page, "after-pass")


def test_play_a_whole_hand_by_clicking(page: Page, server: Server) -> None:
    """UI-05, UI-06, UI-08 … UI-12: play the hand's cards by clicking legal ones (the table
    plays out the rest once nothing is left to score); a tap on an illegal card says why (the
    rule) and plays nothing; the trick history lists every trick; the score sheet and hand
    points appear."""
    new_game(page, server)
    pass_three(page)
    played = 0
    explained = False
    while wait_for_turn_or_hand_end(page):
        legal = page.locator(LEGAL)
        illegal = page.locator(".play-form button.illegal")
        assert legal.count() + illegal.count() == len(hand_codes(page))
        if illegal.count():  # shaded: a tap says why and plays nothing
            expect(illegal.first).to_have_attribute("aria-disabled", "true")
            if not explained:
                explained = True
                before = len(hand_codes(page))
                # a person can tap it; Playwright would wait for aria-disabled to go
                illegal.first.click(position={"x": 6, "y": 24}, force=True)
                expect(page.locator(".status .message")).to_have_text(
                    re.compile(r"\(Rule \d+\.\d+\)$")
                )
                assert len(hand_codes(page)) == before
                shot(page, "why-shaded")
        if played == 4:
            summary = page.locator(".last-trick summary")
            box = summary.bounding_box()
            assert box is not None and box["height"] >= 44  # a fingertip's target
            summary.click()
            expect(page.locator(".last-trick .tricks .mini")).to_have_count(4)
            shot(page, "mid-hand")
        tap(legal.first)
        played += 1
        page.wait_for_function(
            f"() => document.querySelectorAll('{MY_CARDS}').length <= {13 - played}"
        )
    assert played <= 13  # fewer when nothing was left to score: the table plays out the rest
    assert explained, "no card was ever shaded"
    expect(page.locator(".result")).to_contain_text("Hand 1 is over")
    expect(page.locator(".tricks li")).to_have_count(13)
    expect(page.locator(".scores tbody tr")).to_have_count(1)
    shot(page, "hand-over")
    page.get_by_role("button", name="Next hand").click()
    expect(page.locator(".pass-button")).to_contain_text("Pass right")
    expect(page.locator(".tricks li")).to_have_count(0)


def play_until_mid_trick(page: Page) -> None:
    """Play on until it is the player's turn with cards already on the table."""
    pass_three(page)
    while True:
        assert wait_for_turn_or_hand_end(page)
        if page.locator(".trick:not(.finished) .played").count():
            return
        tap(page.locator(LEGAL).first)
        page.wait_for_timeout(50)


def test_reload_mid_trick_shows_the_same_table(page: Page, server: Server) -> None:
    """UI-15: a reload in the middle of a trick finds the same hand and trick."""
    new_game(page, server)
    play_until_mid_trick(page)
    before = (hand_codes(page), trick_codes(page))
    page.reload()
    expect(page.locator(MY_CARDS)).to_have_count(len(before[0]))
    assert (hand_codes(page), trick_codes(page)) == before


def test_restart_the_server_and_resume(page: Page, server: Server) -> None:
    """UI-15: the game survives a server restart; "Continue" leads back to it."""
    new_game(page, server)
    play_until_mid_trick(page)
    before = (hand_codes(page), trick_codes(page))
    game_url = page.url
    server.stop()
    server.start()
    page.goto(server.url + "/")
    page.get_by_role("link", name="Continue your game").click()
    assert page.url == game_url
    expect(page.locator(MY_CARDS)).to_have_count(len(before[0]))
    assert (hand_codes(page), trick_codes(page)) == before


def test_double_click_plays_one_card(page: Page, server: Server) -> None:
    """A double click on a card plays it once (versioned forms; a stale repeat is a no-op)."""
    new_game(page, server)
    pass_three(page)
    assert wait_for_turn_or_hand_end(page)
    cards_before = hand_codes(page)
    target = page.locator(LEGAL).first
    code = target.get_attribute("data-card")
    target.dblclick(position={"x": 6, "y": 24})
    page.wait_for_function(
        f"() => document.querySelectorAll('{MY_CARDS}').length === {len(cards_before) - 1}"
    )
    page.wait_for_timeout(400)
    after = hand_codes(page)
    assert len(after) == len(cards_before) - 1
    assert code not in after
    assert [c for c in cards_before if c != code] == after
