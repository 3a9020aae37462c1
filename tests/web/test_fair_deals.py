"""Verifiable deals through the services and the web (docs/fair-play.md): every table's games
are dealt from their secret, as an independent implementation of the document computes; the
table shows the commitments, the history checks each revealed hand, the download lets
`app.verify` check the whole game, and tampering with one card makes it fail with the hand and
the reason. Games stored before verifiable deals still play and say they cannot be checked."""

from __future__ import annotations

import copy
import hashlib
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, update
from starlette.testclient import TestClient

from app import verify
from app.engine import (
    MoonChoice,
    MoonScoring,
    Pass,
    Phase,
    Play,
    RuleOptions,
    legal_actions,
    view_for,
)
from app.engine.fairdeal import hand_key
from app.services import games, history
from app.services.autoplay import AutoPlay
from app.services.computers import Thinkers
from app.services.database import Database
from app.services.players import Caller
from app.store.models import Game
from tests import fairplay
from tests.store.conftest import engine
from tests.web.conftest import deal_secret, game_state, start, version_of

__all__ = ["engine"]

INLINE = Thinkers(processes=0)
MOON_CHOICES = [MoonScoring.ADD_TO_OTHERS, MoonScoring.SUBTRACT_FROM_SELF]
QUICK = AutoPlay(only_card=True, finish_hand=True)
HX = {"HX-Request": "true"}

TABLES = [RuleOptions.standard(num_players=n) for n in range(3, 8)] + [
    RuleOptions.cancellation(num_players=n) for n in range(6, 12)
]


def _play_to_the_end(db: Database, caller: Caller, game_id: int, seed: int) -> None:
    """Play the human's seat with random legal decisions through the services, to the end."""
    rng = random.Random(seed)
    for _ in range(2000):
        table = games.table(db, caller, game_id)
        view = table.view
        if view.phase is Phase.GAME_OVER:
            return
        if view.phase is Phase.DEAL:
            games.next_hand(db, INLINE, caller, game_id, table.version, QUICK)
            continue
        action: Pass | Play | MoonChoice
        if view.phase is Phase.PASS:
            action = Pass(0, rng.sample(list(view.hand), 3))
        elif view.phase is Phase.MOON_CHOICE:
            action = MoonChoice(0, rng.choice(MOON_CHOICES))
        else:
            action = Play(0, rng.choice(list(view.legal)))
        games.act(db, INLINE, caller, game_id, table.version, action, QUICK)
    raise AssertionError("the game did not end")


@pytest.fixture
def db(engine: Engine) -> Database:
    return Database(engine)


@pytest.mark.parametrize("options", TABLES, ids=lambda o: f"{o.variant.value}-{o.num_players}")
def test_whole_games_at_every_table_are_dealt_as_the_document_says(
    db: Database, options: RuleOptions
) -> None:
    """A whole game through the services: each hand's deal in the log is the one the
    independent implementation derives from the game's revealed secret, and `app.verify`
    passes the download."""
    caller = Caller()
    game_id = games.start_game(db, INLINE, caller, "easy", True, options, auto=QUICK)
    _play_to_the_end(db, caller, game_id, seed=options.num_players)
    doc = _export(db, caller, game_id)
    seal = doc["fair_play"]
    secret = bytes.fromhex(seal["secret"])
    assert hashlib.sha256(secret).hexdigest() == seal["commitment"]
    cancellation = options.is_cancellation
    deals = [a for a in doc["actions"] if a["type"] == "deal"]
    assert len(deals) == len(doc["hands"]) == len(seal["hands"]) >= 1
    for number, deal in enumerate(deals, start=1):
        hands, kitty = fairplay.deal(
            fairplay.hand_key(secret, number), cancellation, options.num_players
        )
        assert [sorted(h, key=fairplay.card_order) for h in deal["hands"]] == hands
        assert sorted(deal["kitty"], key=fairplay.card_order) == kitty
        assert seal["hands"][number - 1]["key"] == fairplay.hand_key(secret, number).hex()
    report = verify.verify(doc)
    assert report.verifiable and report.hands == len(deals)


def _export(db: Database, caller: Caller, game_id: int) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(json.dumps(history.export(db, caller, game_id)))
    return doc


def test_the_table_and_the_history_show_the_seals_and_reveal_only_what_is_over(
    client: TestClient,
) -> None:
    game_id = start(client)
    secret = deal_secret(client, game_id)
    assert secret is not None
    commitment = hashlib.sha256(bytes.fromhex(secret)).hexdigest()
    page = client.get(f"/games/{game_id}").text
    assert commitment in page
    key1 = hand_key(bytes.fromhex(secret), 1)
    assert hashlib.sha256(key1).hexdigest()[:16] in page
    assert key1.hex() not in page and secret not in page
    record = client.get(f"/history/{game_id}").text
    assert "sealed until the hand is over" in record and key1.hex() not in record
    doc = client.get(f"/history/{game_id}/game.json").json()
    assert doc["fair_play"]["secret"] is None
    assert doc["fair_play"]["hands"] == [
        {"number": 1, "key_commitment": hashlib.sha256(key1).hexdigest(), "key": None}
    ]
    # Once the first hand is scored its key is out, and the second hand's commitment shows.
    _finish_hand(client, game_id)
    doc = client.get(f"/history/{game_id}/game.json").json()
    assert doc["fair_play"]["hands"][0]["key"] == key1.hex()
    assert doc["fair_play"]["secret"] is None
    record = client.get(f"/history/{game_id}").text
    assert "verified ✓" in record and key1.hex() in record and secret not in record
    key2 = hand_key(bytes.fromhex(secret), 2)
    assert key2.hex() not in record and key2.hex() not in json.dumps(doc)
    # A new game abandons this one: its secret is revealed.
    start(client)
    doc = client.get(f"/history/{game_id}/game.json").json()
    assert doc["fair_play"]["secret"] == secret
    assert secret in client.get(f"/history/{game_id}").text
    assert verify.verify(doc).verifiable


def _finish_hand(client: TestClient, game_id: int) -> None:
    for _ in range(60):
        state = game_state(client, game_id)
        if state.results:
            return
        version = version_of(client.get(f"/games/{game_id}").text)
        legal = legal_actions(state, 0)
        if state.phase is Phase.PASS:
            assert state.hand is not None
            data = {"version": str(version), "cards": [str(c) for c in state.hand.hands[0][:3]]}
            client.post(f"/games/{game_id}/pass", data=data, headers=HX)
        elif state.phase is Phase.MOON_CHOICE:
            choice = legal[0]
            assert isinstance(choice, MoonChoice)
            data = {"version": str(version), "scoring": choice.scoring.value}
            client.post(f"/games/{game_id}/moon", data=data, headers=HX)
        else:
            card = view_for(state, 0).legal[0]
            client.post(
                f"/games/{game_id}/play",
                data={"version": str(version), "card": str(card)},
                headers=HX,
            )
    raise AssertionError("the hand did not end")


def _abandoned_download(client: TestClient) -> dict[str, Any]:
    game_id = start(client)
    _finish_hand(client, game_id)
    start(client)
    doc: dict[str, Any] = client.get(f"/history/{game_id}/game.json").json()
    return doc


def test_tampering_with_one_card_fails_with_the_hand_and_the_reason(client: TestClient) -> None:
    doc = _abandoned_download(client)
    assert verify.verify(doc).verifiable
    # One card of the first deal swapped between two seats, in the log and the readable part.
    forged = copy.deepcopy(doc)
    deal = next(a for a in forged["actions"] if a["type"] == "deal")
    deal["hands"][0][0], deal["hands"][1][0] = deal["hands"][1][0], deal["hands"][0][0]
    forged["hands"][0]["deal"] = {"hands": deal["hands"], "kitty": deal["kitty"]}
    with pytest.raises(verify.VerifyError) as failed:
        verify.verify(forged)
    assert failed.value.hand == 1
    assert "not legal" in failed.value.reason or "key gives" in failed.value.reason
    # Another secret: the commitment no longer matches.
    forged = copy.deepcopy(doc)
    forged["fair_play"]["secret"] = "00" * 32
    with pytest.raises(verify.VerifyError, match="commitment"):
        verify.verify(forged)
    # The human's second card changed to the first one, played already.
    forged = copy.deepcopy(doc)
    first, second = [a for a in forged["actions"] if a["type"] == "play" and a["seat"] == 0][:2]
    second["card"] = first["card"]
    with pytest.raises(verify.VerifyError) as failed:
        verify.verify(forged)
    assert failed.value.hand == 1 and "not legal" in failed.value.reason


def test_the_command_line_checks_a_file(client: TestClient, tmp_path: Path, capsys: Any) -> None:
    doc = _abandoned_download(client)
    good = tmp_path / "game.json"
    good.write_text(json.dumps(doc))
    assert verify.main([str(good)]) == 0
    out = capsys.readouterr().out
    assert "hand 1: dealt as committed ✓" in out and "every action legal" in out
    forged = copy.deepcopy(doc)
    forged["fair_play"]["hands"][0]["key_commitment"] = "0" * 64
    bad = tmp_path / "forged.json"
    bad.write_text(json.dumps(forged))
    assert verify.main([str(bad)]) == 1
    assert "hand 1" in capsys.readouterr().out
    junk = tmp_path / "junk.json"
    for text in ('{"format": "something else"}', "[1, 2", json.dumps({**doc, "hands": [7]})):
        junk.write_text(text)
        assert verify.main([str(junk)]) == 2, text


def test_a_game_stored_before_verifiable_deals_plays_on_and_says_so(
    client: TestClient, tmp_path: Path
) -> None:
    game_id = start(client)
    db: Database = client.app.state.services.db  # type: ignore[attr-defined]
    with db.write() as session:
        session.execute(update(Game).where(Game.id == game_id).values(deal_secret=None))
    _finish_hand(client, game_id)
    version = version_of(client.get(f"/games/{game_id}").text)
    response = client.post(f"/games/{game_id}/next", data={"version": str(version)}, headers=HX)
    assert response.status_code == 200
    assert game_state(client, game_id).hand_number == 2
    assert "Dealt before verifiable deals." in client.get(f"/games/{game_id}").text
    assert "dealt before verifiable deals" in client.get(f"/history/{game_id}").text
    doc = client.get(f"/history/{game_id}/game.json").json()
    assert doc["fair_play"] is None
    file = tmp_path / "old.json"
    file.write_text(json.dumps(doc))
    assert verify.main([str(file)]) == 3


def test_every_deal_of_a_new_game_comes_from_a_fresh_secret(client: TestClient) -> None:
    secrets_seen = {deal_secret(client, start(client)) for _ in range(5)}
    assert len(secrets_seen) == 5
    assert all(s is not None and re.fullmatch(r"[0-9a-f]{64}", s) for s in secrets_seen)
