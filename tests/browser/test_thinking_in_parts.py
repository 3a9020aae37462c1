"""The page when the computers' thinking comes in parts (`HEARTS_THINKER_CHUNK_S`): here every
response carries at most one Hard action, so the page must ask for the rest by itself, say that
the others are still passing, and lose none of the player's choices."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import Server, shot
from tests.browser.test_table import LEGAL, hand_codes, new_game, tap, wait_for_turn_or_hand_end

ONE_ACTION = {"HEARTS_THINKER_CHUNK_S": "0"}


@pytest.mark.parametrize("server", [ONE_ACTION], indirect=True)
def test_a_hand_against_hard_comes_one_computer_action_at_a_time(
    page: Page, server: Server
) -> None:
    new_game(page, server, "Hard")
    # The new game carried one computer's pass: the page waits for the player's choice, and a
    # card raised for passing stays raised (no request replaces the table meanwhile).
    cards = page.locator("label[data-card]")
    tap(cards.nth(0))
    page.wait_for_timeout(1_500)
    expect(page.locator("label[data-card] input:checked")).to_have_count(1)
    for i in (1, 2):
        tap(cards.nth(i))
    page.locator(".pass-button").click()
    expect(page.locator("#table.mode-passed .prompt")).to_have_text(
        "The others are choosing their passes…"
    )
    shot(page, "others-passing")
    played = 0
    while wait_for_turn_or_hand_end(page) and played < 3:
        before = len(hand_codes(page))
        tap(page.locator(LEGAL).first)
        expect(page.locator(".you [data-card]")).to_have_count(before - 1)
        played += 1
    assert played == 3
