"""The table tells you things: an arrow on the felt points at the seat that receives your pass,
and, when chosen in the settings, quiet sounds for your turn and the queen of spades."""

from __future__ import annotations

from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import DESKTOP, PHONE, SETTLED, Server, shot
from tests.browser.test_table import LEGAL, new_game, pass_three, tap

ARROW_END = """() => {
  // Where the arrow's head ends, from the middle of the table along its angle.
  const arrow = document.querySelector("#table .pass-arrow");
  const felt = arrow.parentElement.getBoundingClientRect();
  const style = getComputedStyle(arrow);
  const angle = parseFloat(style.getPropertyValue("--angle"));
  const length = parseFloat(style.getPropertyValue("--length")) + 14;  // and its head
  return [felt.left + felt.width * 0.5 + Math.cos(angle) * length,
          felt.top + felt.height * 0.58 + Math.sin(angle) * length];
}"""
NEAREST_SEAT = """([x, y]) => {
  let best = null, distance = Infinity;
  document.querySelectorAll("#table .felt .seat").forEach((seat) => {
    const r = seat.getBoundingClientRect();
    const dx = Math.max(r.left - x, 0, x - r.right), dy = Math.max(r.top - y, 0, y - r.bottom);
    const d = Math.hypot(dx, dy);
    if (d < distance) { distance = d; best = seat.dataset.seat; }
  });
  return [best, distance];
}"""


def test_an_arrow_points_at_the_seat_that_receives_the_pass(
    browser: Browser, server: Server
) -> None:
    for size, name in ((DESKTOP, "desktop"), (PHONE, "phone")):
        context = browser.new_context(viewport=size, has_touch=size is PHONE)
        page = context.new_page()
        try:
            new_game(page, server)  # hand 1 passes left: to West
            receiver = page.locator(".felt .seat.receives")
            expect(receiver).to_have_count(1)
            expect(page.locator(".pass-arrow.aimed")).to_be_visible()
            seat, distance = page.evaluate(NEAREST_SEAT, page.evaluate(ARROW_END))
            assert seat == receiver.get_attribute("data-seat") and distance < 30, (seat, distance)
            shot(page, f"pass-arrow-{name}")
            pass_three(page)
            expect(page.locator(".pass-arrow")).to_have_count(0)  # gone once passed
        finally:
            context.close()


FAKE_AUDIO = """
window.tones = [];
window.AudioContext = class {
  constructor() { this.currentTime = 0; this.state = "running"; this.destination = {}; }
  resume() {}
  createOscillator() {
    const tone = { frequency: {}, connect: (x) => x, stop: () => {},
                   start: () => window.tones.push(tone.frequency.value) };
    return tone;
  }
  createGain() {
    const ramp = () => {};
    const gain = { setValueAtTime: ramp, exponentialRampToValueAtTime: ramp };
    return { gain, connect: (x) => x };
  }
};
"""


def tones_after_a_card(page: Page) -> list[float]:
    page.wait_for_function(f"() => {SETTLED} && document.querySelector('{LEGAL}') !== null")
    page.evaluate("window.tones = []")
    held = page.locator(".you [data-card]").count()
    tap(page.locator(LEGAL).first)
    page.wait_for_function(
        f"() => {SETTLED} && document.querySelectorAll('.you [data-card]').length < {held}"
        f" && (document.querySelector('{LEGAL}') !== null || document.querySelector('.result'))"
    )
    tones: list[float] = page.evaluate("window.tones")
    return tones


def test_sounds_are_quiet_until_chosen(browser: Browser, server: Server) -> None:
    context = browser.new_context(viewport=DESKTOP)
    context.add_init_script(FAKE_AUDIO)
    page = context.new_page()
    try:
        new_game(page, server)
        pass_three(page)
        assert tones_after_a_card(page) == []  # off by default
        page.goto(server.url + "/settings")
        page.get_by_label("Quiet sounds").check()
        page.locator("form[action='/settings'] button[type=submit]").click()
        page.goto(server.url + "/")
        page.get_by_role("link", name="Continue your game").click()
        heard: list[float] = []
        for _ in range(4):
            heard += tones_after_a_card(page)
            if page.locator(".result").count():
                break
        assert 880 in heard  # the chime of your turn, after the others' cards
    finally:
        context.close()


MARK_EVERY_SEAT = """() => Array.from(document.querySelectorAll("#table .felt .seat[data-seat]"))
  .map((box) => {
    const before = box.getBoundingClientRect();
    box.classList.add("moon-watched");
    const badge = box.querySelector(".moon-watch");
    badge.hidden = false;
    const after = box.getBoundingClientRect();
    const mark = badge.getBoundingClientRect();
    return [box.dataset.seat, before.width, after.width, before.height, after.height,
            mark.width > 0 && mark.height > 0];
  })"""


def test_the_moon_watch_mark_keeps_every_seat_box_its_size(
    browser: Browser, server: Server
) -> None:
    """A seat under moon watch shows its mark without growing its box (a wider box could reach
    the cards on the table), at the narrowest phone and at a five-seat and an eleven-seat
    table."""
    for form in (
        {},
        {"preset": "standard", "players_standard": "5"},
        {"preset": "cancellation", "players_cancellation": "11"},
    ):
        context = browser.new_context(viewport={"width": 360, "height": 640}, has_touch=True)
        page = context.new_page()
        try:
            page.goto(server.url + "/")
            started = page.request.post(
                server.url + "/games",
                form={"level": "easy", **form},
                headers={"Origin": server.url},
                max_redirects=0,
            )
            page.goto(server.url + started.headers["location"])
            seats = page.evaluate(MARK_EVERY_SEAT)
            assert len(seats) >= 2
            for key, w0, w1, h0, h1, shown in seats:
                assert shown, key
                assert abs(w1 - w0) < 0.5 and abs(h1 - h0) < 0.5, (form, key, w0, w1, h0, h1)
            if form.get("players_standard") == "5":
                shot(page, "moon-watch-standard-5")
        finally:
            context.close()
