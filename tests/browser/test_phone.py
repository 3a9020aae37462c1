"""The table on phones, tablets and the desktop: every card of the hand can be hit with a
fingertip, and a card is played with two taps on a touch screen (issue: a table made for the
phone). Measured with bounding boxes and hit tests in the browser, at five sizes and at every
kind of table; screenshots are saved for a look."""

from __future__ import annotations

import random
import re
from datetime import UTC, datetime
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, ViewportSize, expect

from app.engine import (
    Action,
    GameState,
    Phase,
    RuleOptions,
    apply,
    hand_size,
    legal_actions,
    new_game,
)
from app.store import make_engine, make_sessionmaker, writer
from tests.browser.conftest import SETTLED, Server, new_player, shot
from tests.stats.history import store
from tests.store.helpers import moon_deal

SIZES: dict[str, tuple[ViewportSize, bool]] = {
    # name: (viewport, touch). The phones are the smallest common screen and the most common
    # one; wider phones (412 px) share their layout (up to 520 px) with more room.
    "360x640": ({"width": 360, "height": 640}, True),
    "390x844": ({"width": 390, "height": 844}, True),
    "768x1024": ({"width": 768, "height": 1024}, True),
    "1280x800": ({"width": 1280, "height": 800}, False),
}
TABLES = [
    # (preset, seats, omnibus)
    ("standard", 3, False),
    ("standard", 4, False),
    ("standard", 5, False),
    ("standard", 7, False),
    ("standard", 4, True),
    ("cancellation", 6, False),
    ("cancellation", 8, False),
    ("cancellation", 11, False),
]
FINGER = 44
"""The smallest target a fingertip hits reliably, in CSS pixels (WCAG 2.5.5, Apple's HIG)."""
HAND = ".you [data-card]"
LEGAL = ".play-form button[data-card]:not([disabled], [aria-disabled=true])"

HIT_RUNS = """
(args) => Array.from(document.querySelectorAll(args.selector)).map((card) => {
  // The longest horizontal and vertical runs of points (1 px apart) where a tap lands on the
  // card (what shows of it, not covered by the next card or the next line), looked for on
  // lines 3 px apart until both reach `enough`.
  card.scrollIntoView({block: "center", inline: "nearest"});
  const box = card.getBoundingClientRect();
  const face = (card.querySelector(".face") || card).getBoundingClientRect();
  const x0 = Math.min(box.left, face.left), x1 = Math.max(box.right, face.right);
  const y0 = Math.min(box.top, face.top), y1 = Math.max(box.bottom, face.bottom);
  const hits = (x, y) => {
    const at = document.elementFromPoint(x, y);
    return at !== null && (at === card || card.contains(at));
  };
  const longest = (points) => {
    let best = 0, run = 0;
    for (const [x, y] of points) { run = hits(x, y) ? run + 1 : 0; best = Math.max(best, run); }
    return best;
  };
  let width = 0, height = 0;
  for (let y = y0 + 1; y < y1 && width < args.enough; y += 3) {
    const line = []; for (let x = x0 + 0.5; x < x1; x += 1) line.push([x, y]);
    width = Math.max(width, longest(line));
  }
  for (let x = x0 + 1; x < x1 && height < args.enough; x += 3) {
    const line = []; for (let y = y0 + 0.5; y < y1; y += 1) line.push([x, y]);
    height = Math.max(height, longest(line));
  }
  return {card: card.dataset.card, width, height};
})
"""


OVERLAPS = """
() => {
  // Pairs of things on the table that cover each other: two trick cards, a trick card and a
  // seat box, a trick card and a line of text, two seat boxes (areas over 1 px², in px²).
  const box = (e) => e.getBoundingClientRect();
  const area = (a, b) => Math.max(0, Math.min(a.right, b.right) - Math.max(a.left, b.left))
    * Math.max(0, Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top));
  const cards = Array.from(document.querySelectorAll(".felt .trick .played"));
  const seats = Array.from(document.querySelectorAll(".felt .seat"));
  const texts = Array.from(document.querySelectorAll(".felt .table-info p"));
  const found = [];
  const check = (kind, a, b, an, bn) => {
    const v = area(box(a), box(b));
    if (v > 1) found.push([kind, an, bn, Math.round(v)]);
  };
  cards.forEach((c, i) => {
    cards.slice(i + 1).forEach((d) => check("card-card", c, d, c.dataset.played, d.dataset.played));
    seats.forEach((s) => check("card-seat", c, s, c.dataset.played, s.dataset.seat));
    texts.forEach((t) => check("card-text", c, t, c.dataset.played, t.className));
  });
  seats.forEach((s, i) => seats.slice(i + 1).forEach(
    (t) => check("seat-seat", s, t, s.dataset.seat, t.dataset.seat)));
  return found;
}
"""


def start(page: Page, server: Server, preset: str, seats: int, omnibus: bool) -> None:
    """A new game from the new-game screen, with fast play."""
    page.goto(server.url + "/")
    page.locator(f"input[name=preset][value={preset}]").check()
    page.locator(f"select[name=players_{preset}]").select_option(str(seats))
    page.locator("form.new-game input[name=fast_play]").check()
    if omnibus:
        page.locator(".rule-options summary").click()
        page.locator("#opt-omnibus").select_option("true")
    page.locator("form.new-game button[type=submit]").click()
    expect(page.locator(".felt .seat")).to_have_count(seats - 1)


def hit_runs(page: Page) -> list[dict[str, Any]]:
    runs: list[dict[str, Any]] = page.evaluate(HIT_RUNS, {"selector": HAND, "enough": FINGER})
    page.evaluate("window.scrollTo(0, 0)")
    return runs


def play_and_look(page: Page, tricks: int) -> list[list[Any]]:
    """Play the first legal card `tricks` times, looking for things that cover each other on
    the table before each card (the trick as the page has settled on it)."""
    found: list[list[Any]] = []
    for _ in range(tricks):
        page.wait_for_function("() => document.getAnimations().length === 0")  # cards landed
        found += page.evaluate(OVERLAPS)
        held = page.locator(HAND).count()
        page.locator(LEGAL).first.click(position={"x": 10, "y": 10})
        page.wait_for_function(  # the answer is in and played out
            f"() => {SETTLED} && document.querySelectorAll('{HAND}').length < {held}"
            f" && (document.querySelector('{LEGAL}') !== null"
            " || document.querySelector('.result') !== null)"
        )
        if page.locator(".result").count():
            break
    page.wait_for_function("() => document.getAnimations().length === 0")
    found += page.evaluate(OVERLAPS)
    return found


@pytest.mark.parametrize("size", list(SIZES))
def test_every_table_can_be_played_and_read_at_this_size(
    browser: Browser, server: Server, size: str
) -> None:
    """At every table, each card of the hand shows a hittable area at least 44 px wide and
    44 px tall on a touch screen (on the desktop too, where the hand has room), while passing
    and while playing; the page is never wider than the screen; over the first cards played, no
    trick card covers another, a seat box or a line of text, and no seat box covers another."""
    viewport, touch = SIZES[size]
    small: dict[str, list[dict[str, Any]]] = {}
    covered: dict[str, list[list[Any]]] = {}
    for preset, seats, omnibus in TABLES:
        name = f"{preset}-{seats}{'-omnibus' if omnibus else ''}"
        context = browser.new_context(viewport=viewport, has_touch=touch)
        page = context.new_page()
        try:
            start(page, server, preset, seats, omnibus)
            cards = hand_size(RuleOptions.preset(preset, seats))
            expect(page.locator(HAND)).to_have_count(cards)
            runs = hit_runs(page)
            shot(page, f"hand-{name}")
            if page.locator(".pass-form").count():  # the same hand again, as it is played
                for i in range(3):
                    page.locator("label[data-card]").nth(i).click(position={"x": 10, "y": 10})
                page.locator(".pass-button").click()
                page.wait_for_function(f"() => {SETTLED} && document.querySelector('{LEGAL}')")
                runs += hit_runs(page)
                shot(page, f"hand-playing-{name}")
            covered[name] = play_and_look(page, tricks=3)
            small[name] = [r for r in runs if min(r["width"], r["height"]) < FINGER]
            assert len(runs) >= cards
            width = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
            assert width[0] <= width[1], f"{name}: the page is {width[0]} px wide in {width[1]}"
        finally:
            context.close()
    assert not any(small.values()), {k: v for k, v in small.items() if v}
    assert not any(covered.values()), {k: v[:6] for k, v in covered.items() if v}


def _to_play(page: Page) -> None:
    """Pass by tapping three cards, then wait for the player's turn."""
    if page.locator(".pass-form").count():
        for i in range(3):
            page.locator("label[data-card]").nth(i).tap(position={"x": 10, "y": 10})
        page.locator(".pass-button").tap()
    page.wait_for_function(f"() => {SETTLED} && document.querySelector('{LEGAL}') !== null")


def test_a_tap_lifts_a_card_and_a_second_tap_plays_it(browser: Browser, server: Server) -> None:
    """On a touch screen (the default setting) the first tap lifts a card and sends nothing, a
    tap on another card lifts that one instead, and a second tap plays the lifted card; Enter
    on a focused card plays it at once."""
    context = browser.new_context(viewport=SIZES["390x844"][0], has_touch=True)
    page = context.new_page()
    posts: list[str] = []
    page.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
    try:
        start(page, server, "standard", 4, False)
        # a quick second tap is a play, never a zoom
        assert page.evaluate("getComputedStyle(document.documentElement).touchAction") == (
            "manipulation"
        )
        _to_play(page)
        cards = page.locator(HAND).count()
        legal = page.locator(LEGAL)
        posts.clear()
        first = legal.first
        first.tap(position={"x": 10, "y": 10})
        expect(first).to_have_class(re.compile(r"\blifted\b"))
        shot(page, "two-taps-lifted")
        if legal.count() > 1:
            other = legal.nth(1)
            other.tap(position={"x": 10, "y": 10})
            expect(other).to_have_class(re.compile(r"\blifted\b"))
            expect(first).not_to_have_class(re.compile(r"\blifted\b"))
            first = other
        assert posts == [], "a first tap sent the card"
        assert page.locator(HAND).count() == cards
        first.tap(position={"x": 10, "y": 10})
        expect(page.locator(HAND)).to_have_count(cards - 1)
        assert len(posts) == 1 and posts[0].endswith("/play")
        page.wait_for_function(f"() => {SETTLED} && document.querySelector('{LEGAL}') !== null")
        page.locator(LEGAL).first.focus()
        page.keyboard.press("Enter")
        expect(page.locator(HAND)).to_have_count(cards - 2)
    finally:
        context.close()


def test_two_taps_can_be_turned_off(browser: Browser, server: Server) -> None:
    """With "Never" on the settings page a tap plays the card at once; "Always" asks for two
    clicks of the mouse too."""
    context = browser.new_context(viewport=SIZES["390x844"][0], has_touch=True)
    page = context.new_page()
    try:
        page.goto(server.url + "/settings")
        expect(page.locator("select[name=two_taps]")).to_have_value("touch")
        # each setting's line and the choice: a fingertip's target
        for control in [*page.locator("label.toggle").all(), page.locator("select").first]:
            box = control.bounding_box()
            assert box is not None and box["height"] >= FINGER, control.inner_text()
        page.locator("select[name=two_taps]").select_option("never")
        page.locator("form[action='/settings'] button[type=submit]").click()
        expect(page.locator("select[name=two_taps]")).to_have_value("never")
        start(page, server, "standard", 4, False)
        _to_play(page)
        cards = page.locator(HAND).count()
        page.locator(LEGAL).first.tap(position={"x": 10, "y": 10})
        expect(page.locator(HAND)).to_have_count(cards - 1)
        page.goto(server.url + "/settings")
        page.locator("select[name=two_taps]").select_option("always")
        page.locator("form[action='/settings'] button[type=submit]").click()
        page.goto(server.url + "/")
        page.locator("a[href^='/games/']").first.click()
        page.wait_for_function(f"() => {SETTLED} && document.querySelector('{LEGAL}') !== null")
        card = page.locator(LEGAL).first
        card.click(position={"x": 10, "y": 10})
        expect(card).to_have_class(re.compile(r"\blifted\b"))
        assert page.locator(HAND).count() == cards - 1
        card.click(position={"x": 10, "y": 10})
        expect(page.locator(HAND)).to_have_count(cards - 2)
    finally:
        context.close()


def game_at_the_moon_choice(context: BrowserContext, server: Server) -> int:
    """A game stored for the browser where you have just taken every point of a hand and
    choose how the moon scores (R12.5): a hand without passing dealt you every top card."""
    token = new_player(context, server)
    options = RuleOptions.standard(4, pass_cycle="none", moon_scoring="choice")
    state = apply(new_game(options), moon_deal())
    steps: list[tuple[Action, GameState]] = [(moon_deal(), state)]
    rng = random.Random(3)
    while state.phase is Phase.PLAY:
        action = rng.choice(legal_actions(state))
        state = apply(state, action)
        steps.append((action, state))
    assert state.phase is Phase.MOON_CHOICE and state.moon_shooter == 0
    engine = make_engine(server.database_url)
    try:
        sessions = make_sessionmaker(writer(engine))
        return store(sessions, token, options, "easy", steps, datetime.now(UTC))
    finally:
        engine.dispose()


@pytest.mark.parametrize("size", list(SIZES))
def test_the_moon_choice_fits_every_screen(browser: Browser, server: Server, size: str) -> None:
    """The shooter's two choices show whole, each a fingertip's target, with the totals each
    leads to, and nothing is wider than the screen; a choice scores the hand."""
    viewport, touch = SIZES[size]
    context = browser.new_context(viewport=viewport, has_touch=touch)
    page = context.new_page()
    try:
        game_id = game_at_the_moon_choice(context, server)
        page.goto(f"{server.url}/games/{game_id}")
        dialog = page.locator(".moon-choice")
        expect(dialog).to_be_visible()
        buttons = dialog.locator("button.moon-button")
        expect(buttons).to_have_count(2)
        for button in buttons.all():
            button.scroll_into_view_if_needed()
            box = button.bounding_box()
            assert box is not None and box["height"] >= FINGER and box["width"] >= FINGER
            assert box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"]
            expect(button.locator(".moon-totals")).to_contain_text("You")
        width = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
        assert width[0] <= width[1]
        shot(page, "moon-choice")
        buttons.first.click()
        expect(page.locator(".result")).to_contain_text("shot the moon")
    finally:
        context.close()
