"""The load benchmark `bench.server`: a short real run, and how its players read the table.

The run starts the real server on a temporary SQLite file and plays for a few seconds with three
quick players (short thinking, the server's pauses scaled down); it proves the benchmark plays
real games end to end, that no request of theirs failed, and that the summary line parses.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from bench.screen import read_screen, static_links

REPO = Path(__file__).resolve().parents[2]
SUMMARY = re.compile(
    r"^server: (\d+) players, ([\d.]+) req/s, card p50 (\d+) ms, p95 (\d+) ms, p99 (\d+) ms, "
    r"failures (\d+)$"
)


def test_a_short_run_plays_real_games_without_a_failed_request() -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "bench.server",
            "--players",
            "3",
            "--duration",
            "4",
            "--ramp",
            "1",
            "--think",
            "0.2-0.4",
            "--env",
            "HEARTS_PAUSE_SCALE=0.2",
        ],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.strip().splitlines()
    summary = SUMMARY.match(lines[-1])
    assert summary is not None, done.stdout
    players, rate, p50, p95, p99, failed = summary.groups()
    assert players == "3"
    assert float(rate) > 0
    assert int(p50) <= int(p95) <= int(p99)
    assert failed == "0", done.stdout
    assert any(re.fullmatch(r"recovered in [\d.]+ s", line) for line in lines), done.stdout
    # The measured period starts after the ramp-up, once every player's first game has started.
    warm_up = re.search(r"ramp-up 1 s, warm-up ([\d.]+) s, measured", done.stdout)
    assert warm_up is not None, done.stdout
    assert float(warm_up.group(1)) >= 1.0


TABLE = """
<section id="table">
  <form class="hand play-form" method="post" action="/games/12/play" hx-post="/games/12/play">
    <input type="hidden" name="version" value="41">
    <button class="card illegal" type="submit" name="card" value="2C" data-card="2C" disabled>
    <button class="card" type="submit" name="card" value="QS" data-card="QS" autofocus>
    <button class="card received" type="submit" name="card" value="AH" data-card="AH">
  </form>
  {extra}
</section>
"""


def test_the_player_plays_only_the_enabled_cards() -> None:
    screen = read_screen(TABLE.format(extra=""))
    assert (screen.kind, screen.game_id, screen.version) == ("play", 12, "41")
    assert screen.cards == ["QS", "AH"]


def test_frames_are_waited_out_and_not_read_as_the_table() -> None:
    frame = (
        '<template class="frame" data-pause="{p}"><form hx-post="/games/12/next">'
        '<input type="hidden" name="version" value="7"></form></template>'
    )
    page = frame.format(p=600) + TABLE.format(extra=frame.format(p=1500))
    screen = read_screen(page)
    assert (screen.kind, screen.version, screen.cards) == ("play", "41", ["QS", "AH"])
    assert screen.pause == 2.1


def test_the_advance_form_is_posted_after_its_delay() -> None:
    advance = (
        '<form class="stepper" method="post" action="/games/12/advance" '
        'hx-post="/games/12/advance" hx-trigger="load delay:200ms, click from:body" '
        'hx-target="#table"><input type="hidden" name="version" value="41"></form>'
    )
    screen = read_screen(TABLE.format(extra=advance))
    assert (screen.kind, screen.advance_delay) == ("advance", 0.2)


def test_moon_next_hand_pass_and_game_over_are_told_apart() -> None:
    moon = (
        '<form hx-post="/games/3/moon"><input type="hidden" name="version" value="9">'
        '<button class="button primary moon-button" type="submit" name="scoring" '
        'value="add_to_others"></button></form><form hx-post="/games/3/moon">'
        '<button type="submit" name="scoring" value="subtract_from_self"></button></form>'
    )
    assert read_screen(moon).scorings == ["add_to_others", "subtract_from_self"]
    next_hand = '<form hx-post="/games/3/next"><input type="hidden" name="version" value="9">'
    assert read_screen(next_hand).kind == "next"
    passing = (
        '<form class="hand pass-form" action="/games/3/pass" hx-post="/games/3/pass">'
        + "".join(
            f'<input class="visually-hidden" type="checkbox" name="cards" value="{c}">'
            for c in ("2C", "3C", "4C", "5C")
        )
    )
    assert read_screen(passing).cards == ["2C", "3C", "4C", "5C"]
    over = '<form method="post" action="/games/3/again"><button class="button primary">'
    assert (read_screen(over).kind, read_screen(over).game_id) == ("over", 3)


def test_the_static_files_of_a_page_are_found_once() -> None:
    page = (
        '<link rel="icon" href="/static/favicon.svg"><link rel="stylesheet" '
        'href="/static/css/app.css"><script src="/static/js/app.js" defer></script>'
        '<link rel="stylesheet" href="/static/css/app.css"><a href="/static/x">'
    )
    assert static_links(page) == ["/static/favicon.svg", "/static/css/app.css", "/static/js/app.js"]
