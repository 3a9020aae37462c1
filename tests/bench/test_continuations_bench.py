"""`bench.continuations` weighs Expert's two best cards by Hard's real play after each (a few
hands: the figures themselves are measured by running the benchmark)."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from app.engine import Phase, Play, apply, random_deal, view_for
from bench import continuations
from bench.strength import game_at_hand, table_options
from tests.bench.helpers import bench_lines

SUMMARY = (
    r"(\d+) pairs, real ([+-]\d+\.\d\d) ± (\d+\.\d\d), expert ([+-]\d+\.\d\d), "
    r"habits ([+-]\d+\.\d\d), real minus expert ([+-]\d+\.\d\d) ± (\d+\.\d\d)"
)


def test_the_benchmark_prints_a_line_per_kind_and_third_then_the_noise_and_the_total(
    tmp_path: Path,
) -> None:
    log = tmp_path / "pairs.jsonl"
    flags = ("--hands", "4", "--continuations", "1", "--seed", "11", "--log", str(log))
    lines = bench_lines("continuations", *flags)
    *groups, noise, last = lines
    for line in groups:
        assert re.fullmatch(r"(lead|follow|discard|tricks \d+-\d+): " + SUMMARY, line), line
    assert re.fullmatch(r"noise: one continuation's sd 0\.00 points, pairs' sd \d+\.\d\d", noise), (
        noise
    )
    found = re.fullmatch("continuations: " + SUMMARY, last)
    assert found is not None, last
    count = int(found.group(1))
    assert 1 <= count <= 4
    by_kind = [line for line in groups if not line.startswith("tricks")]
    assert sum(int(line.split(": ")[1].split()[0]) for line in by_kind) == count
    logged = [json.loads(line) for line in log.read_text().splitlines()]
    assert len(logged) == count
    for pair in logged:
        assert len(pair["real"]) == 2 and all(len(each) == 1 for each in pair["real"])
        assert pair["cards"][0] != pair["cards"][1]
        assert pair["expert"][0] >= pair["expert"][1]


def test_a_pair_is_expert_best_card_then_its_second_each_continued_alike() -> None:
    """A's estimate is at least B's; every card has one result per continuation, each a hand
    result of a standard game (the others' mean points minus the seat's, within ±26)."""
    pair = continuations.pair(("standard-4", 500_000, 3, 2, ""))
    assert pair is not None
    assert 1 <= pair.trick <= 11
    assert pair.kind in ("lead", "follow", "discard")
    assert pair.expert[0] >= pair.expert[1]
    assert [len(each) for each in pair.real] == [2, 2]
    for value in (*pair.habits, *pair.real[0], *pair.real[1]):
        assert -26 <= value <= 26


def test_against_another_level_the_pair_is_where_expert_chose_otherwise() -> None:
    """B is the card Hard would have played in Expert's place, with the same view and random
    numbers; Expert's own estimate of it is no better than of its own card."""
    found = [continuations.pair(("standard-4", 500_000, i, 1, "hard")) for i in range(3)]
    pairs = [p for p in found if p is not None]
    assert pairs
    for pair in pairs:
        assert pair.cards[0] != pair.cards[1]
        assert pair.expert[0] >= pair.expert[1]
        assert [len(each) for each in pair.real] == [1, 1]


def test_the_result_of_a_hand_is_the_others_mean_points_minus_the_seats() -> None:
    assert continuations.result((0, 26, 0, 0), 0) == pytest.approx(26 / 3)
    assert continuations.result((0, 26, 0, 0), 1) == pytest.approx(-26)
    assert continuations.result((3, 3, 10, 10), 2) == pytest.approx(16 / 3 - 10)


def test_a_card_leads_follows_or_discards() -> None:
    """The first card of a trick leads; then a card of the led suit follows and any other is
    a discard (R: a player void in the led suit may play any card)."""
    options = table_options("standard-4")
    state = game_at_hand(options, random_deal(options, random.Random(5)), 4)  # no pass
    assert state.phase is Phase.PLAY
    hand = state.hand
    assert hand is not None
    leader = hand.leader
    view = view_for(state, leader)
    lead = view.legal[0]
    assert continuations.kind_of(state, lead) == "lead"
    state = apply(state, Play(leader, lead))
    follower = (leader + 1) % options.num_players
    assert state.hand is not None
    kinds = set()
    for card in state.hand.hands[follower]:
        expected = "follow" if card.suit is lead.suit else "discard"
        assert continuations.kind_of(state, card) == expected
        kinds.add(expected)
    assert "follow" in kinds


def test_at_least_one_continuation_is_asked_for() -> None:
    with pytest.raises(SystemExit):
        continuations.main(["--continuations", "0"])
