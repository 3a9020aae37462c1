"""RULES.md §10.3–§10.6: trick winner, the seed-000 worked example, hand scoring and the moon,
end of game and ties, other player counts (TV-22 … TV-45).

Most vectors are run twice: once through the scoring functions with the stated collections, and
once by playing a whole hand through `apply` from a scripted deal whose tricks give exactly those
collections (the engine checks every card of the script for legality as it is played).

Scripts are one line per trick: the card of each seat in seat order (S W N E at four seats,
0 1 2 at three), then `>` and the seat expected to win the trick. The seats' hands are the
columns of the script; the engine decides who leads each trick.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Sequence

import pytest

from app.engine import (
    FULL_DECK,
    Action,
    Card,
    Deal,
    GameState,
    Hand,
    IllegalActionError,
    InvalidOptionsError,
    MoonChoice,
    MoonScoring,
    Pass,
    PassDirection,
    Phase,
    Play,
    RuleOptions,
    apply,
    auto_moon_scoring,
    card,
    cards,
    current_seat,
    deck_for,
    game_winners,
    hand_size,
    legal_actions,
    legal_cards,
    lowest_club,
    moon_points,
    new_game,
    pass_direction,
    pass_source,
    pass_target,
    penalty_total,
    points_of,
    raw_points,
    start_hand,
    to_act,
    trick_winner,
)
from app.engine.scoring import score_hand
from tests.engine.helpers import E, N, S, W, position, random_step

SEAT_LETTERS = {"S": S, "W": W, "N": N, "E": E}

# --- helpers ----------------------------------------------------------------------------------


def parse_script(script: str) -> tuple[list[list[str]], list[int]]:
    """The rows (cards by seat) and the expected winner of each trick of a script."""
    rows: list[list[str]] = []
    winners: list[int] = []
    for line in script.strip().splitlines():
        if not line.strip():
            continue
        played, _, winner = line.partition(">")
        rows.append(played.split())
        name = winner.strip()
        winners.append(int(name) if name.isdigit() else SEAT_LETTERS[name])
    return rows, winners


def script_hands(script: str) -> tuple[Hand, ...]:
    """Each seat's hand at the start of play: the columns of the script."""
    rows, _ = parse_script(script)
    n = len(rows[0])
    assert all(len(r) == n for r in rows)
    return tuple(cards([r[seat] for r in rows]) for seat in range(n))


def rotate_script(script: str, k: int) -> str:
    """The same play with every seat moved k places to the left (clockwise)."""
    rows, winners = parse_script(script)
    n = len(rows[0])
    lines = []
    for row, winner in zip(rows, winners, strict=True):
        moved = [""] * n
        for seat, code in enumerate(row):
            moved[(seat + k) % n] = code
        lines.append(" ".join(moved) + f" > {(winner + k) % n}")
    return "\n".join(lines)


def play_script(state: GameState, script: str) -> GameState:
    """Play every trick of the script through `apply`, checking each trick's winner."""
    rows, winners = parse_script(script)
    n = state.num_players
    for number, (row, winner) in enumerate(zip(rows, winners, strict=True), start=1):
        for _ in range(n):
            seat = current_seat(state)
            assert seat is not None, f"trick {number}: nobody to play"
            played = card(row[seat])
            assert played in legal_cards(state, seat), f"trick {number}: {played} illegal"
            state = apply(state, Play(seat, played))
        assert state.hand is not None
        trick = state.hand.tricks[number - 1]
        assert trick.number == number
        assert trick.winner == winner, f"trick {number} won by {trick.winner}, not {winner}"
    return state


def script_position(
    options: RuleOptions,
    script: str,
    *,
    totals: Sequence[int] | None = None,
    hand_number: int = 1,
) -> GameState:
    """A play-phase state at trick 1 holding the script's hands (a hold hand)."""
    hands = script_hands(script)
    low = lowest_club(options)
    leader = next(seat for seat, h in enumerate(hands) if low in h)
    return position(options, hands, leader=leader, totals=totals, hand_number=hand_number)


def play_scripted_hand(
    options: RuleOptions,
    script: str,
    *,
    totals: Sequence[int] | None = None,
    hand_number: int = 1,
) -> GameState:
    """The state after playing the whole scripted hand from trick 1."""
    return play_script(
        script_position(options, script, totals=totals, hand_number=hand_number), script
    )


def deal_for_final_hands(
    state: GameState, final: Sequence[Hand]
) -> tuple[GameState, tuple[Hand, ...]]:
    """Deal the next hand so that, after its passing (if any), the seats hold `final`.

    Each seat passes three cards of its receiver's final hand; returns the state at the start of
    play and the passes made.
    """
    assert state.phase is Phase.DEAL
    o = state.options
    n = o.num_players
    direction = pass_direction(o, state.hand_number + 1)
    if direction is PassDirection.HOLD:
        state = apply(state, Deal(final))
        assert state.phase is Phase.PLAY
        return state, ((),) * n
    passes = tuple(final[pass_target(seat, direction, n)][:3] for seat in range(n))
    dealt = []
    for seat in range(n):
        incoming = passes[pass_source(seat, direction, n)]
        kept = [c for c in final[seat] if c not in incoming]
        dealt.append(tuple(sorted(kept + list(passes[seat]))))
    state = apply(state, Deal(dealt))
    assert state.phase is Phase.PASS
    assert state.hand is not None and state.hand.direction is direction
    for seat in range(n):
        state = apply(state, Pass(seat, passes[seat]))
    assert state.phase is Phase.PLAY
    assert state.hand is not None
    assert state.hand.hands == tuple(final)
    return state, passes


def assert_refused(state: GameState, action: Action, rules: str | set[str]) -> None:
    """`action` raises IllegalActionError naming one of `rules` and leaves the state unchanged."""
    snapshot = copy.deepcopy(state)
    with pytest.raises(IllegalActionError) as info:
        apply(state, action)
    allowed = {rules} if isinstance(rules, str) else rules
    assert info.value.rule in allowed
    assert state == snapshot


def collections(options: RuleOptions, filler: int, **by_seat: str) -> tuple[Hand, tuple[Hand, ...]]:
    """Collected cards per seat from the stated cards (keys S, W, N, E); the rest of the deck,
    which must be worth nothing, goes to `filler`."""
    stated = {SEAT_LETTERS[name]: cards(codes) for name, codes in by_seat.items()}
    used = [c for h in stated.values() for c in h]
    rest = tuple(c for c in deck_for(options) if c not in used)
    assert points_of(options, rest) == 0
    taken = tuple(
        tuple(sorted(stated.get(seat, ()) + (rest if seat == filler else ())))
        for seat in range(options.num_players)
    )
    return rest, taken


ALL_HEARTS = "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH"
TRICKS_WON = (3, 4, 3, 3)


def hand_points(
    options: RuleOptions, taken: tuple[Hand, ...], totals: Sequence[int]
) -> tuple[int, ...]:
    score = score_hand(options, taken, TRICKS_WON, tuple(totals))
    assert score is not None
    return score.points


# --- scripted hands (columns S W N E) -----------------------------------------------------------

# TV-26: S 5 hearts, W QS + 3 hearts, N 5 hearts, E nothing of value.
NO_MOON_5_16_5_0 = """
2C 3C 4C 5C > E
AC 7C 8C 6C > S
AD 2D 3D TH > S
AH 2H 3H 4H > S
4D 5D KD JH > N
6H 7H KH 5H > N
4S QS 2S 3S > W
9C QH 8H 9H > W
QC TC JC KC > E
5S 6S 7S AS > E
8S 9S 6D KS > E
7D 9D JD JS > E
8D TD QD TS > E
"""

# TV-33: S 5 hearts, W QS + 3 hearts, N 3 hearts, E 2 hearts + JD.
OMNIBUS_5_16_3_M8 = """
2C 3C 4C 5C > E
AC 7C 8C 6C > S
AD 2D 3D TH > S
AH 2H 3H 4H > S
4D 5D KD TS > N
8D 7H KH 5H > N
4S QS 2S 3S > W
9C QH 8H 9H > W
QC TC JC KC > E
5S 6S 7S AS > E
8S 9S 6D KS > E
7D 6H JD JS > E
9D TD QD JH > E
"""

# W wins tricks 1-8 (every heart and QS) ...
_MOON_W_FIRST_8 = """
2C AC 3C 4C > W
5C KC 6C 7C > W
8C QC 9C TC > W
2H JC 3H 4H > W
2S AS QS 3S > W
5H AH 6H 7H > W
8H KH 9H TH > W
JH QH 4S 5S > W
"""

# ... and every other trick too (so W also takes JD).
MOON_W_ALL_TRICKS = (
    _MOON_W_FIRST_8
    + """
2D AD 3D 4D > W
5D KD 6D 7D > W
8D QD 9D 6S > W
7S JD 8S 9S > W
TS TD JS KS > W
"""
)

# ... while E wins tricks 9-13, among them JD: the shooter need not win every trick (R12.1).
MOON_W_JD_TO_E = (
    _MOON_W_FIRST_8
    + """
3D 2D 4D JD > E
6S AD 7S KS > E
5D KD 8S JS > E
7D QD 6D TS > E
9D TD 8D 9S > E
"""
)

# TV-32: W collects all 13 hearts, N collects QS.
HEARTS_W_QUEEN_N = """
2C AC 3C 4C > W
5C KC 6C 7C > W
8C QC 9C TC > W
2H JC 3H 4H > W
5H AH 6H 7H > W
8H KH 9H TH > W
JH QH 3D 5S > W
4S 2S QS 3S > N
2D AD 5D 6S > W
4D KD 6D 7S > W
JS QD 7D 8S > W
KS JD 8D 9S > W
AS TD 9D TS > W
"""

# TV-37 hand 10: hand points S 8, W 1, N 4, E 13.
HAND_8_1_4_13 = """
2C 3C 4C 5C > E
AC 7C 8C 6C > S
4D KD 3D TH > W
4S 2S 3S QS > E
AH 3H 4H 2H > S
KH 5H 6H 7H > S
8H 9H QH JH > N
6D AD 5D 9C > W
9D 7D 8D 5S > S
TD JD QD 6S > N
QC KC TC JC > W
9S 7S 8S AS > E
TS JS 2D KS > E
"""

# TV-42: three seats (0, 1, 2; 2D removed); seat 1 collects every heart and QS.
MOON_3P_SEAT1 = """
2C AC 3C > 1
5C KC 4C > 1
7C QC 6C > 1
9C JC 8C > 1
3H TC 2H > 1
2S AS QS > 1
5H AH 4H > 1
7H KH 6H > 1
9H QH 8H > 1
3S JH TH > 1
3D AD 6D > 1
4D KD 7D > 1
5D QD 8S > 1
4S JD 9S > 1
5S TD TS > 1
6S 9D JS > 1
7S 8D KS > 1
"""


def test_tv26_to_tv42_scripts_deal_whole_decks() -> None:
    """TV-26 … TV-42 fixtures (R1.1, R15): each scripted hand of this file deals exactly the
    pack in play."""
    four = deck_for(RuleOptions.standard())
    for script in (
        NO_MOON_5_16_5_0,
        OMNIBUS_5_16_3_M8,
        MOON_W_ALL_TRICKS,
        MOON_W_JD_TO_E,
        HEARTS_W_QUEEN_N,
        HAND_8_1_4_13,
    ):
        hands = script_hands(script)
        assert [len(h) for h in hands] == [13, 13, 13, 13]
        assert tuple(sorted(c for h in hands for c in h)) == four
    three = script_hands(MOON_3P_SEAT1)
    assert [len(h) for h in three] == [17, 17, 17]
    assert tuple(sorted(c for h in three for c in h)) == deck_for(RuleOptions.standard(3))


# --- §10.3 TV-22, TV-23: trick winner -----------------------------------------------------------


def test_tv22_trick_winner_is_highest_of_led_suit_seed000_trick3() -> None:
    """TV-22 (R10.1, R1.4): N 4S, E 7S, S 2S, W AH → E wins; the trick is worth 1 point."""
    plays = ((N, card("4S")), (E, card("7S")), (S, card("2S")), (W, card("AH")))
    assert trick_winner(plays) == E
    assert points_of(RuleOptions.standard(), [c for _, c in plays]) == 1


def test_tv22_trick_played_through_apply() -> None:
    """TV-22 (R10.1, R10.2, R6.2, R8.2): played through `apply`, E collects the four cards
    (1 point), leads the next trick, and W's heart discard breaks hearts."""
    options = RuleOptions.standard()
    state = position(
        options,
        ["2S AC", "AH 6C", "4S 8C", "7S 3C"],
        leader=N,
        trick_number=12,
    )
    state = apply(state, Play(N, "4S"))
    state = apply(state, Play(E, "7S"))
    state = apply(state, Play(S, "2S"))
    assert set(legal_cards(state, W)) == set(cards("AH 6C"))  # W is void in spades
    state = apply(state, Play(W, "AH"))
    hand = state.hand
    assert hand is not None
    trick = hand.tricks[-1]
    assert trick.leader == N
    assert trick.winner == E
    assert trick.collector == E
    assert hand.taken == ((), (), (), cards("4S 7S 2S AH"))
    assert points_of(options, hand.taken[E]) == 1
    assert hand.leader == E
    assert to_act(state) == (E,)
    assert hand.hearts_broken is True
    assert hand.tricks_won == (0, 0, 0, 1)


def test_tv23_trick_winner_seed000_trick2() -> None:
    """TV-23 (R10.1, R1.4, R1.5): S 3D, W TD, N JD, E QS → N wins (QS is a spade, not a
    diamond); the trick is worth 13 points."""
    plays = ((S, card("3D")), (W, card("TD")), (N, card("JD")), (E, card("QS")))
    assert trick_winner(plays) == N
    assert points_of(RuleOptions.standard(), [c for _, c in plays]) == 13


def test_tv23_trick_played_through_apply() -> None:
    """TV-23 (R10.1, R10.2, R6.2, R8.3): played through `apply`, N collects 13 points and
    leads next; the QS discard does not break hearts by default."""
    options = RuleOptions.standard()
    state = position(options, ["3D AC", "TD 5C", "JD 8C", "QS 3C"], leader=S, trick_number=12)
    for seat, code in ((S, "3D"), (W, "TD"), (N, "JD"), (E, "QS")):
        assert to_act(state) == (seat,)
        state = apply(state, Play(seat, code))
    hand = state.hand
    assert hand is not None
    assert hand.tricks[-1].winner == N
    assert hand.taken == ((), (), cards("3D TD JD QS"), ())
    assert points_of(options, hand.taken[N]) == 13
    assert hand.leader == N
    assert to_act(state) == (N,)
    assert hand.hearts_broken is False


# --- §10.3 TV-24, TV-25: the seed-000 worked example -------------------------------------------

WORKED_EXAMPLE_HANDS = (
    cards("AC KC QC 2D 3D 4D 5D 2S 3S 5S 2H 3H 4H"),
    cards("5C 6C 7C 6D 7D 8D TD AH 5H 6H 7H 8H 9H"),
    cards("2C 8C TC 9D JD QD KD AD 4S 6S 8S 9S TH"),
    cards("3C 4C 9C JC 7S TS JS QS KS AS JH QH KH"),
)

# (seat to act, exact legal set, card played), trick by trick.
WORKED_EXAMPLE_TRICKS: tuple[tuple[tuple[int, str, str], ...], ...] = (
    (
        (N, "2C", "2C"),
        (E, "3C 4C 9C JC", "9C"),
        (S, "AC KC QC", "KC"),
        (W, "5C 6C 7C", "5C"),
    ),
    (
        (S, "AC QC 2D 3D 4D 5D 2S 3S 5S", "3D"),
        (W, "6D 7D 8D TD", "TD"),
        (N, "9D JD QD KD AD", "JD"),
        (E, "3C 4C JC 7S TS JS QS KS AS JH QH KH", "QS"),
    ),
    (
        (N, "8C TC 9D QD KD AD 4S 6S 8S 9S", "4S"),
        (E, "7S TS JS KS AS", "7S"),
        (S, "2S 3S 5S", "2S"),
        (W, "6C 7C 6D 7D 8D AH 5H 6H 7H 8H 9H", "AH"),
    ),
)


def _start_worked_example(route: str, omnibus: bool) -> GameState:
    """The TV-24 hands at the start of play: as a hold hand, or after hand 1's pass left."""
    if route == "hold":
        options = RuleOptions.standard(pass_cycle="none", omnibus=omnibus)
        state = start_hand(new_game(options), WORKED_EXAMPLE_HANDS)
        assert state.phase is Phase.PLAY  # R4.5: no pass phase
    else:
        state, _ = deal_for_final_hands(
            new_game(RuleOptions.standard(omnibus=omnibus)), WORKED_EXAMPLE_HANDS
        )
        assert state.hand is not None and state.hand.direction is PassDirection.LEFT
    assert state.hand is not None
    assert state.hand.hands == WORKED_EXAMPLE_HANDS
    return state


def _run_worked_example(route: str, omnibus: bool, trick_points: tuple[int, int, int]) -> None:
    state = _start_worked_example(route, omnibus)
    options = state.options
    expected_winners = (S, N, E)
    played_hearts = False
    for number, steps in enumerate(WORKED_EXAMPLE_TRICKS, start=1):
        for seat, legal, code in steps:
            assert to_act(state) == (seat,)
            assert current_seat(state) == seat
            assert set(legal_cards(state, seat)) == set(cards(legal))
            assert len(legal_cards(state, seat)) == len(cards(legal))
            if number == 3 and seat == N:
                # hearts are still unbroken after E's QS discard: TH may not be led (R8.3, R8.4)
                assert_refused(state, Play(N, "TH"), "R8.4")
            state = apply(state, Play(seat, code))
            played_hearts = played_hearts or card(code).suit == "H"
            assert state.hand is not None
            assert state.hand.hearts_broken is played_hearts
        hand = state.hand
        assert hand is not None
        trick = hand.tricks[number - 1]
        assert trick.winner == expected_winners[number - 1]
        assert hand.leader == expected_winners[number - 1]
        assert points_of(options, trick.cards) == trick_points[number - 1]
        assert set(trick.cards) <= set(hand.taken[trick.winner])
    hand = state.hand
    assert hand is not None
    assert hand.hearts_broken is True  # "Now hearts are open"
    # 4. points taken so far
    taken = (0, 0, trick_points[1], trick_points[2])
    assert tuple(points_of(options, hand.taken[s]) for s in range(4)) == taken
    assert raw_points(options, hand.taken) == taken
    # 5. trick 4: E leads, anything goes
    assert to_act(state) == (E,)
    assert set(legal_cards(state, E)) == set(cards("3C 4C JC TS JS KS AS JH QH KH"))
    assert len(legal_cards(state, E)) == 10


@pytest.mark.parametrize("route", ["hold", "after_pass_left"])
def test_tv24_seed000_worked_example(route: str) -> None:
    """TV-24 (R5.1, R6.1, R6.2, R6.3, R8.2, R8.3, R8.4, R10.1, R10.2): every legal set,
    winner, trick value and hearts_broken of seed 000's three tricks, then E's free lead."""
    _run_worked_example(route, omnibus=False, trick_points=(0, 13, 1))


@pytest.mark.parametrize("route", ["hold", "after_pass_left"])
def test_tv25_seed000_worked_example_omnibus(route: str) -> None:
    """TV-25 (R20.1, R20.2): the same deal and plays with Omnibus: N's trick 2 is worth
    13 − 10 = 3; tricks 1 and 3, every legal set and hearts_broken are unchanged."""
    _run_worked_example(route, omnibus=True, trick_points=(0, 3, 1))


# --- §10.4 TV-26 … TV-35: scoring a hand and the moon -------------------------------------------


def test_tv26_score_hand_from_collected_cards() -> None:
    """TV-26 (R11.1, R11.2): S 5 hearts, W QS + 3 hearts, N 5 hearts, E nothing → [5, 16, 5, 0],
    sum 26."""
    options = RuleOptions.standard()
    _, taken = collections(options, E, S="2H 3H 4H 5H 6H", W="QS 7H 8H 9H", N="TH JH QH KH AH")
    points = hand_points(options, taken, (0, 0, 0, 0))
    assert points == (5, 16, 5, 0)
    assert sum(points) == 26


def test_tv26_hand_played_through_apply() -> None:
    """TV-26 (R11.1, R11.2, R11.3): a whole hand played through `apply` with those collections
    scores [5, 16, 5, 0] (sum 26), added to the totals; the game waits for the next deal."""
    options = RuleOptions.standard()
    state = play_scripted_hand(options, NO_MOON_5_16_5_0)
    hand = state.hand
    assert hand is not None
    assert [sum(1 for c in t if c.suit == "H") for t in hand.taken] == [5, 3, 5, 0]
    assert card("QS") in hand.taken[W]
    result = state.results[-1]
    assert result.points == (5, 16, 5, 0)
    assert sum(result.points) == 26
    assert result.shooter is None
    assert result.moon_scoring is None
    assert result.hearts == (5, 3, 5, 0)
    assert result.queens == (0, 1, 0, 0)
    assert state.totals == (5, 16, 5, 0)
    assert result.totals == (5, 16, 5, 0)
    assert state.phase is Phase.DEAL
    assert state.winners == ()


def test_tv27_moon_points_add_to_others() -> None:
    """TV-27 (R12.1, R12.2, R12.3): W collected every heart and QS → [26, 0, 26, 26]."""
    options = RuleOptions.standard()
    _, taken = collections(options, S, W=ALL_HEARTS + " QS")
    assert raw_points(options, taken) == (0, 26, 0, 0)
    assert hand_points(options, taken, (0, 0, 0, 0)) == (26, 0, 26, 26)
    assert moon_points(options, (0, 26, 0, 0), W, MoonScoring.ADD_TO_OTHERS) == (26, 0, 26, 26)
    score = score_hand(options, taken, TRICKS_WON, (0, 0, 0, 0))
    assert score is not None
    assert score.shooter == W
    assert score.moon_scoring is MoonScoring.ADD_TO_OTHERS


@pytest.mark.parametrize("script", [MOON_W_ALL_TRICKS, MOON_W_JD_TO_E], ids=["all", "eight"])
def test_tv27_moon_played_through_a_whole_game(script: str) -> None:
    """TV-27 (R12.1, R12.3, R11.3): from a new standard game (hand 1 passes left), W collects
    every heart and QS (winning all 13 tricks, or only 8: the moon is decided from collected
    cards) → hand points and totals [26, 0, 26, 26]."""
    options = RuleOptions.standard()
    state, _ = deal_for_final_hands(new_game(options), script_hands(script))
    state = play_script(state, script)
    result = state.results[-1]
    assert result.shooter == W
    assert result.moon_scoring is MoonScoring.ADD_TO_OTHERS
    assert result.hearts == (0, 13, 0, 0)
    assert result.queens == (0, 1, 0, 0)
    assert result.points == (26, 0, 26, 26)
    assert state.totals == (26, 0, 26, 26)
    assert state.phase is Phase.DEAL
    assert state.winners == ()


def test_tv28_moon_points_subtract_from_self() -> None:
    """TV-28 (R12.4, R12.7): subtract_from_self → [0, −26, 0, 0]; [10, 20, 30, 40] becomes
    [10, −6, 30, 40]."""
    options = RuleOptions.standard(moon_scoring="subtract_from_self")
    _, taken = collections(options, N, W=ALL_HEARTS + " QS")
    points = hand_points(options, taken, (10, 20, 30, 40))
    assert points == (0, -26, 0, 0)
    assert tuple(t + p for t, p in zip((10, 20, 30, 40), points, strict=True)) == (10, -6, 30, 40)


def test_tv28_subtract_from_self_played_through() -> None:
    """TV-28 (R12.4, R12.7, R11.3): played through `apply` from totals [10, 20, 30, 40]: hand
    points [0, −26, 0, 0], totals [10, −6, 30, 40] (a negative total is kept)."""
    options = RuleOptions.standard(moon_scoring="subtract_from_self")
    state = play_scripted_hand(options, MOON_W_ALL_TRICKS, totals=(10, 20, 30, 40))
    result = state.results[-1]
    assert result.shooter == W
    assert result.moon_scoring is MoonScoring.SUBTRACT_FROM_SELF
    assert result.points == (0, -26, 0, 0)
    assert state.totals == (10, -6, 30, 40)
    assert state.phase is Phase.DEAL


@pytest.mark.parametrize(
    ("chosen", "points"),
    [
        (MoonScoring.ADD_TO_OTHERS, (26, 0, 26, 26)),
        (MoonScoring.SUBTRACT_FROM_SELF, (0, -26, 0, 0)),
    ],
)
def test_tv27_tv28_moon_choice_waits_for_the_shooter(
    chosen: MoonScoring, points: tuple[int, ...]
) -> None:
    """TV-27/TV-28 under `moon_scoring = choice` (R12.5, R14.2): after the last trick the game
    stops in MOON_CHOICE for W alone; any other seat's choice, or a play, is refused with R12.5
    and changes nothing; W's choice scores as TV-27 (add) or TV-28 (subtract)."""
    options = RuleOptions.standard(moon_scoring="choice")
    _, taken = collections(options, S, W=ALL_HEARTS + " QS")
    assert score_hand(options, taken, TRICKS_WON, (10, 20, 30, 40)) is None  # awaits the choice
    state = play_scripted_hand(options, MOON_W_ALL_TRICKS, totals=(10, 20, 30, 40))
    assert state.phase is Phase.MOON_CHOICE
    assert state.moon_shooter == W
    assert to_act(state) == (W,)
    assert set(legal_actions(state)) == {
        MoonChoice(W, MoonScoring.ADD_TO_OTHERS),
        MoonChoice(W, MoonScoring.SUBTRACT_FROM_SELF),
    }
    assert state.totals == (10, 20, 30, 40)
    assert state.results == ()
    for seat in (S, N, E):
        for scoring in (MoonScoring.ADD_TO_OTHERS, MoonScoring.SUBTRACT_FROM_SELF):
            assert_refused(state, MoonChoice(seat, scoring), "R12.5")
    assert_refused(state, Play(W, "2C"), "R12.5")
    state = apply(state, MoonChoice(W, chosen))
    result = state.results[-1]
    assert result.shooter == W
    assert result.moon_scoring is chosen
    assert result.points == points
    assert state.totals == tuple(t + p for t, p in zip((10, 20, 30, 40), points, strict=True))
    assert state.phase is Phase.DEAL
    assert state.moon_shooter is None


def test_tv29_auto_moon_subtracts_when_shooter_would_lose() -> None:
    """TV-29 (R12.6, R13.2): totals [80, 90, 60, 70], W shoots; adding would end the game with
    N winning, so `auto` subtracts → [80, 64, 60, 70]."""
    options = RuleOptions.standard(moon_scoring="auto")
    base = (0, 26, 0, 0)
    totals = (80, 90, 60, 70)
    assert game_winners(options, (106, 90, 86, 96)) == (N,)
    assert auto_moon_scoring(options, base, W, totals) is MoonScoring.SUBTRACT_FROM_SELF
    _, taken = collections(options, E, W=ALL_HEARTS + " QS")
    assert hand_points(options, taken, totals) == (0, -26, 0, 0)


def test_tv29_auto_moon_subtracts_played_through() -> None:
    """TV-29 (R12.6, R12.8, R13.2): played through `apply`: totals [80, 64, 60, 70] and the
    game continues."""
    options = RuleOptions.standard(moon_scoring="auto")
    state = play_scripted_hand(options, MOON_W_ALL_TRICKS, totals=(80, 90, 60, 70))
    result = state.results[-1]
    assert result.shooter == W
    assert result.moon_scoring is MoonScoring.SUBTRACT_FROM_SELF
    assert result.points == (0, -26, 0, 0)
    assert state.totals == (80, 64, 60, 70)
    assert state.phase is Phase.DEAL
    assert state.winners == ()


def test_tv30_auto_moon_adds_when_game_would_not_end() -> None:
    """TV-30 (R12.6, D-08): totals [10, 60, 20, 30], W shoots; adding ends nothing, so `auto`
    adds → [36, 60, 46, 56] (not Berns' [10, 34, 20, 30])."""
    options = RuleOptions.standard(moon_scoring="auto")
    totals = (10, 60, 20, 30)
    assert game_winners(options, (36, 60, 46, 56)) == ()
    assert auto_moon_scoring(options, (0, 26, 0, 0), W, totals) is MoonScoring.ADD_TO_OTHERS
    _, taken = collections(options, S, W=ALL_HEARTS + " QS")
    assert hand_points(options, taken, totals) == (26, 0, 26, 26)


def test_tv30_auto_moon_adds_played_through() -> None:
    """TV-30 (R12.6, D-08): played through `apply`: totals [36, 60, 46, 56]; game continues."""
    options = RuleOptions.standard(moon_scoring="auto")
    state = play_scripted_hand(options, MOON_W_ALL_TRICKS, totals=(10, 60, 20, 30))
    result = state.results[-1]
    assert result.moon_scoring is MoonScoring.ADD_TO_OTHERS
    assert result.points == (26, 0, 26, 26)
    assert state.totals == (36, 60, 46, 56)
    assert state.phase is Phase.DEAL
    assert state.winners == ()


def test_tv31_auto_moon_adds_and_shooter_wins() -> None:
    """TV-31 (R12.6, R13.2, R13.3): totals [90, 50, 80, 85], W shoots; adding gives
    [116, 50, 106, 111], the game ends and W wins → `auto` adds."""
    options = RuleOptions.standard(moon_scoring="auto")
    totals = (90, 50, 80, 85)
    assert auto_moon_scoring(options, (0, 26, 0, 0), W, totals) is MoonScoring.ADD_TO_OTHERS
    assert game_winners(options, (116, 50, 106, 111)) == (W,)


def test_tv31_auto_moon_adds_and_shooter_wins_played_through() -> None:
    """TV-31 (R12.6, R12.8, R13.2, R13.3): played through `apply`: totals
    [116, 50, 106, 111], phase GAME_OVER, W the only winner (with 50); nothing more is
    accepted."""
    options = RuleOptions.standard(moon_scoring="auto")
    state = play_scripted_hand(options, MOON_W_ALL_TRICKS, totals=(90, 50, 80, 85))
    result = state.results[-1]
    assert result.moon_scoring is MoonScoring.ADD_TO_OTHERS
    assert result.points == (26, 0, 26, 26)
    assert state.totals == (116, 50, 106, 111)
    assert state.phase is Phase.GAME_OVER
    assert state.winners == (W,)
    assert state.totals[W] == 50
    assert_refused(state, Deal(WORKED_EXAMPLE_HANDS), "R13.2")


def test_tv32_hearts_without_queen_is_no_moon() -> None:
    """TV-32 (R12.1): W collected all 13 hearts, N collected QS → no moon: [0, 13, 13, 0]."""
    options = RuleOptions.standard()
    _, taken = collections(options, E, W=ALL_HEARTS, N="QS")
    score = score_hand(options, taken, TRICKS_WON, (0, 0, 0, 0))
    assert score is not None
    assert score.shooter is None
    assert score.points == (0, 13, 13, 0)


def test_tv32_hearts_without_queen_played_through() -> None:
    """TV-32 (R12.1, R11.1): played through `apply`: [0, 13, 13, 0], no shooter."""
    state = play_scripted_hand(RuleOptions.standard(), HEARTS_W_QUEEN_N)
    result = state.results[-1]
    assert result.hearts == (0, 13, 0, 0)
    assert result.queens == (0, 0, 1, 0)
    assert result.shooter is None
    assert result.points == (0, 13, 13, 0)
    assert state.totals == (0, 13, 13, 0)


def test_tv33_omnibus_hand_points() -> None:
    """TV-33 (R20.1, R20.4): Omnibus: S 5 hearts, W QS + 3 hearts, N 3 hearts, E 2 hearts + JD
    → [5, 16, 3, −8], sum 16."""
    options = RuleOptions.standard(omnibus=True)
    _, taken = collections(
        options, S, S="2H 3H 4H 5H 6H", W="QS 7H 8H 9H", N="TH JH QH", E="KH AH JD"
    )
    points = hand_points(options, taken, (0, 0, 0, 0))
    assert points == (5, 16, 3, -8)
    assert sum(points) == 16


def test_tv33_omnibus_hand_played_through_a_whole_game() -> None:
    """TV-33 (R20.1, R20.2, R20.4): from a new Omnibus game (hand 1 passes left), a whole hand
    played through `apply` with those collections scores [5, 16, 3, −8], sum 16."""
    options = RuleOptions.standard(omnibus=True)
    state, _ = deal_for_final_hands(new_game(options), script_hands(OMNIBUS_5_16_3_M8))
    state = play_script(state, OMNIBUS_5_16_3_M8)
    result = state.results[-1]
    assert result.hearts == (5, 3, 3, 2)
    assert result.queens == (0, 1, 0, 0)
    assert result.bonus_cards == (0, 0, 0, 1)
    assert result.shooter is None
    assert result.points == (5, 16, 3, -8)
    assert sum(result.points) == 16
    assert state.totals == (5, 16, 3, -8)


def test_tv34_omnibus_moon_bonus_is_independent() -> None:
    """TV-34 (R20.3, R12.2, `omnibus_moon_requires_bonus = false`): W collects every heart and
    QS; (a) E took JD → [26, 0, 26, 16]; (b) W took JD too → [26, −10, 26, 26]."""
    options = RuleOptions.standard(omnibus=True)
    _, taken_a = collections(options, S, W=ALL_HEARTS + " QS", E="JD")
    assert hand_points(options, taken_a, (0, 0, 0, 0)) == (26, 0, 26, 16)
    _, taken_b = collections(options, S, W=ALL_HEARTS + " QS JD")
    assert hand_points(options, taken_b, (0, 0, 0, 0)) == (26, -10, 26, 26)


@pytest.mark.parametrize(
    ("script", "points", "bonus"),
    [
        (MOON_W_JD_TO_E, (26, 0, 26, 16), (0, 0, 0, 1)),
        (MOON_W_ALL_TRICKS, (26, -10, 26, 26), (0, 1, 0, 0)),
    ],
    ids=["a_jd_to_E", "b_jd_to_W"],
)
def test_tv34_omnibus_moon_played_through(
    script: str, points: tuple[int, ...], bonus: tuple[int, ...]
) -> None:
    """TV-34 (R20.3, R12.2, R12.3): played through `apply` with Omnibus: (a) [26, 0, 26, 16],
    (b) [26, −10, 26, 26]; W is the shooter either way."""
    options = RuleOptions.standard(omnibus=True)
    state = play_scripted_hand(options, script)
    result = state.results[-1]
    assert result.shooter == W
    assert result.bonus_cards == bonus
    assert result.points == points
    assert state.totals == points


def test_tv35_omnibus_moon_requires_bonus() -> None:
    """TV-35 (R20.3, `omnibus_moon_requires_bonus = true`): W has every heart and QS but E took
    JD → no moon, [0, 26, 0, −10]; W also took JD → moon, [26, −10, 26, 26]."""
    options = RuleOptions.standard(omnibus=True, omnibus_moon_requires_bonus=True)
    _, taken_a = collections(options, S, W=ALL_HEARTS + " QS", E="JD")
    score_a = score_hand(options, taken_a, TRICKS_WON, (0, 0, 0, 0))
    assert score_a is not None
    assert score_a.shooter is None
    assert score_a.points == (0, 26, 0, -10)
    _, taken_b = collections(options, S, W=ALL_HEARTS + " QS JD")
    score_b = score_hand(options, taken_b, TRICKS_WON, (0, 0, 0, 0))
    assert score_b is not None
    assert score_b.shooter == W
    assert score_b.points == (26, -10, 26, 26)


@pytest.mark.parametrize(
    ("script", "shooter", "points"),
    [
        (MOON_W_JD_TO_E, None, (0, 26, 0, -10)),
        (MOON_W_ALL_TRICKS, W, (26, -10, 26, 26)),
    ],
    ids=["a_jd_to_E", "b_jd_to_W"],
)
def test_tv35_omnibus_moon_requires_bonus_played_through(
    script: str, shooter: int | None, points: tuple[int, ...]
) -> None:
    """TV-35 (R20.3, R12.1): played through `apply` with the bonus required for a moon."""
    options = RuleOptions.standard(omnibus=True, omnibus_moon_requires_bonus=True)
    state = play_scripted_hand(options, script)
    result = state.results[-1]
    assert result.shooter == shooter
    assert result.points == points
    assert state.totals == points


# --- §10.5 TV-36 … TV-41: end of game and ties ---------------------------------------------------

NO_MOON_POINTS = (5, 16, 5, 0)  # NO_MOON_5_16_5_0's hand points


def _before(after: Sequence[int]) -> tuple[int, ...]:
    """Totals before NO_MOON_5_16_5_0 that give `after` once it is scored."""
    return tuple(a - p for a, p in zip(after, NO_MOON_POINTS, strict=True))


def test_tv36_game_winners() -> None:
    """TV-36 (R13.2, R13.3): target 100: [99, 100, 45, 60] → over, N wins; [99, 98, 45, 60] →
    the game continues."""
    options = RuleOptions.standard()
    assert game_winners(options, (99, 100, 45, 60)) == (N,)
    assert game_winners(options, (99, 98, 45, 60)) == ()


@pytest.mark.parametrize(
    ("after", "phase", "winners"),
    [
        ((99, 100, 45, 60), Phase.GAME_OVER, (N,)),
        ((99, 98, 45, 60), Phase.DEAL, ()),
    ],
)
def test_tv36_end_of_game_after_a_played_hand(
    after: tuple[int, ...], phase: Phase, winners: tuple[int, ...]
) -> None:
    """TV-36 (R13.2, R13.3): a hand played through `apply` that leaves those totals ends the
    game with N the winner, or leaves it waiting for the next deal."""
    state = play_scripted_hand(RuleOptions.standard(), NO_MOON_5_16_5_0, totals=_before(after))
    assert state.totals == after
    assert state.phase is phase
    assert state.winners == winners
    assert state.is_over is (phase is Phase.GAME_OVER)


def test_tv37_tie_for_lowest_plays_hand_10_to_the_right() -> None:
    """TV-37 (R13.4, R4.2, R13.2): totals after hand 9 [102, 40, 40, 77] → tie for lowest (W, N),
    play on; hand 10 passes right ((10−1) mod 4 = 1); hand-10 points [8, 1, 4, 13] → totals
    [110, 41, 44, 90] → game over, W wins."""
    options = RuleOptions.standard()
    assert game_winners(options, (102, 40, 40, 77)) == ()
    assert pass_direction(options, 10) is PassDirection.RIGHT
    assert game_winners(options, (110, 41, 44, 90)) == (W,)
    # hand 9, played through apply, ends with the tie
    state = play_scripted_hand(
        options, NO_MOON_5_16_5_0, totals=_before((102, 40, 40, 77)), hand_number=9
    )
    assert state.totals == (102, 40, 40, 77)
    assert state.phase is Phase.DEAL
    assert state.winners == ()
    # hand 10: dealt, passed to the right, played
    state, passes = deal_for_final_hands(state, script_hands(HAND_8_1_4_13))
    hand = state.hand
    assert hand is not None
    assert hand.number == 10
    assert hand.direction is PassDirection.RIGHT
    for seat in range(4):
        assert hand.received[(seat - 1) % 4] == passes[seat]  # to the right: S→E, W→S, …
    state = play_script(state, HAND_8_1_4_13)
    result = state.results[-1]
    assert result.number == 10
    assert result.direction is PassDirection.RIGHT
    assert result.points == (8, 1, 4, 13)
    assert state.totals == (110, 41, 44, 90)
    assert state.phase is Phase.GAME_OVER
    assert state.winners == (W,)


def test_tv38_shared_tie_ends_the_game() -> None:
    """TV-38 (R13.5): `tie_rule = shared`: [102, 40, 40, 77] → game over, W and N both win."""
    options = RuleOptions.standard(tie_rule="shared")
    assert game_winners(options, (102, 40, 40, 77)) == (W, N)
    state = play_scripted_hand(options, NO_MOON_5_16_5_0, totals=_before((102, 40, 40, 77)))
    assert state.totals == (102, 40, 40, 77)
    assert state.phase is Phase.GAME_OVER
    assert state.winners == (W, N)


TV39_CASES = [
    (50, (49, 30, 20, 10), ()),
    (50, (50, 30, 20, 10), (E,)),
    (150, (149, 120, 90, 60), ()),
    (150, (151, 120, 90, 60), (E,)),
]


@pytest.mark.parametrize(("target", "totals", "winners"), TV39_CASES)
def test_tv39_target_score(target: int, totals: tuple[int, ...], winners: tuple[int, ...]) -> None:
    """TV-39 (R13.1, R13.2): target 50: [49, 30, 20, 10] continues, [50, 30, 20, 10] ends with E;
    target 150: [149, 120, 90, 60] continues, [151, 120, 90, 60] ends with E."""
    assert game_winners(RuleOptions.standard(target_score=target), totals) == winners


@pytest.mark.parametrize(("target", "totals", "winners"), TV39_CASES)
def test_tv39_target_score_after_a_played_hand(
    target: int, totals: tuple[int, ...], winners: tuple[int, ...]
) -> None:
    """TV-39 (R13.1, R13.2): the same, reached by a hand played through `apply`."""
    options = RuleOptions.standard(target_score=target)
    state = play_scripted_hand(options, NO_MOON_5_16_5_0, totals=_before(totals))
    assert state.totals == totals
    assert state.winners == winners
    assert state.phase is (Phase.GAME_OVER if winners else Phase.DEAL)


def test_tv40_negative_moon_drops_everyone_below_target() -> None:
    """TV-40 (R13.6, R13.4, R12.4, R12.7): play_on and subtract_from_self: [104, 60, 60, 90] is
    a tie → play on; S then shoots → [78, 60, 60, 90]: nobody ≥ 100, no winner, the game goes on
    (a further hand is dealt normally)."""
    options = RuleOptions.standard(moon_scoring="subtract_from_self")
    assert game_winners(options, (104, 60, 60, 90)) == ()
    assert game_winners(options, (78, 60, 60, 90)) == ()
    state = play_scripted_hand(options, NO_MOON_5_16_5_0, totals=_before((104, 60, 60, 90)))
    assert state.totals == (104, 60, 60, 90)
    assert state.phase is Phase.DEAL
    assert state.winners == ()
    moon_s = rotate_script(MOON_W_ALL_TRICKS, -1)  # the same moon with S as the shooter
    state, _ = deal_for_final_hands(state, script_hands(moon_s))
    state = play_script(state, moon_s)
    result = state.results[-1]
    assert result.shooter == S
    assert result.points == (-26, 0, 0, 0)
    assert state.totals == (78, 60, 60, 90)
    assert state.phase is Phase.DEAL
    assert state.winners == ()
    state = apply(state, Deal(WORKED_EXAMPLE_HANDS))
    assert state.hand_number == 3
    assert state.phase is Phase.PASS


def test_tv41_illegal_play_is_refused_without_penalty() -> None:
    """TV-41 (R14.2, R14.3, R6.1): trick 5, 9H led, S holds {2H, KC}: legal = {2H}; KC raises
    with R6.1 and changes nothing; no 26-point penalty appears in the hand's score or totals."""
    options = RuleOptions.standard()
    state = position(
        options,
        ["2H KC", "3H 5C", "4D 6C", "7C"],
        leader=E,
        trick_number=5,
        current=[(E, "9H")],
        hearts_broken=True,
    )
    assert legal_cards(state, S) == cards("2H")
    assert legal_actions(state) == (Play(S, "2H"),)
    assert_refused(state, Play(S, "KC"), "R6.1")
    assert state.totals == (0, 0, 0, 0)
    assert state.results == ()
    # finish the hand legally: the score holds only what was taken
    for seat, code in ((S, "2H"), (W, "3H"), (N, "4D"), (E, "7C"), (S, "KC"), (W, "5C"), (N, "6C")):
        state = apply(state, Play(seat, code))
    result = state.results[-1]
    assert result.points == (0, 0, 0, 3)
    assert state.totals == (0, 0, 0, 3)
    assert all(abs(p) < 26 for p in result.points)


# --- §10.6 TV-42 … TV-45: other player counts ---------------------------------------------------


def _round_robin(options: RuleOptions) -> tuple[Hand, ...]:
    """The sorted pack dealt one card at a time to each seat in turn."""
    deck = deck_for(options)
    n = options.num_players
    return tuple(tuple(deck[seat::n]) for seat in range(n))


def test_tv42_three_players_deck_and_passing_table() -> None:
    """TV-42 (R15, R16, R17.1, R12): 3 players: 51 cards without 2D, 17 each, 2C leads, 26
    penalty points; passing left, right, left; a deal containing 2D is refused."""
    options = RuleOptions.standard(3)
    deck = deck_for(options)
    assert len(deck) == 51
    assert set(deck) == set(FULL_DECK) - {card("2D")}
    assert hand_size(options) == 17
    assert lowest_club(options) == card("2C")
    assert penalty_total(options) == 26
    assert [pass_direction(options, k) for k in (1, 2, 3)] == [
        PassDirection.LEFT,
        PassDirection.RIGHT,
        PassDirection.LEFT,
    ]
    good = _round_robin(options)
    with_2d = (tuple(sorted((*good[0][1:], card("2D")))), good[1], good[2])
    assert_refused(new_game(options), Deal(with_2d), "R15")


def test_tv42_three_player_moon_played_through_three_hands() -> None:
    """TV-42 (R15, R16, R17.1, R12.3, R15.1): a 3-player game played through `apply`: hand 1
    passes left, the 2C holder must lead 2C, seat 1 shoots → [26, 0, 26]; hand 2 passes right,
    the same moon → [52, 0, 52]; hand 3 passes left."""
    options = RuleOptions.standard(3)
    final = script_hands(MOON_3P_SEAT1)
    state = new_game(options)
    expected_totals = [(26, 0, 26), (52, 0, 52)]
    for number, direction in ((1, PassDirection.LEFT), (2, PassDirection.RIGHT)):
        state, passes = deal_for_final_hands(state, final)
        hand = state.hand
        assert hand is not None
        assert hand.number == number
        assert hand.direction is direction
        for seat in range(3):
            assert hand.received[pass_target(seat, direction, 3)] == passes[seat]
        assert [len(h) for h in hand.hands] == [17, 17, 17]
        assert to_act(state) == (0,)  # seat 0 holds 2C
        assert legal_cards(state, 0) == cards("2C")
        assert_refused(state, Play(0, "5C"), "R5.1")
        state = play_script(state, MOON_3P_SEAT1)
        result = state.results[-1]
        assert result.shooter == 1
        assert result.points == (26, 0, 26)
        assert state.totals == expected_totals[number - 1]
        assert state.phase is Phase.DEAL
    state = apply(state, Deal(_round_robin(options)))
    assert state.hand is not None
    assert state.hand.number == 3
    assert state.hand.direction is PassDirection.LEFT


def hand_points_n(options: RuleOptions, taken: tuple[Hand, ...]) -> tuple[int, ...]:
    n = options.num_players
    score = score_hand(options, taken, (1,) * n, (0,) * n)
    assert score is not None
    return score.points


def test_tv42_three_player_moon_points() -> None:
    """TV-42 (R12.3, R15.1): with 3 players a moon scores shooter 0 and each other +26."""
    options = RuleOptions.standard(3)
    taken = (cards("3C"), cards(ALL_HEARTS + " QS"), cards("4C"))
    assert hand_points_n(options, taken) == (26, 0, 26)
    assert moon_points(options, (0, 26, 0), 1, MoonScoring.ADD_TO_OTHERS) == (26, 0, 26)


def test_tv43_five_players_lead_the_three_of_clubs() -> None:
    """TV-43 (R15, R16.1, R5.3): 5 players: 50 cards without 2D and 2C, 10 each; the 3C holder
    (who also holds other clubs) must lead 3C: legal = {3C}; another club is refused."""
    options = RuleOptions.standard(5)
    deck = deck_for(options)
    assert len(deck) == 50
    assert set(deck) == set(FULL_DECK) - {card("2D"), card("2C")}
    assert hand_size(options) == 10
    assert lowest_club(options) == card("3C")
    assert penalty_total(options) == 26
    final = _round_robin(options)
    assert {card("3C"), card("8C"), card("KC")} <= set(final[0])
    state, _ = deal_for_final_hands(new_game(options), final)
    assert state.hand is not None
    assert [len(h) for h in state.hand.hands] == [10] * 5
    assert to_act(state) == (0,)
    assert legal_cards(state, 0) == cards("3C")
    assert_refused(state, Play(0, "8C"), {"R5.3"})
    state = apply(state, Play(0, "3C"))
    assert to_act(state) == (1,)


@pytest.mark.parametrize(
    ("players", "removed", "size", "each"),
    [(6, "2D 3D 3C 4C", 48, 8), (7, "2D 3D 3C", 49, 7)],
)
def test_tv44_six_and_seven_players(players: int, removed: str, size: int, each: int) -> None:
    """TV-44 (R15, R16): 6 players: 2D 3D 3C 4C out, 48 cards, 8 each; 7 players: 2D 3D 3C out,
    49 cards, 7 each; 2C leads (legal = {2C})."""
    options = RuleOptions.standard(players)
    deck = deck_for(options)
    assert len(deck) == size
    assert set(deck) == set(FULL_DECK) - set(cards(removed))
    assert hand_size(options) == each
    assert lowest_club(options) == card("2C")
    assert penalty_total(options) == 26
    final = _round_robin(options)
    state, _ = deal_for_final_hands(new_game(options), final)
    assert state.hand is not None
    assert [len(h) for h in state.hand.hands] == [each] * players
    holder = next(seat for seat, h in enumerate(final) if card("2C") in h)
    assert to_act(state) == (holder,)
    assert legal_cards(state, holder) == cards("2C")
    others = [c for c in final[holder] if c != card("2C")]
    assert_refused(state, Play(holder, others[0]), "R5.1")


@pytest.mark.parametrize(
    ("cycle", "expected"),
    [
        ("LR", ["left", "right", "left", "right"]),
        ("LRH", ["left", "right", "hold", "left"]),
    ],
)
def test_tv45_five_player_pass_cycles(cycle: str, expected: list[str]) -> None:
    """TV-45 (R17.1, R17.2): 5 players, LR → left, right, left, right; LRH → left, right, hold,
    left; across never occurs (and LRAH is refused at 5 seats). The engine deals hands 1–4 with
    these directions and passes each seat's cards to that neighbour."""
    options = RuleOptions.standard(5, pass_cycle=cycle)
    assert [pass_direction(options, k).value for k in (1, 2, 3, 4)] == expected
    assert all(pass_direction(options, k) is not PassDirection.ACROSS for k in range(1, 41))
    with pytest.raises(InvalidOptionsError):
        RuleOptions.standard(5, pass_cycle="LRAH")
    rng = random.Random(45)
    state = new_game(options)
    seen = []
    for number in range(1, 5):
        assert state.phase is Phase.DEAL
        state = apply(state, Deal(_shuffled(options, rng)))
        hand = state.hand
        assert hand is not None and hand.number == number
        seen.append(hand.direction.value)
        if hand.direction is PassDirection.HOLD:
            assert state.phase is Phase.PLAY
        else:
            assert state.phase is Phase.PASS
            passes = [hand.hands[seat][:3] for seat in range(5)]
            for seat in range(5):
                state = apply(state, Pass(seat, passes[seat]))
            assert state.hand is not None
            offset = 1 if hand.direction is PassDirection.LEFT else -1
            for seat in range(5):
                assert state.hand.received[(seat + offset) % 5] == passes[seat]
        while state.phase is not Phase.DEAL:
            assert state.phase is Phase.PLAY
            state = random_step(state, rng)
    assert seen == expected


def _shuffled(options: RuleOptions, rng: random.Random) -> tuple[tuple[Card, ...], ...]:
    deck = list(deck_for(options))
    rng.shuffle(deck)
    size = hand_size(options)
    return tuple(tuple(deck[i * size : (i + 1) * size]) for i in range(options.num_players))
