"""The game over real HTTP through the ASGI app, on a real database file (and PostgreSQL).

Covers the testability contract, a whole game played with plain forms while every response is
scanned for opponents' unplayed cards, and bad input and races: stale versions, replayed and
double posts, illegal cards, malformed forms, forged cookies, other sessions' games, cross-site
posts and the security headers.
"""

from __future__ import annotations

import gc
import hashlib
import json
import re
from datetime import UTC, datetime, timedelta
from html import unescape
from pathlib import Path

import pytest
from sqlalchemy import func, select
from starlette.testclient import TestClient

from app.engine import Card, GameState, Phase, legal_cards, to_act
from app.services import players
from app.settings import Settings
from app.store.models import Player
from app.web import routes
from app.web.main import GC_YOUNG_THRESHOLD, create_app
from tests.web.conftest import (
    BROWSER,
    assert_no_unrevealed_key,
    deal_secret,
    game_state,
    start,
    version_of,
)

REPO = Path(__file__).resolve().parents[2]
HX = {"HX-Request": "true"}


def hidden_cards(state: GameState) -> set[Card]:
    """Cards the human must not see: every other seat's unplayed cards (and the kitty)."""
    assert state.hand is not None
    hidden = {c for seat, hand in enumerate(state.hand.hands) if seat != 0 for c in hand}
    if state.hand.kitty_collector != 0:
        hidden.update(state.hand.kitty)
    # A card the human also holds (two decks) or has seen played cannot leak anything.
    seen = set(state.hand.hands[0]) | {c for t in state.hand.tricks for c in t.cards}
    return hidden - seen - {c for _, c in state.hand.current}


def assert_no_hidden_card(html: str, state: GameState) -> None:
    for c in hidden_cards(state):
        needles = (
            f'data-card="{c}"',
            f'data-played="{c}"',
            f'value="{c}"',
            f'aria-label="{c.label}',
            f">{c.label}<",
        )
        for needle in needles:
            assert needle not in html, f"{c} leaked as {needle!r}"


def test_healthz(client: TestClient) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.text == "ok"


def _players(client: TestClient) -> int:
    db = client.app.state.services.db  # type: ignore[attr-defined]
    with db.read() as session:
        return int(session.scalar(select(func.count()).select_from(Player)) or 0)


def test_reading_pages_creates_no_player_and_sets_no_cookie(client: TestClient) -> None:
    """A crawler's GETs write nothing: no player row, no session cookie."""
    for path in ("/", "/stats", "/history", "/rules", "/settings", "/games/1", "/history/1"):
        response = client.get(path)
        assert response.status_code in (200, 404), path
        assert "hearts_session" not in response.headers.get("set-cookie", ""), path
    assert _players(client) == 0


def test_the_first_new_game_creates_the_player_and_its_cookie(client: TestClient) -> None:
    response = client.post("/games", data={"level": "easy"}, follow_redirects=False)
    assert response.status_code == 303
    cookie = response.headers["set-cookie"]
    assert cookie.startswith("hearts_session=")
    assert "HttpOnly" in cookie and "samesite=lax" in cookie.lower()
    assert "Max-Age=15552000" in cookie  # the retention period: 180 days
    token = cookie.split(";")[0].split("=", 1)[1]
    assert len(token) >= 22  # at least 128 bits
    assert _players(client) == 1
    again = client.post("/games", data={"level": "easy"}, follow_redirects=False)
    assert "set-cookie" not in again.headers  # seen less than an hour ago: nothing to refresh
    assert _players(client) == 1


def test_table_contract_seats_cards_and_versions(client: TestClient) -> None:
    """Testability contract: data-seat for S W N E, data-card with codes, a versioned form."""
    game_id = start(client)
    html = client.get(f"/games/{game_id}").text
    for seat in "SWNE":
        assert f'data-seat="{seat}"' in html
    codes = re.findall(r'data-card="([2-9TJQKA][CDSH])"', html)
    assert len(codes) == 13
    state = game_state(client, game_id)
    assert state.hand is not None
    assert sorted(codes) == sorted(str(c) for c in state.hand.hands[0])
    assert version_of(html) == 4  # the deal and the three computer players' passes
    assert "Pass left" in html


def play_whole_game(client: TestClient, game_id: int, max_steps: int = 3000) -> GameState:
    """Play a game to its end with plain form posts, the way a page without scripts would,
    scanning every response for hidden cards."""
    state = game_state(client, game_id)
    secret = deal_secret(client, game_id)
    assert secret is not None and len(secret) == 64
    for step in range(max_steps):
        if state.is_over:
            return state
        page = client.get(f"/games/{game_id}")
        assert page.status_code == 200
        assert_no_hidden_card(page.text, state)
        assert_no_unrevealed_key(page.text, secret, state)
        version = version_of(page.text)
        if 0 in to_act(state) and state.phase in (Phase.PASS, Phase.PLAY) and step % 7 == 0:
            hint = client.post(f"/games/{game_id}/hint", data={"version": version}, headers=HX)
            assert hint.status_code == 200 and "coach-box" in hint.text
            assert_no_hidden_card(hint.text, state)
            assert_no_unrevealed_key(hint.text, secret, state)
            hidden = {c.label for c in hidden_cards(state)}
            named = set(re.findall(r"(?:10|[2-9JQKA])[♣♦♠♥]", hint.text))
            assert not named & hidden - {"Q♠"}, "a hint named a hidden card"
        if state.phase is Phase.DEAL:
            hand = f"/history/{game_id}/hands/{state.hand_number}"
            for path in (f"/history/{game_id}", hand, f"{hand}/review"):
                shown = client.get(path)
                assert shown.status_code == 200, path
                assert_no_unrevealed_key(shown.text, secret, state)
            response = client.post(f"/games/{game_id}/next", data={"version": version}, headers=HX)
        elif 0 in to_act(state) and state.phase is Phase.PASS:
            assert state.hand is not None
            cards = [str(c) for c in state.hand.hands[0][-3:]]
            data = {"version": str(version), "cards": cards}
            response = client.post(f"/games/{game_id}/pass", data=data, headers=HX)
        elif 0 in to_act(state):
            card = str(legal_cards(state, 0)[0])
            data = {"version": str(version), "card": card}
            response = client.post(f"/games/{game_id}/play", data=data, headers=HX)
        else:
            raise AssertionError("a game rests only where the human decides")
        assert response.status_code == 200, response.text[:500]
        after = game_state(client, game_id)
        assert_no_hidden_card(response.text, after)
        assert_no_unrevealed_key(response.text, secret, after)
        download = client.get(f"/history/{game_id}/game.json").text
        assert_no_unrevealed_key(download, secret, after)
        assert 'id="table"' in response.text and '<template class="later">' in response.text
        assert after != state
        assert after.is_over or after.phase is Phase.DEAL or 0 in to_act(after)
        state = after
    raise AssertionError("the game did not end")


def test_a_whole_game_over_http_never_shows_a_hidden_card(client: TestClient) -> None:
    game_id = start(client, level="easy")
    final = play_whole_game(client, game_id)
    assert final.winners
    html = client.get(f"/games/{game_id}").text
    assert "Game over" in html
    assert "New game" in html
    assert client.get("/").text.count("Continue your game") == 0


def test_stale_version_and_replayed_post_change_nothing(client: TestClient) -> None:
    """The same decision posted again (a retry after a lost answer) gets the same answer and
    changes nothing; another decision at the old version is refused as stale."""
    game_id = start(client)
    html = client.get(f"/games/{game_id}").text
    version = version_of(html)
    state = game_state(client, game_id)
    assert state.hand is not None
    cards = [str(c) for c in state.hand.hands[0][:3]]
    first = client.post(
        f"/games/{game_id}/pass", data={"version": str(version), "cards": cards}, headers=HX
    )
    assert first.status_code == 200
    after_first = game_state(client, game_id)
    replayed = client.post(
        f"/games/{game_id}/pass", data={"version": str(version), "cards": cards}, headers=HX
    )
    assert replayed.status_code == 200
    assert replayed.text == first.text
    assert game_state(client, game_id) == after_first
    other = [str(c) for c in state.hand.hands[0][-3:]]
    different = client.post(
        f"/games/{game_id}/pass", data={"version": str(version), "cards": other}, headers=HX
    )
    assert different.status_code == 409
    assert "moved on" in different.text
    assert game_state(client, game_id) == after_first


def test_double_click_applies_one_card(client: TestClient) -> None:
    """Two identical posts (a double click) play one card; both get the table."""
    game_id = start(client)
    state = game_state(client, game_id)
    assert state.hand is not None
    version = version_of(client.get(f"/games/{game_id}").text)
    data = {"version": str(version), "cards": [str(c) for c in state.hand.hands[0][:3]]}
    client.post(f"/games/{game_id}/pass", data=data)
    state = game_state(client, game_id)
    assert 0 in to_act(state) and state.phase is Phase.PLAY
    version = version_of(client.get(f"/games/{game_id}").text)
    card = str(legal_cards(state, 0)[0])
    responses = [
        client.post(
            f"/games/{game_id}/play",
            data={"version": str(version), "card": card},
            follow_redirects=False,
        )
        for _ in range(2)
    ]
    assert [r.status_code for r in responses] == [303, 303]
    after = game_state(client, game_id)
    assert after.hand is not None and state.hand is not None
    assert len(after.hand.hands[0]) == len(state.hand.hands[0]) - 1


def test_a_move_answer_carries_the_computers_cards_in_play_order(client: TestClient) -> None:
    """One request per decision: the answer shows the human's card, then each computer card in
    the order played (one step each, a longer pause when a trick is complete), then the final
    table, where it is the human's turn again."""
    game_id = start(client, fast=False)
    state = game_state(client, game_id)
    assert state.hand is not None
    version = version_of(client.get(f"/games/{game_id}").text)
    cards = [str(c) for c in state.hand.hands[0][:3]]
    client.post(f"/games/{game_id}/pass", data={"version": str(version), "cards": cards})
    state = game_state(client, game_id)
    version = version_of(client.get(f"/games/{game_id}").text)
    card = legal_cards(state, 0)[0]
    response = client.post(
        f"/games/{game_id}/play", data={"version": str(version), "card": str(card)}, headers=HX
    )
    assert response.status_code == 200
    after = game_state(client, game_id)
    assert 0 in to_act(after) or after.phase is Phase.DEAL
    frames = re.findall(
        r'<template class="frame" data-pause="(\d+)"[^>]* data-trick="([^"]*)"', response.text
    )
    faces = re.search(r'<template class="faces">(.*?)</template>', response.text, re.S)
    assert (faces is not None) == bool(frames)  # the faces of the steps' cards, if any
    played = [(seat, c) for t in after.hand.tricks for seat, c in t.plays]  # type: ignore[union-attr]
    played += list(after.hand.current)  # type: ignore[union-attr]
    since = played[played.index((0, card)) :]
    assert len(frames) == len(since) - 1
    for (pause, trick), (i, (seat, shown)) in zip(frames, enumerate(since), strict=False):
        hand, number, clears, plays = json.loads(unescape(trick))
        assert hand == 1 and plays[-1][:2] == [seat, str(shown)], i  # the card just played
        assert faces is not None and faces.group(1).count(f'data-played="{shown}"') == 1
        completes = (len(played) - len(since) + i + 1) % 4 == 0
        assert clears == completes  # a complete trick then goes to its winner
        assert len(plays) == 4 or not completes
        assert number == (len(played) - len(since) + i) // 4 + 1  # the trick's number this hand
        assert int(pause) == (1500 if completes else 600)


def test_the_table_shows_the_last_trick_on_demand(client: TestClient) -> None:
    """A "Last trick" button (a disclosure, no script needed) on the table once a trick is
    done: its cards in play order and who took it; none before the first trick is done."""
    game_id = start(client)
    page = client.get(f"/games/{game_id}").text
    assert 'class="last-trick"' not in page
    state = game_state(client, game_id)
    assert state.hand is not None
    cards = [str(c) for c in state.hand.hands[0][:3]]
    client.post(f"/games/{game_id}/pass", data={"version": str(version_of(page)), "cards": cards})
    while True:
        state = game_state(client, game_id)
        assert state.hand is not None
        if state.hand.tricks:
            break
        page = client.get(f"/games/{game_id}").text
        card = str(legal_cards(state, 0)[0])
        client.post(f"/games/{game_id}/play", data={"version": str(version_of(page)), "card": card})
    page = client.get(f"/games/{game_id}").text
    details = re.search(r'<details class="last-trick">(.*?)</details>', page, re.S)
    assert details is not None and "Last trick" in details.group(1)
    last = state.hand.tricks[-1]
    shown = re.findall(r'<span class="mini[^"]*">([^<]+)</span>', details.group(1))
    assert shown == [c.label for _, c in last.plays]


@pytest.mark.parametrize(
    ("data", "status", "message"),
    [
        ({"version": "{v}", "card": "XX"}, 400, "not a card"),
        ({"card": "2C"}, 400, "out of date"),
        ({"version": "abc", "card": "2C"}, 400, "out of date"),
        ({"version": "{v}"}, 400, "not a card"),
    ],
)
def test_malformed_forms_get_a_clear_message_and_change_nothing(
    client: TestClient, data: dict[str, str], status: int, message: str
) -> None:
    game_id = start(client)
    version = version_of(client.get(f"/games/{game_id}").text)
    before = game_state(client, game_id)
    filled = {k: v.replace("{v}", str(version)) for k, v in data.items()}
    response = client.post(f"/games/{game_id}/play", data=filled, headers=HX)
    assert response.status_code == status
    assert message in response.text
    assert game_state(client, game_id) == before


def test_illegal_card_is_refused_with_the_rule(client: TestClient) -> None:
    game_id = start(client)
    version = version_of(client.get(f"/games/{game_id}").text)
    before = game_state(client, game_id)
    assert before.hand is not None
    # During the pass no card may be played (R4.3).
    card = str(before.hand.hands[0][0])
    response = client.post(
        f"/games/{game_id}/play", data={"version": str(version), "card": card}, headers=HX
    )
    assert response.status_code == 422
    assert 'role="alert"' in response.text
    assert game_state(client, game_id) == before
    # Passing two cards is refused too (R4.7).
    two = [str(c) for c in before.hand.hands[0][:2]]
    response = client.post(
        f"/games/{game_id}/pass", data={"version": str(version), "cards": two}, headers=HX
    )
    assert response.status_code == 400
    assert "exactly three" in response.text
    assert game_state(client, game_id) == before


def test_another_sessions_game_is_not_found(client: TestClient, database_url: str) -> None:
    game_id = start(client)
    settings = Settings(database_url=database_url, secure_cookies=False)
    other = TestClient(create_app(settings), headers=BROWSER)
    assert other.get(f"/games/{game_id}").status_code == 404
    version = version_of(client.get(f"/games/{game_id}").text)
    response = other.post(f"/games/{game_id}/advance", data={"version": str(version)})
    assert response.status_code == 404
    assert client.get("/games/999999").status_code == 404
    assert client.get("/games/not-a-number").status_code == 404


def test_forged_cookie_gets_a_fresh_session(client: TestClient) -> None:
    """A cookie the database does not know reads as a new browser; its first game gets a token
    of its own, never the one offered."""
    for forged in ["forged", "x" * 40, "'; DROP TABLE players; --", "%00" * 30]:
        client.cookies.clear()
        client.cookies.set("hearts_session", forged)
        assert client.get("/").status_code == 200
        response = client.post("/games", data={"level": "easy"}, follow_redirects=False)
        assert response.status_code == 303
        fresh = response.headers["set-cookie"].split(";")[0].split("=", 1)[1]
        assert fresh != forged and len(fresh) >= 22


def test_cross_site_posts_are_refused(client: TestClient) -> None:
    game_id = start(client)
    version = version_of(client.get(f"/games/{game_id}").text)
    before = game_state(client, game_id)
    for headers in (
        {"Origin": "https://evil.example"},
        {"Sec-Fetch-Site": "cross-site"},
        {"Origin": "null"},
    ):
        response = client.post(
            f"/games/{game_id}/advance", data={"version": str(version)}, headers=headers
        )
        assert response.status_code == 403
    response = client.post(
        "/games", data={"level": "easy"}, headers={"Origin": "https://evil.example"}
    )
    assert response.status_code == 403
    bare = TestClient(client.app, cookies=client.cookies)  # neither Origin nor Sec-Fetch-Site
    assert bare.post(f"/games/{game_id}/advance", data={"version": str(version)}).status_code == 403
    assert bare.post("/games", data={"level": "easy"}).status_code == 403
    assert game_state(client, game_id) == before
    same = client.post(
        f"/games/{game_id}/advance",
        data={"version": str(version)},
        headers={"Origin": "http://testserver", "Sec-Fetch-Site": "same-origin"},
    )
    assert same.status_code in (200, 303)


def test_fetch_metadata_is_trusted_behind_a_proxy_that_rewrites_host(client: TestClient) -> None:
    """With Sec-Fetch-Site the Origin is not compared with Host (a proxy may rewrite Host)."""
    game_id = start(client)
    version = version_of(client.get(f"/games/{game_id}").text)
    proxied = {"Host": "app.internal:8000", "Origin": "https://hearts.example"}
    for site in ("same-origin", "none"):
        response = client.post(
            f"/games/{game_id}/advance",
            data={"version": str(version)},
            headers={**proxied, "Sec-Fetch-Site": site},
            follow_redirects=False,
        )
        assert response.status_code in (200, 303), site
        version = version_of(client.get(f"/games/{game_id}").text)
    for site in ("same-site", "cross-site"):
        response = client.post(
            f"/games/{game_id}/advance",
            data={"version": str(version)},
            headers={**proxied, "Sec-Fetch-Site": site},
        )
        assert response.status_code == 403, site
    without = client.post(
        f"/games/{game_id}/advance", data={"version": str(version)}, headers=proxied
    )
    assert without.status_code == 403


def _language_return(html: str) -> str:
    found = re.search(r'name="next" value="([^"]*)"', html)
    assert found is not None, "no language switch on the page"
    return found.group(1)


def test_language_switch_returns_to_a_page_that_exists(client: TestClient) -> None:
    """A page rendered by a POST has no GET route at its URL: the switch goes to the page's
    GET address instead (not a 405)."""
    refused = client.post("/games", data={"level": "nonsense"})
    assert refused.status_code == 400
    assert _language_return(refused.text) == "/"
    game_id = start(client)
    illegal = client.post(f"/games/{game_id}/play", data={"version": "0", "card": "XX"})
    assert illegal.status_code >= 400
    target = _language_return(illegal.text)
    assert target == f"/games/{game_id}"
    switched = client.post("/language", data={"lang": "uk", "next": target})
    assert switched.status_code == 200
    rules = client.get("/rules", params={"preset": "cancellation"})
    assert _language_return(rules.text) == "/rules?preset=cancellation"


def test_display_settings_are_remembered_in_this_browser(client: TestClient) -> None:
    """The settings page's choices come back as the body's classes on every page; an unknown
    two-tap choice is taken as the default (two taps on touch screens)."""
    assert '<option value="touch" selected>' in client.get("/settings").text
    saved = client.post(
        "/settings",
        data={"four_colours": "on", "two_taps": "never"},
        headers=BROWSER,
        follow_redirects=False,
    )
    assert saved.status_code == 303
    page = client.get("/")
    body = re.search(r'<body class="([^"]*)"', page.text)
    assert body is not None and set(body.group(1).split()) == {"four-colours", "two-taps-never"}
    client.post("/settings", data={"two_taps": "sometimes"}, headers=BROWSER)
    body = re.search(r'<body class="([^"]*)"', client.get("/rules").text)
    assert body is not None and body.group(1).split() == []
    assert '<option value="touch" selected>' in client.get("/settings").text


def test_sounds_and_what_the_table_plays_for_you_are_settings(client: TestClient) -> None:
    """Quiet sounds and the only legal card played for you are off until chosen; finishing a
    hand at once is on until turned off; the page shows each choice as saved."""
    page = client.get("/settings").text
    assert re.search(r'name="finish_hand" checked', page)
    assert not re.search(r'name="(sounds|only_card)" checked', page)
    client.post("/settings", data={"sounds": "on", "only_card": "on"}, headers=BROWSER)
    page = client.get("/settings").text
    assert re.search(r'name="sounds" checked', page) and re.search(
        r'name="only_card" checked', page
    )
    assert not re.search(r'name="finish_hand" checked', page)
    body = re.search(r'<body class="([^"]*)"', client.get("/").text)
    assert body is not None and body.group(1).split() == ["sounds"]  # the page makes them


def test_a_started_server_spares_its_requests_long_garbage_collections(
    client: TestClient,
) -> None:
    """Once started, the process has frozen its start-up objects out of the collector's way and
    collects young objects less often (the client has started the app)."""
    assert client.get("/healthz").status_code == 200
    assert gc.get_freeze_count() > 10_000
    assert gc.get_threshold()[0] == GC_YOUNG_THRESHOLD


def test_a_new_visitors_home_page_is_rendered_once(client: TestClient) -> None:
    """A browser without a game gets the new-game screen as rendered for the first visitor in
    its language and display settings; a browser with a game in progress gets its own."""
    routes.HOME_PAGES.clear()
    pages: dict[str, set[str]] = {}
    for language in ("en", "uk", "en"):
        response = client.get("/", headers={"Accept-Language": language})
        assert response.status_code == 200 and response.headers["content-type"].startswith(
            "text/html"
        )
        assert f'<html lang="{language}"' in response.text
        pages.setdefault(language, set()).add(response.text)
    assert len(routes.HOME_PAGES) == 2 and all(len(p) == 1 for p in pages.values())
    fresh = client.get("/?fresh=1", headers={"Accept-Language": "en"}).text  # not cached
    assert fresh.replace("?fresh=1", "") == next(iter(pages["en"]))
    start(client)
    assert "Continue your game" in client.get("/").text
    client.cookies.clear()
    assert "Continue your game" not in client.get("/").text


def test_security_headers(client: TestClient) -> None:
    game_id = start(client)
    response = client.get(f"/games/{game_id}")
    csp = response.headers["content-security-policy"]
    assert "unsafe-eval" not in csp and "unsafe-inline" not in csp
    assert "default-src 'self'" in csp
    assert response.headers["x-content-type-options"] == "nosniff"
    assert response.headers["cache-control"] == "no-store"
    assert "HX-Request" in response.headers["vary"]
    assert "<script" in response.text and "<script>" not in response.text  # no inline scripts


def test_htmx_fragment_or_full_page(client: TestClient) -> None:
    game_id = start(client)
    full = client.get(f"/games/{game_id}")
    assert full.text.lstrip().lower().startswith("<!doctype html>")
    partial = client.get(f"/games/{game_id}", headers=HX)
    assert not partial.text.lstrip().lower().startswith("<!doctype html>")
    assert 'id="table"' in partial.text
    restore = client.get(f"/games/{game_id}", headers={**HX, "HX-History-Restore-Request": "true"})
    assert restore.text.lstrip().lower().startswith("<!doctype html>")


def test_resume_after_restarting_the_app(client: TestClient, database_url: str) -> None:
    """A new app process on the same database shows the same table to the same browser."""
    game_id = start(client)
    before = client.get(f"/games/{game_id}").text
    cookie = client.cookies.get("hearts_session")
    assert cookie
    restarted = TestClient(create_app(Settings(database_url=database_url, secure_cookies=False)))
    restarted.headers.update(BROWSER)
    restarted.cookies.set("hearts_session", cookie)
    after = restarted.get(f"/games/{game_id}")
    assert after.status_code == 200
    strip = re.compile(r"\s+")
    assert strip.sub(" ", after.text) == strip.sub(" ", before)
    assert f"/games/{game_id}" in restarted.get("/").text  # "Continue"


def test_vendored_htmx_matches_its_checksum() -> None:
    folder = REPO / "static" / "vendor" / "htmx"
    expected, name = (folder / "SHA256SUMS").read_text().split()
    assert name == "htmx.min.js"
    digest = hashlib.sha256((folder / name).read_bytes()).hexdigest()
    assert digest == expected
    assert (folder / "LICENSE").is_file()


def test_a_visit_is_recorded_at_most_hourly_and_renews_the_cookie(client: TestClient) -> None:
    """`last_seen_at` is written by a state-changing request only when it is an hour old; that
    request re-sends the session cookie with a fresh max-age (the retention period)."""
    game_id = start(client)
    token = client.cookies.get("hearts_session")
    db = client.app.state.services.db  # type: ignore[attr-defined]
    two_hours_ago = datetime.now(UTC) - timedelta(hours=2)
    with db.write() as session:
        session.get_one(Player, token).last_seen_at = two_hours_ago
    players._checked.clear()  # what this process remembers of the visit is two hours old too
    state = game_state(client, game_id)
    assert state.hand is not None
    data = {"version": str(version_of(client.get(f"/games/{game_id}").text))}
    data["cards"] = [str(c) for c in state.hand.hands[0][:3]]  # type: ignore[assignment]
    moved = client.post(f"/games/{game_id}/pass", data=data, follow_redirects=False)
    assert moved.status_code == 303
    assert moved.headers["set-cookie"].startswith(f"hearts_session={token};")
    assert "Max-Age=15552000" in moved.headers["set-cookie"]
    with db.read() as session:
        seen = session.get_one(Player, token).last_seen_at
    assert seen > two_hours_ago + timedelta(minutes=90)
    page = client.get(f"/games/{game_id}")
    assert "set-cookie" not in page.headers  # reading records nothing
    again = client.post("/games", data={"level": "easy"}, follow_redirects=False)
    assert "set-cookie" not in again.headers  # seen a moment ago
    with db.read() as session:
        assert session.get_one(Player, token).last_seen_at == seen
