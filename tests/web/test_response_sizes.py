"""Lean answers (the issue's budget): with gzip, the first page and what it links weigh at most
60 KB, and every answer to a move at a four-seat table at most 5 KB."""

from __future__ import annotations

import re

from starlette.testclient import TestClient

from app.engine import Phase, legal_cards, to_act
from tests.web.conftest import game_state, start, version_of

GZIP = {"Accept-Encoding": "gzip"}
HX = {"HX-Request": "true", **GZIP}
FIRST_PAGE_BUDGET = 60 * 1024
MOVE_BUDGET = 5 * 1024


def wire_size(client: TestClient, method: str, path: str, **kwargs: object) -> tuple[int, str]:
    """The bytes a response takes on the wire (compressed), and its text."""
    response = client.request(method, path, **kwargs)  # type: ignore[arg-type]
    assert response.status_code < 400, (path, response.status_code)
    return response.num_bytes_downloaded, response.text


def test_the_first_page_and_what_it_links_fit_in_60_kb(client: TestClient) -> None:
    size, html = wire_size(client, "GET", "/", headers=GZIP)
    links = re.findall(r'(?:href|src)="(/static/[^"]+)"', html)
    assert any(link.endswith(".js") or ".js?" in link for link in links)
    assert any(".css" in link for link in links)
    for link in links:
        size += wire_size(client, "GET", link, headers=GZIP)[0]
    assert size <= FIRST_PAGE_BUDGET, f"the first page weighs {size} bytes"


def test_every_answer_to_a_move_fits_in_5_kb(client: TestClient) -> None:
    """A whole game at four seats: each decision's answer (the computers' cards included)."""
    game_id = start(client)
    state = game_state(client, game_id)
    largest = 0
    moves = 0
    data: dict[str, object]
    while not state.is_over and moves < 400:
        version = str(version_of(client.get(f"/games/{game_id}").text))
        if state.phase is Phase.DEAL:
            path, data = "next", {"version": version}
        elif state.phase is Phase.PASS:
            assert state.hand is not None
            path, data = (
                "pass",
                {"version": version, "cards": [str(c) for c in state.hand.hands[0][:3]]},
            )
        else:
            assert 0 in to_act(state)
            path, data = "play", {"version": version, "card": str(legal_cards(state, 0)[0])}
        size, _ = wire_size(client, "POST", f"/games/{game_id}/{path}", data=data, headers=HX)
        largest = max(largest, size)
        moves += 1
        state = game_state(client, game_id)
    assert state.is_over
    assert largest <= MOVE_BUDGET, f"an answer to a move weighed {largest} bytes"
