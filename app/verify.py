"""Check a downloaded game: its commitment, every deal, and every action (docs/fair-play.md).

    python -m app.verify hearts-game-12.json

It needs nothing but the file and the engine (no database, no server): the secret (once the
game has ended) must match the commitment and give every hand's key; each revealed key must
match the commitment shown before its hand and give exactly the hand that was dealt; the log
must replay with every pass, card and moon choice legal, to the totals and winners the file
states. It prints one line per hand and a summary, and exits with 0 when every check passes,
1 when one fails (the hand and the reason are printed), 2 when the file cannot be read as a game,
and 3 for a game dealt before verifiable deals (its actions are checked, its deals cannot be).
"""

from __future__ import annotations

import argparse
import hmac
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from app.engine import (
    ActionError,
    Deal,
    GameHeader,
    action_from_json,
    apply,
    new_game,
)
from app.engine.actions import Action
from app.engine.errors import EngineError
from app.engine.fairdeal import PROCEDURE, commitment, fair_deal, hand_key, key_commitment

FORMAT = "hearts-game"
FORMAT_VERSION = 1


class VerifyError(Exception):
    """A check failed: `hand` (0 for the game as a whole) and why."""

    def __init__(self, hand: int, reason: str) -> None:
        super().__init__(f"hand {hand}: {reason}" if hand else reason)
        self.hand = hand
        self.reason = reason


class UnreadableError(Exception):
    """The file is not a game file this program knows."""


@dataclass
class Report:
    """What was checked."""

    game_id: Any
    hands: int = 0
    verifiable: bool = True
    lines: list[str] = field(default_factory=list)


def _hex(value: Any, what: str) -> bytes:
    if not isinstance(value, str) or len(value) != 64:
        raise UnreadableError(f"{what} is not 64 hex digits")
    try:
        return bytes.fromhex(value)
    except ValueError:
        raise UnreadableError(f"{what} is not 64 hex digits") from None


def _codes(cards: Any) -> list[str]:
    return [str(c) for c in cards]


def _deal_differs(expected: Deal, found: Deal) -> str:
    """How a deal found in the file differs from the one the key gives."""
    for seat, (want, got) in enumerate(zip(expected.hands, found.hands, strict=False)):
        if want != got:
            missing = sorted(set(want) - set(got)) or sorted(want)
            extra = sorted(set(got) - set(want)) or sorted(got)
            return (
                f"seat {seat} was dealt {' '.join(c.code for c in extra)} where the key gives "
                f"{' '.join(c.code for c in missing)}"
            )
    return "the kitty differs from the one the key gives"


def _read(doc: Any) -> tuple[GameHeader, list[Action]]:
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise UnreadableError("not a Hearts game file (format is not 'hearts-game')")
    if doc.get("format_version") != FORMAT_VERSION:
        raise UnreadableError(f"format_version {doc.get('format_version')!r} is not 1")
    try:
        header = GameHeader.from_json(doc["header"])
        actions = [action_from_json(a) for a in doc["actions"]]
    except (KeyError, TypeError, ValueError, EngineError) as err:
        raise UnreadableError(f"the header or the action log cannot be read: {err}") from None
    return header, actions


def _replay(header: GameHeader, actions: list[Action]) -> tuple[list[Deal], Any]:
    """The deals of the log, in order, and the final state; VerifyError at an illegal action."""
    state = new_game(header.options, header.first_dealer)
    deals: list[Deal] = []
    for number, action in enumerate(actions, start=1):
        if isinstance(action, Deal):
            deals.append(action)
        try:
            state = apply(state, action)
        except ActionError as err:
            raise VerifyError(
                len(deals), f"action {number} ({action}) is not legal: {err}"
            ) from None
    return deals, state


def verify(doc: Any) -> Report:
    """Check one game document; VerifyError names the first check that fails."""
    header, actions = _read(doc)
    report = Report(doc.get("game", {}).get("id") if isinstance(doc.get("game"), dict) else None)
    deals, state = _replay(header, actions)
    report.hands = len(deals)
    if list(state.totals) != doc.get("totals") or list(state.winners) != doc.get("winners"):
        raise VerifyError(0, "the totals or winners in the file are not those of its action log")
    written = doc.get("hands") or []
    for number, deal in enumerate(deals, start=1):
        if number <= len(written):
            dealt = written[number - 1].get("deal", {})
            if Deal(dealt.get("hands", []), dealt.get("kitty", [])) != deal:
                raise VerifyError(number, "the hand's deal differs from the deal in the log")
    seal = doc.get("fair_play")
    if seal is None:
        report.verifiable = False
        report.lines.append("dealt before verifiable deals: the deals cannot be checked")
        return report
    if not isinstance(seal, dict) or seal.get("procedure") != PROCEDURE:
        raise UnreadableError(f"fair_play.procedure is not {PROCEDURE!r}")
    promised = seal.get("commitment")
    secret = None if seal.get("secret") is None else _hex(seal.get("secret"), "the secret")
    if secret is not None and commitment(secret) != promised:
        raise VerifyError(0, "the secret does not match the commitment shown at the start")
    sealed = {h.get("number"): h for h in seal.get("hands", []) if isinstance(h, dict)}
    for number, deal in enumerate(deals, start=1):
        hand = sealed.get(number)
        if hand is None:
            raise VerifyError(number, "the file has no commitment for this hand")
        key = None if hand.get("key") is None else _hex(hand.get("key"), f"hand {number}'s key")
        if secret is not None:
            derived = hand_key(secret, number)
            if key is not None and not hmac.compare_digest(key, derived):
                raise VerifyError(number, "the key is not the one the secret gives")
            key = derived
        if key is None:
            raise VerifyError(number, "the key of this hand has not been revealed")
        if key_commitment(key) != hand.get("key_commitment"):
            raise VerifyError(number, "the key does not match the commitment shown before it")
        expected = fair_deal(header.options, key)
        if expected != deal:
            raise VerifyError(number, _deal_differs(expected, deal))
        report.lines.append(f"hand {number}: dealt as committed ✓")
    return report


def main(argv: Sequence[str] | None = None) -> int:
    """Check the file named in `argv`; the exit code (see the module's notes)."""
    parser = argparse.ArgumentParser(
        prog="python -m app.verify", description=__doc__.split("\n")[0]
    )
    parser.add_argument("file", type=Path, help="a game downloaded from the history (game.json)")
    args = parser.parse_args(argv)
    try:
        doc = json.loads(args.file.read_bytes())
        report = verify(doc)
    except (OSError, ValueError, TypeError, KeyError, AttributeError, UnreadableError) as err:
        # ValueError covers malformed JSON and cards; the others, a file of the wrong shape.
        print(f"cannot check {args.file}: {err}", file=sys.stderr)
        return 2
    except VerifyError as err:
        print(f"FAILED: {err}")
        return 1
    for line in report.lines:
        print(line)
    if not report.verifiable:
        print(f"game {report.game_id}: every action legal; deals not verifiable")
        return 3
    sealed_by = str(doc["fair_play"]["commitment"])
    print(
        f"game {report.game_id}: {report.hands} hands dealt as committed "
        f"(commitment {sealed_by[:16]}…), every action legal, totals as stated"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
