"""Verifiable deals (`docs/fair-play.md`): the document's test vectors, read from the document
itself, hold for the engine and for an independent implementation written from the document
(`tests/fairplay.py`); the two agree on every table; the shuffle is uniform enough."""

from __future__ import annotations

import re
import secrets
from collections import Counter
from pathlib import Path

import pytest

from app.engine import RuleOptions
from app.engine.fairdeal import (
    commitment,
    fair_deal,
    hand_key,
    key_commitment,
    secret_deal,
    shuffled,
)
from app.engine.table import deck_for
from tests import fairplay

DOC = (Path(__file__).resolve().parents[2] / "docs" / "fair-play.md").read_text()


def _vector(name: str) -> str:
    found = re.search(rf"^\| {re.escape(name)} \| `([0-9a-f]+)` \|$", DOC, re.M)
    assert found is not None, name
    return found.group(1)


SECRET = bytes.fromhex(re.findall(r"```\n([0-9a-f]{64})\n```", DOC)[0])


def _documented_hands() -> dict[str, dict[str, list[str]]]:
    """The document's table of dealt hands: table name -> seat (or "kitty") -> cards."""
    tables: dict[str, dict[str, list[str]]] = {}
    current = ""
    pattern = r"^\|\s*([^|]*?)\s*\|\s*(\d+|kitty)\s*\|\s*([0-9TJQKACDSH ]+?)\s*\|$"
    for name, seat, cards in re.findall(pattern, DOC, re.M):
        current = name.strip() or current
        tables.setdefault(current, {})[seat] = cards.split()
    return tables


TABLES = {
    "standard, 4 players": (False, 4, RuleOptions.standard()),
    "standard, 3 players": (False, 3, RuleOptions.standard(num_players=3)),
    "Cancellation, 6 players": (True, 6, RuleOptions.cancellation(num_players=6)),
}


def test_the_documents_keys_and_commitments() -> None:
    assert bytes(range(32)) == SECRET
    assert commitment(SECRET) == _vector("commitment")
    for hand in (1, 2):
        key = hand_key(SECRET, hand)
        assert key.hex() == _vector(f"key of hand {hand}")
        assert key == fairplay.hand_key(SECRET, hand)
        assert key_commitment(key) == _vector(f"key commitment of hand {hand}")


def test_the_documents_stream_and_shuffled_pack() -> None:
    key = hand_key(SECRET, 1)
    listed = re.search(r"The first eight integers of hand 1's stream: ([\d, \n]+)\.", DOC)
    assert listed is not None
    words = [int(w) for w in re.split(r"[,\s]+", listed.group(1).strip())]
    stream = fairplay.stream(key)
    assert [next(stream) for _ in range(8)] == words
    block = re.search(r"Hand 1 at four players, the shuffled pack:\n\n```\n(.*?)```", DOC, re.S)
    assert block is not None
    documented = block.group(1).split()
    assert [c.code for c in shuffled(deck_for(RuleOptions.standard()), key)] == documented
    assert fairplay.shuffle(fairplay.pack(False, 4), key) == documented


@pytest.mark.parametrize("table", list(TABLES))
def test_the_documents_deals(table: str) -> None:
    cancellation, players, options = TABLES[table]
    documented = _documented_hands()[table]
    key = hand_key(SECRET, 1)
    deal = fair_deal(options, key)
    assert {str(s): [c.code for c in h] for s, h in enumerate(deal.hands)} == {
        s: cards for s, cards in documented.items() if s != "kitty"
    }
    assert [c.code for c in deal.kitty] == documented.get("kitty", [])
    hands, kitty = fairplay.deal(key, cancellation, players)
    assert hands == [documented[str(s)] for s in range(players)]
    assert kitty == documented.get("kitty", [])


def _every_table() -> list[tuple[bool, int, RuleOptions]]:
    standard = [(False, n, RuleOptions.standard(num_players=n)) for n in range(3, 8)]
    cancellation = [(True, n, RuleOptions.cancellation(num_players=n)) for n in range(6, 12)]
    return standard + cancellation


@pytest.mark.parametrize(("cancellation", "players", "options"), _every_table())
def test_the_engine_and_the_document_deal_alike_at_every_table(
    cancellation: bool, players: int, options: RuleOptions
) -> None:
    """The engine's pack is the document's, and 20 random secrets deal the same hands (hands 1,
    2 and 17) in both implementations."""
    assert [c.code for c in deck_for(options)] == fairplay.pack(cancellation, players)
    for _ in range(20):
        secret = secrets.token_bytes(32)
        for hand in (1, 2, 17):
            deal = secret_deal(options, secret, hand)
            hands, kitty = fairplay.deal(fairplay.hand_key(secret, hand), cancellation, players)
            assert [[c.code for c in h] for h in deal.hands] == hands
            assert [c.code for c in deal.kitty] == kitty


def test_hands_of_one_game_differ_and_keys_need_a_hand_number() -> None:
    options = RuleOptions.standard()
    deals = {str(secret_deal(options, SECRET, hand)) for hand in range(1, 30)}
    assert len(deals) == 29
    with pytest.raises(ValueError, match="from 1"):
        hand_key(SECRET, 0)


def test_the_shuffle_puts_each_card_in_each_place_about_equally() -> None:
    """Over 5,200 keys, each of 52 cards lands in each of the 52 places about 100 times: a
    chi-squared statistic far below what a biased shuffle (say, modulo without rejection or a
    swap with any position) gives for 2,601 degrees of freedom (mean 2,601, sd about 72)."""
    deck = deck_for(RuleOptions.standard())
    index = {card: i for i, card in enumerate(deck)}
    counts: Counter[tuple[int, int]] = Counter()
    trials = 5200
    for t in range(trials):
        order = shuffled(deck, hand_key(SECRET, t + 1))
        for place, card in enumerate(order):
            counts[(index[card], place)] += 1
    expected = trials / 52
    chi2 = sum((counts[(c, p)] - expected) ** 2 / expected for c in range(52) for p in range(52))
    assert 2601 - 5 * 72 < chi2 < 2601 + 5 * 72
