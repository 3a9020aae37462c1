"""The computers' turns planned in parts (`computers.plan`'s `think_s`, the server's
`HEARTS_THINKER_CHUNK_S`): however the actions are split between responses, and wherever the
human's pass falls among the computers' passes, every computer decides the same; the page asks
for the rest, and never while the human is still to decide."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from starlette.testclient import TestClient

from app.engine import (
    Action,
    GameHeader,
    GameState,
    Pass,
    Phase,
    RuleOptions,
    apply,
    new_game,
    random_deal,
    replay,
    to_act,
    view_for,
)
from app.services.computers import pass_view, plan
from app.settings import Limits, Settings
from app.store import load_actions
from app.store.models import Game
from app.web.main import create_app
from tests.store.conftest import migrate
from tests.web.conftest import BROWSER, game_state, version_of

HUMAN = "human"
ADVANCE = 'action="/games/{}/advance"'


def dealt(options: RuleOptions, seed: int) -> GameState:
    state = apply(new_game(options), random_deal(options, random.Random(seed)))
    assert state.phase is Phase.PASS
    return state


def in_parts(
    state: GameState, seats: tuple[str, ...], seed: int, number: int
) -> tuple[list[Action], GameState]:
    """What `plan` gives one action at a time (`think_s=0`), until the human must decide."""
    actions: list[Action] = []
    while part := plan(state, seats, seed, number + len(actions), think_s=0):
        assert len(part) == 1  # at least one action, then the clock has run out
        actions += part
        state = apply(state, part[0])
    return actions, state


def human_pass(state: GameState) -> Pass:
    assert state.hand is not None
    return Pass(0, tuple(sorted(state.hand.hands[0])[:3]))


def test_passes_do_not_depend_on_where_the_humans_pass_falls() -> None:
    """At four seats, where Hard and Expert search their passes in imagined deals, the passes
    planned at once, one at a time, and with the human passing after the first computer are
    the same passes (R4.3: passes are simultaneous)."""
    seats = (HUMAN, "expert", "hard", "expert")
    state = dealt(RuleOptions.standard(), 3)
    at_once = plan(state, seats, 11, 1)
    assert len(at_once) == 3 and all(isinstance(a, Pass) for a in at_once)
    one_by_one, _ = in_parts(state, seats, 11, 1)
    assert one_by_one == at_once
    first = plan(state, seats, 11, 1, think_s=0)
    later = apply(apply(state, first[0]), human_pass(state))
    rest = [a for a in plan(later, seats, 11, 3) if isinstance(a, Pass)]
    assert first + rest == at_once


def test_the_pass_view_is_the_view_as_the_pass_began() -> None:
    """Whichever seats committed first, a seat still to pass sees what it saw at the deal."""
    state = dealt(RuleOptions.standard(), 4)
    hand = state.hand
    assert hand is not None
    at_deal = [view_for(state, seat) for seat in range(4)]
    assert [pass_view(state, seat) for seat in range(4)] == at_deal
    for seat in (2, 0):
        state = apply(state, Pass(seat, tuple(sorted(hand.dealt[seat])[:3])))
    assert view_for(state, 3) != at_deal[3]
    assert pass_view(state, 3) == at_deal[3] and pass_view(state, 1) == at_deal[1]
    for seat in (1, 3):
        state = apply(state, Pass(seat, tuple(sorted(hand.dealt[seat])[:3])))
    assert state.phase is Phase.PLAY
    assert pass_view(state, 3) == view_for(state, 3)  # past the pass, the view itself


def test_plays_planned_in_parts_are_the_plays_planned_at_once() -> None:
    seats = (HUMAN, "medium", "hard", "medium")
    state = dealt(RuleOptions.standard(), 5)
    passes = plan(state, seats, 7, 1)
    for action in [*passes, human_pass(state)]:
        state = apply(state, action)
    number = 1 + len(passes) + 1
    while state.phase is Phase.PLAY and 0 not in to_act(state):
        at_once = plan(state, seats, 7, number)
        parts, after = in_parts(state, seats, 7, number)
        assert parts == at_once and len(parts) >= 1
        state, number = after, number + len(parts)
    assert state.phase is Phase.PLAY and to_act(state) == (0,)


@pytest.fixture
def one_action_a_response(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    """The real app whose every response carries at most one Hard or Expert action."""
    url = f"sqlite:///{tmp_path_factory.mktemp('parts') / 'hearts.db'}"
    migrate(url)
    settings = Settings(
        url,
        secure_cookies=False,
        thinker_processes=0,
        thinker_chunk_s=0.0,
        limits=Limits(rate_limits=False),
    )
    with TestClient(create_app(settings), headers=BROWSER) as client:
        yield client


def test_expert_passes_at_cancellation_come_one_response_at_a_time(
    one_action_a_response: TestClient,
) -> None:
    """Seven Expert computers at Cancellation-8: the new game holds one computer's pass, and the
    page asks for nothing more while the player chooses; the player's pass brings one more, and
    the page then asks for the rest until it is the player's turn. The computers pass as they
    would have in one response."""
    client = one_action_a_response
    form = {"level": "expert", "preset": "cancellation", "players_cancellation": "8"}
    created = client.post("/games", data=form, follow_redirects=False)
    assert created.status_code == 303
    game_id = int(created.headers["location"].rsplit("/", 1)[1])
    page = client.get(f"/games/{game_id}").text
    state = game_state(client, game_id)
    assert state.phase is Phase.PASS and 0 in to_act(state)
    assert state.hand is not None and sum(p is not None for p in state.hand.passed) == 1
    assert ADVANCE.format(game_id) not in page  # the player is choosing a pass
    hand = state.hand
    assert hand is not None
    cards = [str(c) for c in sorted(hand.hands[0])[:3]]
    page = client.post(
        f"/games/{game_id}/pass", data={"version": str(version_of(page)), "cards": cards}
    ).text
    asked = 0
    while ADVANCE.format(game_id) in page:
        assert 0 not in to_act(game_state(client, game_id))
        page = client.post(
            f"/games/{game_id}/advance", data={"version": str(version_of(page))}
        ).text
        asked += 1
        assert asked < 30
    state = game_state(client, game_id)
    assert state.phase is Phase.PLAY and to_act(state) == (0,)
    assert asked >= 6  # six more passes, then each computer card before the player's
    with client.app.state.services.db.read() as session:  # type: ignore[attr-defined]
        game = session.get(Game, game_id)
        assert game is not None
        header, seats, seed = GameHeader.from_json(game.header), tuple(game.seats), game.seed
        logged = load_actions(session, game)
    assert seats == (HUMAN,) + ("expert",) * 7
    computer_passes = [a for a in logged if isinstance(a, Pass) and a.seat != 0]
    at_once = plan(replay(header, logged[:1]), seats, seed, 1)
    assert len(computer_passes) == 7 and computer_passes == at_once
