"""Cards that move (issue: a table made for the phone, item 3): a played card travels from where it
was to the table, the cards already there stay the same elements and stay still, a finished
trick slides to its winner, and nothing moves under prefers-reduced-motion."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, FloatRect, Page

from tests.browser.conftest import DESKTOP, SETTLED, Server, shot
from tests.browser.test_table import LEGAL, new_game, pass_three, tap

WATCH = """() => {
  // After each swap, once the page has shown the first step: each trick card, whether it was
  // on the table before the answer (the same element), and whether it is moving.
  window.seen = [];
  const land = (c) => {  // where the card lands: its face once its flight is over
    c.getAnimations({ subtree: true }).forEach((a) => a.finish());
    const r = c.querySelector(".face").getBoundingClientRect();
    return { x: r.x, y: r.y, width: r.width, height: r.height };
  };
  document.addEventListener("htmx:afterSwap", () => requestAnimationFrame(() => {
    const cards = Array.from(document.querySelectorAll("#table .trick .played"));
    window.seen.push(cards.map((c) => ({
      code: c.dataset.played,
      kept: c.wasHere === true,
      moving: c.getAnimations().length > 0,
      from: (c.getAnimations()[0]?.effect.getKeyframes()[0]?.translate) || null,
      landed: land(c),
    })));
    cards.forEach((c) => { c.wasHere = true; });
    window.animations = document.getAnimations().length;
  }));
}"""
TARGETS = """() => Array.from(document.querySelectorAll("#flying .ghost")).map((g) => {
  // Where each ghost ends: its start (the style) moved by its animation's last offset.
  const [dx, dy] = g.getAnimations()[0].effect.getKeyframes()[1].translate.split(" ")
    .map(parseFloat);
  const x = parseFloat(g.style.left) + parseFloat(g.style.width) / 2 + dx;
  const y = parseFloat(g.style.top) + parseFloat(g.style.height) / 2 + dy;
  const seat = Array.from(document.querySelectorAll("#table .seat")).find((s) => {
    const r = s.getBoundingClientRect();
    return x >= r.left && x <= r.right && y >= r.top && y <= r.bottom;
  });
  if (!seat) return null;
  if (seat.classList.contains("you")) return "You";
  // The name is the seat-name's text (the badges beside it are elements).
  return Array.from(seat.querySelector(".seat-name").childNodes)
    .find((n) => n.nodeType === Node.TEXT_NODE && n.textContent.trim()).textContent.trim();
})"""
MARK = """() => document.querySelectorAll("#table .trick .played")
  .forEach((c) => { c.wasHere = true; })"""


def centre(box: FloatRect) -> tuple[float, float]:
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def play_to_mid_trick(page: Page) -> None:
    """Play until it is the player's turn with cards already on the table."""
    pass_three(page)
    while True:
        page.wait_for_function(f"() => {SETTLED} && document.querySelector('{LEGAL}') !== null")
        if page.locator(".trick:not(.finished) .played").count():
            page.wait_for_function("() => document.getAnimations().length === 0")  # landed
            return
        tap(page.locator(LEGAL).first)


def first_view(page: Page) -> list[dict[str, Any]]:
    page.wait_for_function("() => window.seen.length > 0")
    seen: list[list[dict[str, Any]]] = page.evaluate("() => window.seen")
    return seen[0]


def test_a_played_card_flies_from_the_hand_and_the_others_stay(page: Page, server: Server) -> None:
    new_game(page, server)
    play_to_mid_trick(page)
    page.evaluate(WATCH)
    page.evaluate(MARK)
    before = [c.get_attribute("data-played") for c in page.locator(".trick .played").all()]
    card = page.locator(LEGAL).first
    code = card.get_attribute("data-card")
    was = card.locator(".face").bounding_box()
    assert was is not None
    tap(card)
    view = first_view(page)
    assert [c["code"] for c in view[: len(before)]] == before
    for kept in view[: len(before)]:  # the cards already on the table: the same, standing still
        assert kept["kept"] and not kept["moving"], kept
    mine = view[len(before)]
    assert mine["code"] == code and not mine["kept"] and mine["moving"]
    # It starts where it was in the hand: the animation's first offset leads back there.
    dx, dy = (float(v.removesuffix("px")) for v in mine["from"].split())
    hand, table = centre(was), centre(mine["landed"])
    assert abs(table[0] + dx - hand[0]) < 3 and abs(table[1] + dy - hand[1]) < 3
    shot(page, "motion-landed")


def test_a_finished_trick_slides_to_its_winner(page: Page, server: Server) -> None:
    new_game(page, server)
    pass_three(page)
    page.wait_for_function(f"() => {SETTLED} && document.querySelector('{LEGAL}') !== null")
    tap(page.locator(LEGAL).first)
    # The first trick is done within this answer or the next: its cards leave as ghosts that
    # travel to the seat that took it.
    seats = page.wait_for_function(
        f"() => document.querySelectorAll('#flying .ghost').length === 4 && ({TARGETS})()"
    ).json_value()
    assert len(seats) == 4 and len(set(seats)) == 1, seats
    page.wait_for_function("() => document.querySelectorAll('#flying .ghost').length === 0")
    page.wait_for_function(f"() => {SETTLED}")
    taken = page.locator(".tricks li").last.locator(".taken").inner_text()
    assert taken.startswith(f"→ {seats[0]}"), (taken, seats)


@pytest.fixture
def calm_page(browser: Browser, server: Server) -> Iterator[Page]:
    """A page whose visitor asked for reduced motion."""
    del server
    context = browser.new_context(viewport=DESKTOP, reduced_motion="reduce")
    context.set_default_timeout(15_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    context.close()
    assert not errors, errors


def test_nothing_moves_under_reduced_motion(calm_page: Page, server: Server) -> None:
    page = calm_page
    new_game(page, server)
    play_to_mid_trick(page)
    page.evaluate(WATCH)
    page.evaluate(MARK)
    before = page.locator(".trick .played").count()
    tap(page.locator(LEGAL).first)
    view = first_view(page)
    assert len(view) == before + 1 and not any(c["moving"] for c in view)
    assert page.evaluate("() => window.animations") == 0
    page.wait_for_function(f"() => {SETTLED} && document.querySelector('{LEGAL}') !== null")
    assert page.locator("#flying").count() == 0  # no card was ever sent flying
