"""Every table size in the browser, in several languages; a keyboard-only hand; axe-core checks.

Each table is started from the new-game screen (preset, seats, options), one whole hand is played
by clicking, and screenshots are taken at phone and desktop sizes.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from app.engine import RuleOptions, hand_size
from app.web.i18n import translations
from tests.browser.conftest import DESKTOP, PHONE, SETTLED, Server, shot
from tests.browser.test_phone import SIZES

AXE = Path(__file__).resolve().parents[1] / "vendor" / "axe-core"
LEGAL = ".play-form button[data-card]:not([disabled], [aria-disabled=true])"
MY_CARDS = ".you [data-card]"

TABLES = [
    # (preset, seats, language, browser locale)
    ("standard", 3, "uk", "uk-UA"),
    ("standard", 4, "en", "en-US"),
    ("standard", 5, "ru", "ru-RU"),
    ("standard", 7, "sr", "sr-RS"),
    ("cancellation", 6, "uk", "uk-UA"),
    ("cancellation", 8, "ru", "ru-RU"),
    ("cancellation", 11, "en", "en-GB"),
]


CLIPPED_ROWS = """() => {
  // Rows of the hand result, and its button, that its panel cuts off (were it to scroll, what
  // lies below its edge would be hidden: each must fit whole).
  const panel = document.querySelector('.result').getBoundingClientRect();
  return Array.from(document.querySelectorAll('.result .hand-points tbody tr, .result button'))
    .map((row) => row.getBoundingClientRect())
    .filter((r) => r.left < panel.left - 0.5 || r.right > panel.right + 0.5
      || r.top < panel.top - 0.5 || r.bottom > panel.bottom + 0.5).length;
}"""


LONGEST_RESULT = """(lines) => {
  // The lines a hand's result shows only after some deals (tricks played out for the player, a
  // moon, a tied lead at the target), added where the page puts them: the longest result.
  const panel = document.querySelector('.result');
  panel.querySelector('h2').insertAdjacentHTML('afterend', '<p class="finished-early"></p>');
  panel.querySelector('.finished-early').textContent = lines[0];
  const after = panel.querySelector('.hand-points-wrap');
  after.insertAdjacentHTML('afterend', '<p class="moon"></p><p class="tie"></p>');
  panel.querySelector('.moon').textContent = lines[1];
  panel.querySelector('.tie').textContent = lines[2];
}"""


def longest_result_lines(language: str) -> list[str]:
    """The optional lines of a hand's result, in `language`, as long as they get."""
    t = translations(language)
    finished = "Nothing was left to score: the last %(num)d tricks were played out for you."
    singular = "Nothing was left to score: the last trick was played out for you."
    tie = "Someone has reached %(target)s but the lowest score is tied: another hand is played."
    return [
        t.ngettext(singular, finished, 12) % {"num": 12},
        t.gettext("%(name)s shot the moon!") % {"name": "Maximilian"},
        t.gettext(tie) % {"target": 100},
    ]


def word(language: str, message: str) -> str:
    """`message` as the page shows it in `language`."""
    return translations(language).gettext(message)


def start_table(page: Page, server: Server, preset: str, seats: int) -> None:
    page.goto(server.url + "/")
    page.locator(f"input[name=preset][value={preset}]").check()
    page.locator(f"select[name=players_{preset}]").select_option(str(seats))
    page.locator("form.new-game input[name=fast_play]").check()
    page.locator("form.new-game button[type=submit]").click()
    expect(page.locator(".felt .seat")).to_have_count(seats - 1)


def pass_if_asked(page: Page) -> None:
    if page.locator(".pass-button").count():
        cards = page.locator("label[data-card]")
        for i in range(3):
            cards.nth(i).click(position={"x": 4, "y": 20})
        page.locator(".pass-button").click()


def play_hand_by_clicking(page: Page) -> int:
    """Pass if asked, then play legal cards until the hand is over; return the cards played."""
    pass_if_asked(page)
    played = 0
    while True:
        page.wait_for_function(
            f"() => {SETTLED} && (document.querySelector('.result') !== null || "
            f"document.querySelector('{LEGAL}') !== null)",
            timeout=60_000,
        )
        if page.locator(".result").count():
            return played
        before = page.locator(MY_CARDS).count()
        page.locator(LEGAL).first.click(position={"x": 4, "y": 20})
        played += 1
        try:
            page.wait_for_function(
                f"() => document.querySelectorAll('{MY_CARDS}').length < {before} || "
                "document.querySelector('.result') !== null",
                timeout=60_000,
            )
        except PlaywrightTimeoutError:
            shot(page, f"stuck-after-card-{played}")  # what the page showed, for the report
            raise


@pytest.mark.parametrize(("preset", "seats", "language", "locale"), TABLES)
def test_a_whole_hand_on_every_table_size(
    browser: Browser, server: Server, preset: str, seats: int, language: str, locale: str
) -> None:
    """Q-02, Q-05: 3, 4, 5 and 7 seats, Cancellation with 6, 8 and 11; the language follows the
    browser's Accept-Language; the hand result shows every player's row and its button whole at
    all four sizes, also with every line a deal can add to it."""
    context = browser.new_context(viewport=PHONE, locale=locale)
    page = context.new_page()
    try:
        start_table(page, server, preset, seats)
        expect(page.locator("html")).to_have_attribute("lang", language)
        seat_keys = {s.get_attribute("data-seat") for s in page.locator("[data-seat]").all()}
        assert len(seat_keys) == seats
        options = RuleOptions.preset(preset, seats)
        # every card, or fewer when the table played out a hand with nothing left to score
        assert 1 <= play_hand_by_clicking(page) <= hand_size(options)
        expect(page.locator(".result")).to_be_visible()
        expect(page.locator(".result")).to_contain_text(word(language, "This hand"))
        expect(page.locator(".tricks li")).to_have_count(hand_size(options))
        rows = page.locator(".result .hand-points tbody tr")
        expect(rows).to_have_count(seats)  # one row per player: all of them show on a phone
        for longest in (False, True):  # every player's row, whole, at every size
            if longest:
                page.evaluate(LONGEST_RESULT, longest_result_lines(language))
            for size, _ in SIZES.values():
                page.set_viewport_size(size)
                clipped = page.evaluate(CLIPPED_ROWS)
                assert clipped == 0, f"{size}: {clipped} rows or buttons of the result are cut off"
                width = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
                assert width[0] <= width[1], f"{size}: the page is {width[0]} px wide"
        page.reload()  # the page as the server sends it, for the screenshots
        expect(page.locator(".result")).to_be_visible()
        page.set_viewport_size(PHONE)
        name = f"{preset}-{seats}-{language}"
        shot(page, f"hand-over-{name}")
        page.set_viewport_size(DESKTOP)
        shot(page, f"hand-over-{name}")
        page.locator(".result button").click()
        expect(page.locator(MY_CARDS).first).to_be_visible()
        shot(page, f"new-hand-{name}")
        page.set_viewport_size(PHONE)
        shot(page, f"new-hand-{name}")
    finally:
        context.close()


def test_keyboard_only_hand(browser: Browser, server: Server) -> None:
    """A whole hand with the keyboard alone: Tab to the hand, arrows to move, Enter to pass and
    to play (visible focus ring on the focused card)."""
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    try:
        page.goto(server.url + "/")
        page.locator("form.new-game input[name=fast_play]").check()
        page.locator("form.new-game button[type=submit]").focus()
        page.keyboard.press("Enter")
        expect(page.locator(MY_CARDS)).to_have_count(13)
        page.locator("input[name=cards]").first.focus()
        for _ in range(3):
            page.keyboard.press("Enter")
            page.keyboard.press("ArrowRight")
        expect(page.locator("input[name=cards]:checked")).to_have_count(3)
        page.locator(".pass-button").focus()
        page.keyboard.press("Enter")
        played = 0
        while True:
            page.wait_for_function(
                f"() => {SETTLED} && (document.querySelector('.result') !== null || "
                f"document.activeElement && document.activeElement.matches('{LEGAL}'))",
                timeout=60_000,
            )
            if page.locator(".result").count():
                break
            focused = page.evaluate("document.activeElement.dataset.card")
            outline = page.evaluate(  # drawn around the whole face, not the card's visible strip
                "getComputedStyle(document.activeElement.querySelector('.face')).outlineStyle"
            )
            assert outline != "none", "the focused card shows no focus ring"
            legal = [c.get_attribute("data-card") for c in page.locator(LEGAL).all()]
            if len(legal) > 1:
                page.keyboard.press("ArrowRight")
                moved = page.evaluate("document.activeElement.dataset.card")
                assert moved != focused and moved in legal
            page.keyboard.press("Enter")
            played += 1
            page.wait_for_function(
                f"() => document.querySelectorAll('{MY_CARDS}').length === {13 - played} || "
                "document.querySelector('.result') !== null"
            )
        assert 1 <= played <= 13  # the table plays out a hand with nothing left to score
        shot(page, "keyboard-hand-over")
    finally:
        context.close()


def _axe_violations(page: Page) -> list[dict[str, object]]:
    page.add_script_tag(path=str(AXE / "axe.min.js"))
    result = page.evaluate("async () => await axe.run(document, {resultTypes: ['violations']})")
    violations: list[dict[str, object]] = result["violations"]
    return [v for v in violations if v.get("impact") in ("serious", "critical")]


def test_pages_have_no_serious_accessibility_violations(browser: Browser, server: Server) -> None:
    """axe-core (vendored from the npm registry) finds no serious or critical violation on the
    new-game screen, the rules, the settings, and the table while passing, playing and at the
    end of a hand, at both sizes."""
    digest = hashlib.sha256((AXE / "axe.min.js").read_bytes()).hexdigest()
    assert (AXE / "SHA256SUMS").read_text().split()[0] == digest
    for size in (PHONE, DESKTOP):
        # The page's CSP forbids inline scripts; the test injects axe by bypassing it.
        context = browser.new_context(viewport=size, bypass_csp=True)
        page = context.new_page()
        try:
            found: dict[str, object] = {}
            for path in ("/", "/rules", "/settings"):
                page.goto(server.url + path)
                found[path] = _axe_violations(page)
            page.goto(server.url + "/")
            page.locator("form.new-game input[name=fast_play]").check()
            page.locator("form.new-game button[type=submit]").click()
            expect(page.locator(MY_CARDS)).to_have_count(13)
            found["pass"] = _axe_violations(page)
            pass_if_asked(page)
            expect(page.locator(LEGAL).first).to_be_visible(timeout=30_000)
            found["play"] = _axe_violations(page)
            play_hand_by_clicking(page)
            found["hand over"] = _axe_violations(page)
            bad = {k: v for k, v in found.items() if v}
            assert not bad, json.dumps(bad, indent=1, default=str)[:4000]
        finally:
            context.close()
