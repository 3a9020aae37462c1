"""RULES.md test vectors TV-01 … TV-21: deck, seats, passing (§10.1) and legal moves (§10.2).

Every vector is run literally: exact legal sets (as sets of card codes), exact hands after the
exchange, the exact rule id of every refused action, and an unchanged state after each refusal.
Whole deals go through the public API (`new_game`, `Deal`, `Pass`, `Play`, `apply`); mid-hand
vectors use `position` from the helpers (RULES.md §10: "the test may construct a reduced state").
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping, Sequence
from itertools import pairwise

import pytest

from app.engine import (
    FULL_DECK,
    Action,
    Card,
    Deal,
    GameState,
    HandState,
    HeartsBrokenBy,
    IllegalActionError,
    Pass,
    PassDirection,
    Phase,
    Play,
    RuleOptions,
    Suit,
    across,
    apply,
    card,
    cards,
    current_seat,
    deck_for,
    left,
    legal_cards,
    new_game,
    pass_direction,
    pass_source,
    pass_target,
    penalty_total,
    points_of,
    right,
    seeded_deal,
    to_act,
    trick_winner,
    view_for,
)
from tests.engine.helpers import E, N, S, W, hand, position

STANDARD = RuleOptions.standard()
SEATS = (S, W, N, E)

# --- helpers ------------------------------------------------------------------------------------


def codes(text: str) -> set[str]:
    """A set of card codes from a space-separated string."""
    return set(text.split())


def code_set(items: Iterable[Card]) -> set[str]:
    """The codes of some cards, as a set."""
    return {str(c) for c in items}


def hand_state(state: GameState) -> HandState:
    """The hand in progress (asserting there is one)."""
    assert state.hand is not None
    return state.hand


def legal(state: GameState, seat: int) -> set[str]:
    """The exact legal set of `seat`, as card codes."""
    return code_set(legal_cards(state, seat))


def held(state: GameState, seat: int) -> set[str]:
    """The cards `seat` holds now, as card codes."""
    return code_set(hand_state(state).hands[seat])


def assert_rejected(state: GameState, action: Action, rules: str | set[str]) -> None:
    """`action` is refused with the given rule id (or one of them) and the state is unchanged."""
    snapshot = copy.deepcopy(state)
    with pytest.raises(IllegalActionError) as info:
        apply(state, action)
    if isinstance(rules, str):
        assert info.value.rule == rules
    else:
        assert info.value.rule in rules
    assert state == snapshot


def assert_illegal_cards(state: GameState, seat: int, rule: str) -> None:
    """Every card `seat` holds outside its legal set is refused with `rule`, state unchanged."""
    allowed = legal_cards(state, seat)
    refused = [c for c in hand_state(state).hands[seat] if c not in allowed]
    assert refused, "the vector has illegal cards to try"
    for c in refused:
        assert_rejected(state, Play(seat, c), rule)


def play(state: GameState, seat: int, code: str, legal_set: str | None = None) -> GameState:
    """Check that `seat` is to act (and its exact legal set, if given), then play `code`."""
    assert to_act(state) == (seat,)
    if legal_set is not None:
        assert legal(state, seat) == codes(legal_set)
    return apply(state, Play(seat, code))


def play_trick(state: GameState, text: str) -> GameState:
    """Play one trick written as in RULES.md TV-21, e.g. `"S 2C W 4C N 6C E AC"`."""
    words = text.split()
    names = {"S": S, "W": W, "N": N, "E": E}
    for name, code in zip(words[::2], words[1::2], strict=True):
        state = play(state, names[name], code)
    return state


def table(
    fixed: Mapping[int, str],
    *,
    trick_number: int = 1,
    current: Sequence[tuple[int, str]] = (),
) -> list[tuple[Card, ...]]:
    """Four hands for `position`: the vector's hands as given, the other seats filled with
    cards nobody else holds or has played (their exact cards do not matter to the vector)."""
    used = {c for text in fixed.values() for c in cards(text)} | {card(c) for _, c in current}
    remaining = [c for c in FULL_DECK if c not in used]
    played = {seat for seat, _ in current}
    out: list[tuple[Card, ...]] = []
    for seat in SEATS:
        if seat in fixed:
            out.append(hand(fixed[seat]))
        else:
            size = 14 - trick_number - (1 if seat in played else 0)
            out.append(tuple(remaining[:size]))
            remaining = remaining[size:]
    return out


def pass_first_three(state: GameState) -> GameState:
    """Every seat still to pass commits its three lowest cards."""
    for seat in to_act(state):
        state = apply(state, Pass(seat, hand_state(state).hands[seat][:3]))
    return state


def play_out(state: GameState) -> GameState:
    """Play the rest of the hand, every seat playing its lowest legal card."""
    while state.phase is Phase.PLAY:
        seat = current_seat(state)
        assert seat is not None
        state = apply(state, Play(seat, min(legal_cards(state, seat))))
    return state


def play_hand(state: GameState, deal: Deal) -> GameState:
    """Deal, pass (if the hand passes) and play out one whole hand through `apply`."""
    state = apply(state, deal)
    if state.phase is Phase.PASS:
        state = pass_first_three(state)
    return play_out(state)


def deal_of(hands: Sequence[str]) -> Deal:
    """A `Deal` action from one space-separated string of codes per seat."""
    return Deal([text.split() for text in hands])


def holder_of(hands: Sequence[Iterable[Card]], code: str) -> int:
    """The seat whose hand holds `code`."""
    return next(seat for seat, h in enumerate(hands) if card(code) in tuple(h))


# --- 10.1 Deck, seats, passing -------------------------------------------------------------------


def test_tv01_deck_ranks_and_values() -> None:
    """TV-01: R1.1 (52 distinct cards), R1.2 (A > K > … > 2 in every suit), R1.4 (values, 26)."""
    deck = deck_for(STANDARD)
    assert len(deck) == 52
    assert len(set(deck)) == 52
    assert code_set(deck) == {r + s for r in "23456789TJQKA" for s in "CDSH"}
    order = "AKQJT98765432"
    for suit in Suit:
        in_suit = [c for c in deck if c.suit is suit]
        assert len(in_suit) == 13
        by_rank = sorted(in_suit, key=lambda c: c.rank, reverse=True)
        assert "".join(str(c)[0] for c in by_rank) == order
        # The rank order decides tricks: the higher of two adjacent ranks always wins.
        for high, low in pairwise(order):
            plays = ((S, card(low + suit.value)), (W, card(high + suit.value)))
            assert trick_winner(plays) == W
            assert trick_winner(((S, card(high + suit.value)), (W, card(low + suit.value)))) == S
    for c in deck:
        value = points_of(STANDARD, [c])
        if c.suit is Suit.HEARTS:
            assert value == 1, c
        elif str(c) == "QS":
            assert value == 13
        else:
            assert value == 0, c
    assert points_of(STANDARD, list(deck)) == 26
    assert penalty_total(STANDARD) == 26


def test_tv02_seats_order_and_directions() -> None:
    """TV-02: R2.2 (play goes S → W → N → E → S), R2.3 (left, right, across)."""
    assert left(S, 4) == W
    assert right(S, 4) == E
    assert across(S, 4) == N
    assert left(E, 4) == S
    assert right(W, 4) == S
    assert across(W, 4) == E
    # In play: after S the next to play is W; after E it is S.
    state = position(STANDARD, table({}, trick_number=2), leader=S, trick_number=2)
    assert to_act(state) == (S,)
    state = apply(state, Play(S, min(legal_cards(state, S))))
    assert to_act(state) == (W,)
    state = position(STANDARD, table({}, trick_number=2), leader=E, trick_number=2)
    assert to_act(state) == (E,)
    state = apply(state, Play(E, min(legal_cards(state, E))))
    assert to_act(state) == (S,)


def test_tv03_pass_direction_cycle() -> None:
    """TV-03: R4.2 — hands 1…9 pass left, right, across, hold, left, right, across, hold, left."""
    expected = ["left", "right", "across", "hold", "left", "right", "across", "hold", "left"]
    assert [pass_direction(STANDARD, k).value for k in range(1, 10)] == expected


def test_tv03_pass_right_and_across_targets() -> None:
    """TV-03: R4.2, R2.3 — right: S→E, E→N, N→W, W→S; across: S↔N, W↔E."""
    right_targets = {S: E, E: N, N: W, W: S}
    across_targets = {S: N, N: S, W: E, E: W}
    for seat in SEATS:
        assert pass_target(seat, PassDirection.RIGHT, 4) == right_targets[seat]
        assert pass_source(right_targets[seat], PassDirection.RIGHT, 4) == seat
        assert pass_target(seat, PassDirection.ACROSS, 4) == across_targets[seat]
        assert pass_source(across_targets[seat], PassDirection.ACROSS, 4) == seat


def test_tv03_real_exchanges_in_hands_2_and_3() -> None:
    """TV-03: R4.2 — the exchange applied by `apply`: hand 2 passes right, hand 3 across."""
    state = play_hand(new_game(STANDARD), seeded_deal(STANDARD, 11))
    assert state.phase is Phase.DEAL
    for number, targets in ((2, {S: E, E: N, N: W, W: S}), (3, {S: N, N: S, W: E, E: W})):
        state = apply(state, seeded_deal(STANDARD, 11 + number))
        assert hand_state(state).number == number
        state = pass_first_three(state)
        h = hand_state(state)
        assert state.phase is Phase.PLAY
        for seat, target in targets.items():
            sent = h.passed[seat]
            assert sent is not None
            assert h.received[target] == sent
            kept = [c for c in h.dealt[target] if c not in (h.passed[target] or ())]
            assert code_set(h.hands[target]) == code_set(kept) | code_set(sent)
            assert len(h.hands[target]) == 13
        state = play_out(state)
        assert state.phase is Phase.DEAL


# Hand 7 of TV-04: with these passes (across) and lowest-legal-card play, W and N take 0 points.
TV04_HAND7 = (
    "2C 3C 6C 7C 9C AC 4S 9S QS AS 4H 8H QH",
    "QC KC 3D 4D 6D 9D 5S TS JS 2H 5H 7H AH",
    "5C 8C TC JC 7D TD QD 3S 3H 6H 9H TH KH",
    "4C 2D 5D 8D JD KD AD 2S 6S 7S 8S KS JH",
)


def test_tv04_tie_after_hand_6_plays_hand_7_across_then_hold() -> None:
    """TV-04: R13.4 (a tie for lowest with someone ≥ 100 plays on), R4.2 (the cycle continues:
    hand 7 across, hand 8 hold)."""
    # The last trick of hand 6: S takes QS → totals (103, 40, 40, 77).
    state = position(
        STANDARD,
        ["QS", "2S", "3S", "4S"],
        leader=S,
        trick_number=13,
        hearts_broken=True,
        hand_number=6,
        totals=[90, 40, 40, 77],
    )
    state = play_trick(state, "S QS W 2S N 3S E 4S")
    assert state.totals == (103, 40, 40, 77)
    assert state.phase is Phase.DEAL
    assert state.winners == ()
    # Hand 7 is played, passing across.
    state = apply(state, deal_of(TV04_HAND7))
    h = hand_state(state)
    assert h.number == 7
    assert h.direction is PassDirection.ACROSS
    assert state.phase is Phase.PASS
    assert to_act(state) == (S, W, N, E)
    state = play_out(pass_first_three(state))
    assert state.phase is Phase.DEAL
    assert state.results[-1].number == 7
    assert state.results[-1].direction is PassDirection.ACROSS
    totals = state.totals
    assert max(totals) >= 100
    assert totals[W] == totals[N] == min(totals)
    assert [seat for seat in SEATS if totals[seat] == min(totals)] == [W, N]
    assert state.winners == ()
    # Still tied: hand 8 is a hold hand.
    deal = seeded_deal(STANDARD, 8)
    state = apply(state, deal)
    h = hand_state(state)
    assert h.number == 8
    assert h.direction is PassDirection.HOLD
    assert state.phase is Phase.PLAY
    assert to_act(state) == (holder_of(deal.hands, "2C"),)


# TV-05 deal (hand 1): S holds QS AS KH and no 2C; N holds 2C.
TV05_DEAL = (
    "QS AS KH 3C 4C 5C 6D 7D 8D 2S 3S 9H TH",
    "8C 9C TC JC QC 2D 3D 4D 5D 6S 7S 8S 7H",
    "2C 6C 7C 9D TD JD 4S 5S 2H 3H 4H 5H 6H",
    "KC AC QD KD AD 9S TS JS KS 8H JH QH AH",
)
TV05_PASSES = {S: "QS AS KH", W: "8C 9C 7H", N: "4H 5H 6H", E: "AC QH AH"}
TV05_AFTER = {
    S: "3C 4C 5C 6D 7D 8D 2S 3S 9H TH AC QH AH",
    W: "TC JC QC 2D 3D 4D 5D 6S 7S 8S QS AS KH",
    N: "2C 6C 7C 9D TD JD 4S 5S 2H 3H 8C 9C 7H",
    E: "KC QD KD AD 9S TS JS KS 8H JH 4H 5H 6H",
}


def test_tv05_pass_left_example_of_the_start() -> None:
    """TV-05: R4.1 (3 cards to one player), R4.2 (hand 1 left), R4.3 (exchange at once),
    R5.1 (the 2C holder leads 2C)."""
    state = apply(new_game(STANDARD), deal_of(TV05_DEAL))
    assert "2C" not in held(state, S)
    assert {"QS", "AS", "KH"} <= held(state, S)
    assert "2C" in held(state, N)
    assert hand_state(state).direction is PassDirection.LEFT
    for seat in (S, W, N, E):
        state = apply(state, Pass(seat, TV05_PASSES[seat].split()))
    assert state.phase is Phase.PLAY
    assert {"QS", "AS", "KH"} <= held(state, W)
    assert not {"QS", "AS", "KH"} & held(state, S)
    kept_s = codes(TV05_DEAL[S]) - codes(TV05_PASSES[S])
    assert len(kept_s) == 10
    assert held(state, S) == kept_s | codes(TV05_PASSES[E])
    for seat in SEATS:
        assert held(state, seat) == codes(TV05_AFTER[seat])
        assert len(hand_state(state).hands[seat]) == 13
    assert to_act(state) == (N,)
    assert current_seat(state) == N
    assert legal(state, N) == {"2C"}


def test_tv06_committed_pass_hides_received_cards() -> None:
    """TV-06: R4.3 (commit before seeing received cards), R4.4 (received cards cannot be
    passed on); after the last commit each seat has 13 cards and exactly 3 flagged received."""
    state = apply(new_game(STANDARD), deal_of(TV05_DEAL))
    state = apply(state, Pass(S, TV05_PASSES[S].split()))
    kept_s = codes(TV05_DEAL[S]) - codes(TV05_PASSES[S])
    assert held(state, S) == kept_s
    assert len(hand_state(state).hands[S]) == 10
    assert to_act(state) == (W, N, E)
    view = view_for(state, S)
    assert code_set(view.hand) == kept_s
    assert view.received is None
    assert view.legal == ()
    # A card S will receive (from E), a card S just passed, and a kept card: none can be played
    # or passed now.
    for code in ("AC", "QS", "3C"):
        assert_rejected(state, Play(S, code), "R4.3")
    assert_rejected(state, Pass(S, ["AC", "QH", "AH"]), "R4.7")
    assert_rejected(state, Pass(S, ["3C", "4C", "5C"]), "R4.7")
    # What the other seats know (hence what a bot may select from) does not depend on the cards
    # S committed, i.e. on the cards they will receive.
    other = apply(apply(new_game(STANDARD), deal_of(TV05_DEAL)), Pass(S, ["2S", "3S", "9H"]))
    for seat in (W, N, E):
        assert view_for(state, seat) == view_for(other, seat)
        assert view_for(state, seat).received is None
    for seat in (W, N, E):
        state = apply(state, Pass(seat, TV05_PASSES[seat].split()))
    h = hand_state(state)
    for seat in SEATS:
        assert len(h.hands[seat]) == 13
        source = pass_source(seat, PassDirection.LEFT, 4)
        assert code_set(h.received[seat]) == codes(TV05_PASSES[source])
        assert len(h.received[seat]) == 3
        view = view_for(state, seat)
        assert view.received is not None
        assert code_set(view.received) == codes(TV05_PASSES[source])
        assert view.received_from == source
    # R4.4: S can never pass on the cards it received (no second pass).
    assert_rejected(state, Pass(S, ["AC", "QH", "AH"]), "R4.7")


def test_tv07a_pass_of_two_or_four_cards_rejected() -> None:
    """TV-07 (a): R4.1 (exactly 3 cards), R4.7 (invalid pass rejected, state unchanged)."""
    state = apply(new_game(STANDARD), deal_of(TV05_DEAL))
    assert_rejected(state, Pass(S, ["QS", "AS"]), "R4.7")
    assert_rejected(state, Pass(S, ["QS", "AS", "KH", "3C"]), "R4.7")
    state = apply(state, Pass(W, TV05_PASSES[W].split()))
    assert_rejected(state, Pass(N, ["4H", "5H"]), "R4.7")
    assert_rejected(state, Pass(N, ["4H", "5H", "6H", "2H"]), "R4.7")


def test_tv07b_pass_of_card_not_in_hand_rejected() -> None:
    """TV-07 (b): R4.1 (own cards only), R4.7 (rejected, state unchanged)."""
    state = apply(new_game(STANDARD), deal_of(TV05_DEAL))
    assert_rejected(state, Pass(S, ["QS", "AS", "2C"]), "R4.7")
    assert_rejected(state, Pass(E, ["KC", "AC", "QS"]), "R4.7")


def test_tv07c_hold_hand_4_has_no_pass_phase() -> None:
    """TV-07 (c): R4.2 (hand 4 holds), R4.5 (no passing phase; play starts at once),
    R4.7 (a pass in a hold hand is rejected, state unchanged), R5.1 (2C leads)."""
    state = new_game(STANDARD)
    for number in (1, 2, 3):
        state = play_hand(state, seeded_deal(STANDARD, 40 + number))
        assert state.phase is Phase.DEAL
        assert state.hand_number == number
    state = apply(state, deal_of(TV05_DEAL))
    h = hand_state(state)
    assert h.number == 4
    assert h.direction is PassDirection.HOLD
    assert state.phase is Phase.PLAY
    assert to_act(state) == (N,)
    assert legal(state, N) == {"2C"}
    assert [len(x) for x in h.hands] == [13, 13, 13, 13]
    assert view_for(state, S).legal == ()
    # The spec cites both R4.5 (no pass phase) and R4.7 (lists "a pass in a hold hand").
    for seat in SEATS:
        three = [str(c) for c in h.hands[seat][:3]]
        assert_rejected(state, Pass(seat, three), {"R4.5"})


# --- 10.2 Legal moves ----------------------------------------------------------------------------

TV08_S = "2C 7C KC 3D 5D 9D 4S 8S JS 2H 6H TH AH"


def test_tv08_first_lead_is_two_of_clubs() -> None:
    """TV-08: R5.1 — the 2C holder must lead 2C on trick 1."""
    state = position(STANDARD, table({S: TV08_S}), leader=S)
    assert legal(state, S) == {"2C"}
    assert_illegal_cards(state, S, "R5.1")
    after = apply(state, Play(S, "2C"))
    assert to_act(after) == (W,)


def test_tv08_any_club_option() -> None:
    """TV-08: R5.2 — with first_lead = any_club, the 2C holder may lead any club it holds."""
    options = RuleOptions.standard(first_lead="any_club")
    state = position(options, table({S: TV08_S}), leader=S)
    assert legal(state, S) == {"2C", "7C", "KC"}
    assert_illegal_cards(state, S, "R5.2")


def test_tv09_must_follow_suit() -> None:
    """TV-09: R6.1 — holding the led suit, only that suit is legal."""
    current = [(S, "5D")]
    state = position(
        STANDARD,
        table({W: "2D KD AS 3H"}, trick_number=5, current=current),
        leader=S,
        trick_number=5,
        current=current,
    )
    assert legal(state, W) == {"2D", "KD"}
    assert_illegal_cards(state, W, "R6.1")


def test_tv10_follow_spades_queen_allowed() -> None:
    """TV-10: R6.3 — following spades, QS is legal; the heart is not (N can follow suit)."""
    current = [(W, "8S")]
    state = position(
        STANDARD,
        table({N: "QS 4S 9H"}, trick_number=6, current=current),
        leader=W,
        trick_number=6,
        current=current,
    )
    assert not hand_state(state).hearts_broken
    assert legal(state, N) == {"QS", "4S"}
    assert_illegal_cards(state, N, "R6.1")
    after = apply(state, Play(N, "QS"))
    assert held(after, N) == {"4S", "9H"}


TV11_E = "QS AH KH 2D 3D 4D 5D 6D 7D 2S 3S 4S 9S"


def tv11_state(options: RuleOptions) -> GameState:
    """Trick 1: N led 2C, E (no clubs) to play."""
    current = [(N, "2C")]
    return position(options, table({E: TV11_E}, current=current), leader=N, current=current)


def test_tv11_no_points_on_first_trick() -> None:
    """TV-11: R7.1 — void in clubs on trick 1, no heart and no QS while holding another card."""
    state = tv11_state(STANDARD)
    assert to_act(state) == (E,)
    assert legal(state, E) == codes("2D 3D 4D 5D 6D 7D 2S 3S 4S 9S")
    assert_illegal_cards(state, E, "R7.1")


def test_tv12_only_hearts_and_queen_on_first_trick() -> None:
    """TV-12: R7.2 (seed 004 FAQ) — holding only hearts and QS, any of them may be played."""
    w_cards = "QS 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH"
    current = [(S, "2C")]
    state = position(STANDARD, table({W: w_cards}, current=current), leader=S, current=current)
    assert legal(state, W) == codes(w_cards)
    assert len(legal(state, W)) == 13
    after = apply(state, Play(W, "QS"))
    assert "QS" not in held(after, W)


@pytest.mark.parametrize("broken_by", list(HeartsBrokenBy))
def test_tv13_only_hearts_on_first_trick_breaks_hearts(broken_by: HeartsBrokenBy) -> None:
    """TV-13: R7.3 (only hearts: any heart), R7.6 and R8.2 (that heart breaks hearts, under
    both `hearts_broken_by` settings since it is a discard)."""
    options = RuleOptions.standard(hearts_broken_by=broken_by)
    all_hearts = "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH"
    current = [(W, "2C")]
    state = position(options, table({N: all_hearts}, current=current), leader=W, current=current)
    assert legal(state, N) == codes(all_hearts)
    assert not hand_state(state).hearts_broken
    after = apply(state, Play(N, "7H"))
    assert hand_state(after).hearts_broken is True


def test_tv14_first_trick_restriction_off() -> None:
    """TV-14: R7.5 — with no_points_first_trick = false, all 13 of E's cards are legal."""
    state = tv11_state(RuleOptions.standard(no_points_first_trick=False))
    assert legal(state, E) == codes(TV11_E)
    assert len(legal(state, E)) == 13


def test_tv15_omnibus_jack_of_diamonds_is_not_a_penalty_card() -> None:
    """TV-15: R7.4, R20.2 — the Omnibus bonus card JD may (here: must) be discarded on trick 1."""
    options = RuleOptions.standard(omnibus=True)
    s_cards = "JD QS 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH"
    current = [(E, "2C")]
    state = position(options, table({S: s_cards}, current=current), leader=E, current=current)
    assert to_act(state) == (S,)
    assert legal(state, S) == {"JD"}
    assert_illegal_cards(state, S, "R7.1")


def test_tv16_r8_4_cannot_lead_hearts_unbroken() -> None:
    """TV-16: R8.4 — hearts unbroken, a leader holding other suits may not lead a heart."""
    s_cards = "2H 9H 4S KD 3C"
    state = position(STANDARD, table({S: s_cards}, trick_number=2), leader=S, trick_number=2)
    assert not hand_state(state).hearts_broken
    assert legal(state, S) == {"4S", "KD", "3C"}
    assert_illegal_cards(state, S, "R8.4")


def test_tv17_only_hearts_may_lead_heart_unbroken() -> None:
    """TV-17: R8.4 exception — a leader holding only hearts may lead any of them."""
    s_cards = "3H 8H QH KH"
    state = position(STANDARD, table({S: s_cards}, trick_number=10), leader=S, trick_number=10)
    assert not hand_state(state).hearts_broken
    assert legal(state, S) == {"3H", "8H", "QH", "KH"}
    after = apply(state, Play(S, "8H"))
    assert "8H" not in held(after, S)


TV18_CASES = [
    pytest.param({}, "QS", "R8.6", id="default"),
    pytest.param(
        {"lead_hearts_if_only_qs_and_hearts": True}, "QS 3H 8H JH", None, id="lead_hearts_option"
    ),
    pytest.param({"qs_lead_requires_broken": True}, "QS 3H 8H JH", None, id="qs_requires_broken"),
]


@pytest.mark.parametrize(("overrides", "expected", "rule"), TV18_CASES)
def test_tv18_only_queen_and_hearts_unbroken(
    overrides: dict[str, bool], expected: str, rule: str | None
) -> None:
    """TV-18: R8.6 (default: only QS may be led), R8.6 option (any card), R8.5 with
    qs_lead_requires_broken (nothing else left: any card), D-03."""
    options = RuleOptions.standard(**overrides)
    s_cards = "QS 3H 8H JH"
    state = position(options, table({S: s_cards}, trick_number=10), leader=S, trick_number=10)
    assert not hand_state(state).hearts_broken
    assert legal(state, S) == codes(expected)
    if rule is not None:
        assert_illegal_cards(state, S, rule)


TV19_HAND = "QS 7C 5H"


def tv19_state(options: RuleOptions, broken: bool) -> GameState:
    """Trick 4, S to lead with QS 7C 5H."""
    return position(
        options,
        table({S: TV19_HAND}, trick_number=4),
        leader=S,
        trick_number=4,
        hearts_broken=broken,
    )


def test_tv19_queen_lead_default() -> None:
    """TV-19: R8.5 — by default QS may be led while hearts are unbroken; the heart may not."""
    state = tv19_state(STANDARD, broken=False)
    assert legal(state, S) == {"QS", "7C"}
    assert_rejected(state, Play(S, "5H"), "R8.4")


def test_tv19_queen_lead_requires_broken_option() -> None:
    """TV-19: R8.5, R25 — with qs_lead_requires_broken, QS may not be led while unbroken."""
    state = tv19_state(RuleOptions.standard(qs_lead_requires_broken=True), broken=False)
    assert legal(state, S) == {"7C"}
    assert_rejected(state, Play(S, "QS"), "R8.5")
    assert_rejected(state, Play(S, "5H"), "R8.4")


@pytest.mark.parametrize("requires_broken", [False, True])
def test_tv19_after_hearts_broken_any_card(requires_broken: bool) -> None:
    """TV-19: R8.7 — once hearts are broken, any card may be led (either R8.5 setting)."""
    options = RuleOptions.standard(qs_lead_requires_broken=requires_broken)
    state = tv19_state(options, broken=True)
    assert legal(state, S) == {"QS", "7C", "5H"}


# TV-24 deal (hands at the start of play; a hold hand so that dealt = played-from).
TV24_DEAL = (
    "AC KC QC 2D 3D 4D 5D 2S 3S 5S 2H 3H 4H",
    "5C 6C 7C 6D 7D 8D TD AH 5H 6H 7H 8H 9H",
    "2C 8C TC 9D JD QD KD AD 4S 6S 8S 9S TH",
    "3C 4C 9C JC 7S TS JS QS KS AS JH QH KH",
)


@pytest.mark.parametrize("qs_breaks", [False, True])
def test_tv20_queen_discard_and_hearts_broken(qs_breaks: bool) -> None:
    """TV-20: R8.3, D-01 — after E discards QS in trick 2 of the TV-24 deal, N's trick-3 lead:
    default (QS does not break hearts) only the 10 non-hearts; with qs_breaks_hearts all 11."""
    options = RuleOptions.standard(pass_cycle="none", qs_breaks_hearts=qs_breaks)
    state = apply(new_game(options), deal_of(TV24_DEAL))
    assert state.phase is Phase.PLAY
    # Trick 1 (TV-24 step 1).
    state = play(state, N, "2C", "2C")
    state = play(state, E, "9C", "3C 4C 9C JC")
    state = play(state, S, "KC", "AC KC QC")
    state = play(state, W, "5C", "5C 6C 7C")
    assert hand_state(state).tricks[-1].winner == S
    assert not hand_state(state).hearts_broken
    # Trick 2 (TV-24 step 2).
    state = play(state, S, "3D", "AC QC 2D 3D 4D 5D 2S 3S 5S")
    state = play(state, W, "TD", "6D 7D 8D TD")
    state = play(state, N, "JD", "9D JD QD KD AD")
    state = play(state, E, "QS", "3C 4C JC 7S TS JS QS KS AS JH QH KH")
    trick2 = hand_state(state).tricks[-1]
    assert trick2.winner == N
    assert points_of(options, list(trick2.cards)) == 13
    assert hand_state(state).hearts_broken is qs_breaks
    # Trick 3: N to lead.
    n_hand = "8C TC 9D QD KD AD 4S 6S 8S 9S TH"
    assert to_act(state) == (N,)
    assert held(state, N) == codes(n_hand)
    if qs_breaks:
        assert legal(state, N) == codes(n_hand)
    else:
        assert legal(state, N) == codes("8C TC 9D QD KD AD 4S 6S 8S 9S")
        assert_rejected(state, Play(N, "TH"), "R8.4")


# TV-21 hold-hand deal and tricks 1–8.
TV21_DEAL = (
    "2C 9C 8C 3S 6S 3D 7D JD 3C 5C 7C KD 9D",
    "4C TC 2S 4S 7S 4D 8D JS 3H 6H JH AH 5D",
    "6C JC 2D 5S 8S 6D TD TS 2H 5H 7H 8H 9S",
    "AC KC QC AS KS AD QD QS 4H 9H TH QH KH",
)
TV21_TRICKS = (
    "S 2C W 4C N 6C E AC",
    "E KC S 9C W TC N JC",
    "E QC S 8C W 2S N 2D",
    "E AS S 3S W 4S N 5S",
    "E KS S 6S W 7S N 8S",
    "E AD S 3D W 4D N 6D",
    "E QD S 7D W 8D N TD",
    "E QS S JD W JS N TS",
)


@pytest.mark.parametrize("broken_by", list(HeartsBrokenBy))
def test_tv21_hearts_broken_by_any_play_or_discard_only(broken_by: HeartsBrokenBy) -> None:
    """TV-21: R8.2, D-04 (a led or followed heart breaks hearts under any_play, not under
    discard_only), R8.4 (only hearts: a heart may be led unbroken), R6.1, R10.1."""
    options = RuleOptions.standard(pass_cycle="none", hearts_broken_by=broken_by)
    state = apply(new_game(options), deal_of(TV21_DEAL))
    assert hand_state(state).direction is PassDirection.HOLD
    assert state.phase is Phase.PLAY
    for trick in TV21_TRICKS:
        state = play_trick(state, trick)
    h = hand_state(state)
    assert h.trick_number == 9
    assert [t.winner for t in h.tricks] == [E] * 8
    assert h.hearts_broken is False  # no heart has been played yet
    assert held(state, E) == codes("4H 9H TH QH KH")
    assert held(state, S) == codes("3C 5C 7C 9D KD")
    assert held(state, W) == codes("3H 6H JH AH 5D")
    assert held(state, N) == codes("2H 5H 7H 8H 9S")
    # Trick 9.
    state = play(state, E, "4H", "4H 9H TH QH KH")
    assert hand_state(state).hearts_broken is (broken_by is HeartsBrokenBy.ANY_PLAY)
    state = play(state, S, "3C", "3C 5C 7C 9D KD")
    assert_rejected(state, Play(W, "5D"), "R6.1")
    state = play(state, W, "6H", "3H 6H JH AH")
    assert_rejected(state, Play(N, "9S"), "R6.1")
    state = play(state, N, "2H", "2H 5H 7H 8H")
    h = hand_state(state)
    trick9 = h.tricks[-1]
    assert trick9.winner == W
    assert code_set(trick9.cards) == {"4H", "3C", "6H", "2H"}
    assert points_of(options, list(trick9.cards)) == 3
    assert points_of(options, list(h.taken[W])) == 3
    # Trick 10: W to lead with 3H JH AH 5D.
    assert to_act(state) == (W,)
    assert held(state, W) == codes("3H JH AH 5D")
    if broken_by is HeartsBrokenBy.ANY_PLAY:
        assert h.hearts_broken is True
        assert legal(state, W) == codes("3H JH AH 5D")
    else:
        assert h.hearts_broken is False  # no heart has been discarded yet
        assert legal(state, W) == {"5D"}
        assert_illegal_cards(state, W, "R8.4")
