"""The coach (issue 11, item 3): the advice is the Hard player's own choice from the seat's view,
its reason fits the table, and it never depends on a hidden card (BOT-01)."""

from __future__ import annotations

import random

import pytest

from app.bots import coach, hard
from app.bots.coach import Reason, advise, pass_reason, play_reason
from app.engine import (
    QUEEN_OF_SPADES,
    Action,
    Card,
    Deal,
    GameHeader,
    Phase,
    Play,
    RuleOptions,
    Suit,
    cards,
    replay,
    to_act,
    view_for,
)
from tests.bots.test_no_peeking import (
    TV24_DEAL,
    alternatives,
    positions,
    tv24_after_trick_3,
)

NO_PASS = GameHeader(RuleOptions.standard(pass_cycle="none"))
SMALL = hard.Budget(worlds=8, round_size=8, pass_worlds=4, pass_final_worlds=4)
"""A small budget for the many positions (the advice is Hard's choice at any budget)."""


def game(deal: list[str], plays: str, header: GameHeader = NO_PASS) -> list[Action]:
    """A hand of explicit cards and plays ("seat card, seat card, …")."""
    actions: list[Action] = [Deal([cards(h) for h in deal])]
    for item in filter(None, (p.strip() for p in plays.split(","))):
        seat, code = item.split()
        actions.append(Play(int(seat), code))
    return actions


def reason_of(actions: list[Action], card: str, header: GameHeader = NO_PASS) -> Reason:
    state = replay(header, actions)
    seat = to_act(state)[0]
    view = view_for(state, seat)
    assert Card.from_str(card) in view.legal
    return play_reason(view, Card.from_str(card))


# --- the reasons ------------------------------------------------------------------------------


def test_a_void_seat_dumps_the_queen() -> None:
    """TV-24's trick 2: North is void in diamonds and the Q♠ goes on the J♦."""
    actions = game(TV24_DEAL, "2 2C, 3 9C, 0 KC, 1 5C, 0 3D, 1 TD, 2 JD")
    assert reason_of(actions, "QS") == Reason("dump", (QUEEN_OF_SPADES,), suit=Suit.DIAMONDS)
    assert reason_of(actions, "3C").key == "discard"


def test_ducking_under_a_high_spade_while_the_queen_is_out() -> None:
    """West leads the 9♠, North covers with the K♠, and South ducks with the 2♠ while the Q♠ is
    still out (in North's hand, which South cannot see)."""
    actions = game(TV24_DEAL, "2 2C, 3 9C, 0 KC, 1 5C, 0 3D, 1 TD, 2 JD, 3 7S, 2 9S, 3 KS")
    assert reason_of(actions, "2S") == Reason("duck_queen", cards=cards("2S KS"))


def test_leading_a_low_spade_smokes_out_the_queen() -> None:
    actions = game(TV24_DEAL, "2 2C, 3 9C, 0 KC, 1 5C")
    assert reason_of(actions, "2S") == Reason("smoke_queen", cards=cards("2S"))
    assert reason_of(actions, "2D").key == "lead_low"


def test_last_to_play_on_a_clean_trick_takes_it() -> None:
    deal = [
        "5C KC QC 2D 3D 4D 5D 2S 3S 5S 2H 3H 4H",
        "AC 6C 7C 6D 7D 8D TD AH 5H 6H 7H 8H 9H",
        *TV24_DEAL[2:],
    ]
    actions = game(deal, "2 2C, 3 9C, 0 KC")
    assert reason_of(actions, "AC") == Reason("take_safe", cards=cards("AC"))


def test_a_seat_that_cannot_duck_is_told_so() -> None:
    """South holds only clubs above the 9♣ and East plays after it."""
    actions = game(TV24_DEAL, "2 2C, 3 9C")
    queen, nine = Card.from_str("QC"), Card.from_str("9C")
    assert reason_of(actions, "QC") == Reason("take_forced", cards=(queen, nine))


def test_the_seat_that_could_shoot_the_moon_is_named() -> None:
    """West took the Q♠ and nobody else took a point: North's lead must stop the moon."""
    actions = game(
        TV24_DEAL, "2 2C, 3 9C, 0 KC, 1 5C, 0 3D, 1 TD, 2 JD, 3 QS, 2 4S, 3 7S, 0 2S, 1 6D"
    )
    reason = reason_of(actions, "JS")
    assert reason == Reason("stop_moon", cards=cards("JS"), seat=2, points=13)


def test_the_only_legal_card_says_so() -> None:
    """North holds a single club when West leads the 2♣."""
    deal = [
        TV24_DEAL[0],
        "5C 6C 7C 4C 9C JC 6D 7D 8D TD AH 5H 6H",
        TV24_DEAL[2],
        "3C 7H 8H 9H 7S TS JS QS KS AS JH QH KH",
    ]
    view = view_for(replay(NO_PASS, game(deal, "2 2C")), 3)
    advice = advise(view, random.Random(1), SMALL)
    assert advice.choices == (coach.Choice(tuple(cards("3C")), None),)
    assert advice.reason == Reason("only", tuple(cards("3C")))


@pytest.mark.parametrize(
    ("seat", "passed", "key"),
    [
        (0, "AC KC QC", "pass_void"),
        (3, "QS KS AS", "pass_queen_guarded"),
        (2, "AD KD TH", "pass_hearts"),
        (2, "AD KD QD", "pass_high"),
        (2, "AD KD 9D", "pass_best"),
    ],
)
def test_pass_reasons(seat: int, passed: str, key: str) -> None:
    header = GameHeader(RuleOptions.standard())
    view = view_for(replay(header, game(TV24_DEAL, "", header)), seat)
    assert view.phase is Phase.PASS
    assert pass_reason(view, tuple(cards(passed))).key == key


def test_a_queen_with_few_guards() -> None:
    deal = [
        *TV24_DEAL[:2],
        "2C 8C TC 9D JD QD KD AD 4S QS 8S 9S TH",
        "3C 4C 9C JC 7S TS JS 6S KS AS JH QH KH",
    ]
    header = GameHeader(RuleOptions.standard())
    view = view_for(replay(header, game(deal, "", header)), 2)
    assert pass_reason(view, tuple(cards("QS 8S 9S"))).key == "pass_queen"  # one guard left
    assert pass_reason(view, tuple(cards("QS AD KD"))).key == "pass_queen_guarded"


def test_high_spades_without_the_queen() -> None:
    deal = [
        "AC KC QC 2D 3D 4D 5D KS 3S 5S 2H 3H 4H",
        "5C 6C 7C 6D 7D 8D TD AH 5H 6H 7H 8H 9H",
        "2C 8C TC 9D JD QD KD AD 4S 6S 8S 9S TH",
        "3C 4C 9C JC 7S TS JS QS 2S AS JH QH KH",
    ]
    header = GameHeader(RuleOptions.standard())
    view = view_for(replay(header, game(deal, "", header)), 0)
    assert pass_reason(view, tuple(cards("KS 2H 3H"))) == Reason(
        "pass_high_spades", cards=cards("KS")
    )


# --- the advice is Hard's choice --------------------------------------------------------------

TABLES = {
    "standard-4": RuleOptions.standard(),
    "standard-3": RuleOptions.standard(3),
    "cancellation-8": RuleOptions.cancellation(8),
}


@pytest.mark.parametrize("table", TABLES)
def test_the_advice_is_what_hard_would_do(table: str) -> None:
    options = TABLES[table]
    header = GameHeader(options)
    for i, (actions, seat) in enumerate(positions(options, seed=3, wanted=12)):
        view = view_for(replay(header, actions), seat)
        advice = advise(view, random.Random(i), SMALL)
        if view.phase is Phase.PASS:
            chosen = hard.choose_pass(view, random.Random(i), SMALL)
            assert advice.cards == tuple(sorted(chosen))
        else:
            assert advice.cards == (hard.choose_play(view, random.Random(i), SMALL),)
        assert 1 <= len(advice.choices) <= coach.TOP_CHOICES
        assert len({c.cards for c in advice.choices}) == len(advice.choices)
        assert all(c.points is None or c.points >= -26 for c in advice.choices)
        assert advice.reason.key in coach.REASON_KEYS


def test_the_pass_advice_shows_expected_points_of_the_best_passes() -> None:
    header = GameHeader(RuleOptions.standard())
    view = view_for(replay(header, game(TV24_DEAL, "", header)), 3)
    advice = advise(view, random.Random(5))
    assert len(advice.choices) == coach.TOP_CHOICES
    assert all(c.points is not None and 0 <= c.points <= 26 for c in advice.choices)
    assert all(len(c.cards) == 3 for c in advice.choices)


def test_no_advice_out_of_turn() -> None:
    state = replay(NO_PASS, game(TV24_DEAL, "2 2C"))
    with pytest.raises(ValueError, match="nothing to decide"):
        advise(view_for(state, 0), random.Random(0), SMALL)


# --- no peeking (BOT-01; RULES.md TV-58, TV-59) -----------------------------------------------


def assert_same_advice(header: GameHeader, actions: list[Action], seat: int, count: int) -> None:
    view = view_for(replay(header, actions), seat)
    expected = advise(view, random.Random(7), SMALL)
    moved = 0
    original = replay(header, actions).hand
    for alt in alternatives(header, actions, seat, count, seed=3):
        assert view_for(alt, seat) == view
        assert advise(view_for(alt, seat), random.Random(7), SMALL) == expected
        moved += alt.hand is not None and original is not None and alt.hand.hands != original.hands
    assert moved > 0


def test_hints_ignore_hidden_cards_at_a_lead_and_a_follow() -> None:
    """TV-58 for the hint: the lead of trick 4 and the card that follows it, 20 redeals each."""
    header, actions = tv24_after_trick_3()
    assert_same_advice(header, actions, 3, 20)
    assert_same_advice(header, [*actions, Play(3, "TS")], 0, 20)


def test_hints_ignore_hidden_cards_at_the_pass() -> None:
    """TV-59 for the hint: the pass, 10 redeals of the other hands."""
    header = GameHeader(RuleOptions.standard())
    actions: list[Action] = [Deal([cards(h) for h in TV24_DEAL])]
    assert_same_advice(header, actions, 1, 10)


def test_hints_ignore_hidden_cards_at_other_tables() -> None:
    """Three redeals at 20 positions of 3-seat and Cancellation tables."""
    for options in (RuleOptions.standard(3), RuleOptions.cancellation(8)):
        header = GameHeader(options)
        for actions, seat in positions(options, seed=9, wanted=10):
            assert_same_advice(header, actions, seat, 3)


def test_reviews_ignore_hidden_cards() -> None:
    """A decision's weighing (the review of a hand) is the same after redeals of what the seat
    could not see: TV-58's follow, weighed for each card South could play."""
    header, actions = tv24_after_trick_3()
    actions = [*actions, Play(3, "TS")]
    view = view_for(replay(header, actions), 0)
    for card in view.legal:
        expected = coach.assess(view, (card,), random.Random(2), SMALL)
        for alt in alternatives(header, actions, 0, 5, seed=4):
            assert coach.assess(view_for(alt, 0), (card,), random.Random(2), SMALL) == expected


def test_a_review_weighs_the_choice_against_the_best() -> None:
    header, actions = tv24_after_trick_3()
    view = view_for(replay(header, actions), 3)
    weighed = {c: coach.assess(view, (c,), random.Random(2), SMALL) for c in view.legal}
    best = {a.best for a in weighed.values()}
    assert len(best) == 1  # the same best card whatever was played
    (top,) = best
    assert weighed[top[0]].cost == 0.0
    assert all(a.cost is not None and a.cost >= 0 for a in weighed.values())
    assert any(a.costly for a in weighed.values())  # some card of thirteen is a real mistake


def test_a_pass_is_weighed_with_the_candidates() -> None:
    header = GameHeader(RuleOptions.standard())
    view = view_for(replay(header, game(TV24_DEAL, "", header)), 3)
    keep_queen = coach.assess(view, tuple(cards("3C 4C 9C")), random.Random(1), SMALL)
    assert keep_queen.cost is not None and keep_queen.cost >= 0
    best = coach.assess(view, keep_queen.best, random.Random(1), SMALL)
    assert best.cost == 0.0


def test_a_pass_where_hard_does_not_weigh_passes_is_not_weighed() -> None:
    options = RuleOptions.cancellation(8)
    header = GameHeader(options)
    for actions, seat in positions(options, seed=2, wanted=6):
        view = view_for(replay(header, actions), seat)
        if view.phase is Phase.PASS:
            weighed = coach.assess(view, view.hand[:3], random.Random(0), SMALL)
            assert weighed.cost is None and not weighed.costly
            return
    raise AssertionError("no pass among the positions")
