"""Replay, codecs and refused actions (R14.2, R4.7; DESIGN: a game is its header plus its actions).

(a) A whole random game, deals included, replays to the same state from its header and action
    list, also after a JSON round trip of every action and of the header, and after a text round
    trip (`str(action)` → `parse_action`); prefixes (mid-pass, mid-trick, between hands, a pending
    moon choice) replay to the live state at that point.
(b) Codec round trips (cards, every action kind, rule options, headers) and malformed inputs,
    which raise `InvalidActionError` / `InvalidOptionsError` (both `EngineError`s, `ValueError`s).
(c) Illegal actions at random points of random games raise `IllegalActionError` or
    `InvalidActionError` and leave the state equal to a deep copy taken before (R14.2, R4.7).
"""

from __future__ import annotations

import copy
import json
import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.engine import (
    FULL_DECK,
    Action,
    Card,
    Deal,
    EngineError,
    FirstLead,
    GameHeader,
    GameState,
    HeartsBrokenBy,
    IllegalActionError,
    InvalidActionError,
    InvalidOptionsError,
    LastTrickNoWinner,
    LeftoverTo,
    MoonChoice,
    MoonScoring,
    Pass,
    PassCycle,
    Phase,
    Play,
    RuleOptions,
    Suit,
    TieRule,
    action_from_json,
    action_to_json,
    apply,
    cards,
    legal_actions,
    legal_cards,
    new_game,
    parse_action,
    random_deal,
    replay,
    to_act,
)

ADD = MoonScoring.ADD_TO_OTHERS
SUBTRACT = MoonScoring.SUBTRACT_FROM_SELF

TABLES: dict[str, RuleOptions] = {
    "standard-3": RuleOptions.standard(3),
    "standard-4": RuleOptions.standard(4),
    "standard-5": RuleOptions.standard(5),
    "standard-7": RuleOptions.standard(7),
    "omnibus-4": RuleOptions.standard(4, omnibus=True),
    "standard-4-choice": RuleOptions.standard(4, moon_scoring=MoonScoring.CHOICE),
    "cancellation-6": RuleOptions.cancellation(6),
    "cancellation-9": RuleOptions.cancellation(9),
    "cancellation-11": RuleOptions.cancellation(11),
}

# A moon hand (4 players, `first_lead = left_of_dealer`, no passing): the 13 spades win every
# trick their holder leads, and the holder leads them all. Used to reach `Phase.MOON_CHOICE`.
MOON_OPTIONS = RuleOptions.standard(
    4,
    pass_cycle=PassCycle.NONE,
    first_lead=FirstLead.LEFT_OF_DEALER,
    moon_scoring=MoonScoring.CHOICE,
)
MOON_SHOOTER = 1  # left of dealer 0


def moon_deal(rng: random.Random) -> Deal:
    """A 4-player deal in which seat 1 holds every spade."""
    spades = [c for c in FULL_DECK if c.suit is Suit.SPADES]
    rest = [c for c in FULL_DECK if c.suit is not Suit.SPADES]
    rng.shuffle(rest)
    hands = [rest[0:13], spades, rest[13:26], rest[26:39]]
    return Deal(hands)


def record_game(
    options: RuleOptions,
    seed: int,
    first_dealer: int = 0,
    first_deal: Deal | None = None,
    max_actions: int | None = None,
) -> tuple[list[Action], list[GameState]]:
    """Play a random legal game; return every action (deals included) and every state
    (`states[i]` is the state after `actions[:i]`)."""
    rng = random.Random(seed)
    state = new_game(options, first_dealer)
    actions: list[Action] = []
    states = [state]
    while not state.is_over and (max_actions is None or len(actions) < max_actions):
        action: Action
        if state.phase is Phase.DEAL:
            if first_deal is not None and not actions:
                action = first_deal
            else:
                action = random_deal(options, rng)
        elif state.phase is Phase.PASS:
            hand = state.hand
            assert hand is not None
            seat = rng.choice(to_act(state))  # passes arrive in any order (R4.3)
            action = Pass(seat, rng.sample(hand.hands[seat], 3))
        else:  # PLAY or MOON_CHOICE
            action = rng.choice(legal_actions(state))
        state = apply(state, action)
        actions.append(action)
        states.append(state)
    return actions, states


def json_round_trip(action: Action) -> Action:
    return action_from_json(json.loads(json.dumps(action_to_json(action))))


def interesting_prefixes(states: list[GameState]) -> dict[str, int]:
    """Indices of states worth replaying to (hands 1 and 2 only): mid-pass, mid-trick, between
    hands, a pending moon choice."""
    found: dict[str, int] = {}
    for i, state in enumerate(states):
        hand = state.hand
        if hand is None or hand.number > 2:
            continue
        committed = sum(p is not None for p in hand.passed)
        if state.phase is Phase.PASS and 0 < committed < state.num_players:
            found.setdefault(f"mid-pass of hand {hand.number}", i)
        if state.phase is Phase.PLAY and hand.current and hand.trick_number >= 2:
            found.setdefault(f"mid-trick of hand {hand.number}", i)
        if state.phase is Phase.DEAL:
            found.setdefault("between hands", i)
        if state.phase is Phase.MOON_CHOICE:
            found.setdefault("moon choice pending", i)
    return found


# --- (a) replay equality ---------------------------------------------------------------------


@pytest.mark.parametrize("table", sorted(TABLES))
@pytest.mark.parametrize("seed", [1, 2026])
def test_replay_of_a_whole_game_equals_the_live_state(table: str, seed: int) -> None:
    options = TABLES[table]
    first_dealer = seed % options.num_players
    actions, states = record_game(options, seed, first_dealer)
    live = states[-1]
    assert live.is_over
    assert sum(isinstance(a, Deal) for a in actions) == len(live.results)
    header = GameHeader(options, first_dealer)
    assert replay(header, actions) == live

    header_json = GameHeader.from_json(json.loads(json.dumps(header.to_json())))
    assert header_json == header
    from_json = [json_round_trip(a) for a in actions]
    assert from_json == actions
    assert replay(header_json, from_json) == live

    from_text = [parse_action(str(a)) for a in actions]
    assert from_text == actions
    assert replay(header, from_text) == live

    # The whole record as one JSON document.
    record = json.dumps({"header": header.to_json(), "actions": [a.to_json() for a in actions]})
    loaded = json.loads(record)
    rebuilt = replay(
        GameHeader.from_json(loaded["header"]), [action_from_json(a) for a in loaded["actions"]]
    )
    assert rebuilt == live

    prefixes = interesting_prefixes(states)
    assert "mid-pass of hand 1" in prefixes
    assert "mid-trick of hand 1" in prefixes
    assert "between hands" in prefixes
    rng = random.Random(seed)
    for i in [*prefixes.values(), *rng.sample(range(len(states)), 3)]:
        assert replay(header, actions[:i]) == states[i], f"prefix of {i} actions"
        assert replay(header_json, from_json[:i]) == states[i]


def test_replay_through_a_moon_choice() -> None:
    """R12.5: the shooter's `MoonChoice` is an action of the record like any other."""
    rng = random.Random(7)
    actions, states = record_game(MOON_OPTIONS, seed=7, first_deal=moon_deal(rng))
    assert states[-1].is_over
    choices = [a for a in actions if isinstance(a, MoonChoice)]
    assert choices
    assert choices[0].seat == MOON_SHOOTER
    header = GameHeader(MOON_OPTIONS, 0)
    assert replay(header, actions) == states[-1]
    assert replay(header, [json_round_trip(a) for a in actions]) == states[-1]
    assert replay(header, [parse_action(str(a)) for a in actions]) == states[-1]
    pending = interesting_prefixes(states)["moon choice pending"]
    assert states[pending].moon_shooter == MOON_SHOOTER
    assert replay(header, actions[:pending]) == states[pending]
    after = replay(header, actions[: pending + 1])
    assert after == states[pending + 1]
    assert after.results[0].shooter == MOON_SHOOTER
    assert after.results[0].moon_scoring is choices[0].scoring


# --- (b) codecs ----------------------------------------------------------------------------------


def test_every_card_code_round_trips() -> None:
    """R0.2 notation: rank then suit, `T` for ten; 52 distinct codes."""
    codes = {str(c) for c in FULL_DECK}
    assert codes == {r + s for r in "23456789TJQKA" for s in "CDHS"}
    for c in FULL_DECK:
        assert Card.from_str(str(c)) is c
        assert Card.from_str(c.code.lower()) is c
        assert Card(c.rank, c.suit) is c
        assert Card.from_index(c.index) is c
        assert copy.deepcopy(c) is c
    assert Card.from_str("10D") is Card.from_str("TD")
    assert Card.from_str("10d") is Card.from_str("td")
    assert Card.from_str(" qs ") is Card.from_str("QS")
    assert str(Card.from_str("10H")) == "TH"


@settings(deadline=None, max_examples=200, suppress_health_check=[HealthCheck.too_slow])
@given(c=st.sampled_from(FULL_DECK), data=st.data())
def test_card_codes_in_any_case(c: Card, data: st.DataObject) -> None:
    code = c.code.replace("T", "10") if data.draw(st.booleans()) else c.code
    mixed = "".join(ch.lower() if data.draw(st.booleans()) else ch for ch in code)
    assert Card.from_str(mixed) is c


SEATS = st.integers(min_value=0, max_value=10)
CARDS = st.sampled_from(FULL_DECK)


@st.composite
def deals(draw: st.DrawFn) -> Deal:
    options = draw(st.sampled_from(list(TABLES.values())))
    return random_deal(options, random.Random(draw(st.integers(0, 2**32 - 1))))


ACTIONS: st.SearchStrategy[Action] = st.one_of(
    st.builds(Play, SEATS, CARDS),
    st.builds(Pass, SEATS, st.lists(CARDS, min_size=3, max_size=3)),  # duplicates allowed
    st.builds(MoonChoice, SEATS, st.sampled_from([ADD, SUBTRACT, "add_to_others"])),
    deals(),
)


@settings(deadline=None, max_examples=200, suppress_health_check=[HealthCheck.too_slow])
@given(action=ACTIONS)
def test_every_action_kind_round_trips(action: Action) -> None:
    again = json_round_trip(action)
    assert again == action
    assert type(again) is type(action)
    assert hash(again) == hash(action)
    assert parse_action(str(action)) == action
    assert (
        action_to_json(action)["type"]
        == {
            Play: "play",
            Pass: "pass",
            MoonChoice: "moon",
            Deal: "deal",
        }[type(action)]
    )


def test_action_text_and_json_forms() -> None:
    """The documented text forms and JSON fields."""
    assert str(Play(2, "QS")) == "play 2 QS"
    assert str(Pass(0, ["KH", "QS", "AS"])) == "pass 0 QS AS KH"
    assert str(MoonChoice(1, "subtract_from_self")) == "moon 1 subtract_from_self"
    assert action_to_json(Play(2, "10s")) == {"type": "play", "seat": 2, "card": "TS"}
    assert action_from_json({"type": "play", "seat": 2, "card": "10s"}) == Play(2, "TS")
    assert parse_action("play 3 10h") == Play(3, "TH")
    assert action_from_json({"type": "deal", "hands": [["2C"], ["3C"]]}) == Deal([["2C"], ["3C"]])


@st.composite
def valid_options(draw: st.DrawFn) -> RuleOptions:
    """Any option combination RULES.md §2 defines."""
    if draw(st.booleans()):
        n = draw(st.integers(3, 7))
        cycles = [PassCycle.LR, PassCycle.LRH, PassCycle.NONE]
        if n == 4:
            cycles.append(PassCycle.LRAH)
        base: dict[str, Any] = {
            "variant": "standard",
            "num_players": n,
            "pass_cycle": draw(st.sampled_from(cycles)),
            "first_lead": draw(st.sampled_from(list(FirstLead))),
            "omnibus": draw(st.booleans()),
        }
    else:
        base = {
            "variant": "cancellation",
            "num_players": draw(st.integers(6, 11)),
            "pass_cycle": draw(st.sampled_from([PassCycle.LR, PassCycle.LRH, PassCycle.NONE])),
            "first_lead": FirstLead.LEFT_OF_DEALER,
            "omnibus": False,
        }
    return RuleOptions(
        **base,
        no_points_first_trick=draw(st.booleans()),
        must_break_hearts=draw(st.booleans()),
        hearts_broken_by=draw(st.sampled_from(list(HeartsBrokenBy))),
        qs_breaks_hearts=draw(st.booleans()),
        qs_lead_requires_broken=draw(st.booleans()),
        lead_hearts_if_only_qs_and_hearts=draw(st.booleans()),
        omnibus_bonus_card=draw(st.sampled_from(["JD", "TD"])),
        omnibus_bonus_value=draw(st.sampled_from([-10, -5])),
        omnibus_moon_requires_bonus=draw(st.booleans()),
        moon_scoring=draw(st.sampled_from(list(MoonScoring))),
        moon_value=draw(st.sampled_from([26, 52])),
        no_tricks_bonus=draw(st.sampled_from([0, -3, -5])),
        target_score=draw(st.sampled_from([50, 100, 150])),
        tie_rule=draw(st.sampled_from(list(TieRule))),
        cancel_leftover_to=draw(st.sampled_from(list(LeftoverTo))),
        cancel_last_trick_no_winner=draw(st.sampled_from(list(LastTrickNoWinner))),
    )


@settings(deadline=None, max_examples=200, suppress_health_check=[HealthCheck.too_slow])
@given(options=valid_options(), data=st.data())
def test_rule_options_and_header_round_trip(options: RuleOptions, data: st.DataObject) -> None:
    data_json = options.to_json()
    assert all(isinstance(v, str | int | bool) for v in data_json.values())
    again = RuleOptions.from_json(json.loads(json.dumps(data_json)))
    assert again == options
    assert hash(again) == hash(options)
    dealer = data.draw(st.integers(0, options.num_players - 1))
    header = GameHeader(options, dealer)
    assert GameHeader.from_json(json.loads(json.dumps(header.to_json()))) == header


BAD_CARD_CODES: list[Any] = ["", "1S", "11D", "QX", "ZZ", "Q", "QSS", "0S", "10", "Q S", None, 12]


@pytest.mark.parametrize("code", BAD_CARD_CODES)
def test_bad_card_codes_are_refused(code: Any) -> None:
    with pytest.raises(InvalidActionError):
        Card.from_str(code)
    with pytest.raises(InvalidActionError):
        Play(0, code)
    with pytest.raises(InvalidActionError):
        action_from_json({"type": "play", "seat": 0, "card": code})


@pytest.mark.parametrize("seat", [-1, "0", True, 1.0, None])
def test_bad_seats_are_refused(seat: Any) -> None:
    with pytest.raises(InvalidActionError):
        Play(seat, "QS")
    with pytest.raises(InvalidActionError):
        Pass(seat, ["QS", "AS", "KS"])
    with pytest.raises(InvalidActionError):
        MoonChoice(seat, ADD)
    with pytest.raises(InvalidActionError):
        action_from_json({"type": "play", "seat": seat, "card": "QS"})


def test_a_seat_beyond_the_table_is_refused_by_apply() -> None:
    state = apply(new_game(RuleOptions.standard(4)), random_deal(RuleOptions.standard(4), _rng()))
    before = copy.deepcopy(state)
    with pytest.raises(InvalidActionError):
        apply(state, Pass(4, ["2C", "3C", "4C"]))
    with pytest.raises(InvalidActionError):
        apply(state, Play(7, "2C"))
    assert state == before


@pytest.mark.parametrize(
    "data",
    [
        {"type": "play", "seat": 0},
        {"type": "play", "card": "QS"},
        {"type": "pass", "seat": 0},
        {"type": "pass", "cards": ["QS", "AS", "KS"]},
        {"type": "moon", "seat": 0},
        {"type": "moon", "scoring": "add_to_others"},
        {"type": "deal"},
        {"seat": 0, "card": "QS"},
        {"type": "jump", "seat": 0},
        {"type": "pass", "seat": 0, "cards": "QS AS KS"},
        {"type": "deal", "hands": "2C 3C"},
        {"type": "moon", "seat": 0, "scoring": "choice"},
        {"type": "moon", "seat": 0, "scoring": "auto"},
        [],
        "play 0 QS",
        None,
    ],
)
def test_malformed_action_json_is_refused(data: Any) -> None:
    with pytest.raises(InvalidActionError):
        action_from_json(data)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "play",
        "play 0",
        "play zero QS",
        "play 0 QS KS",
        "play -1 QS",
        "play 0 XX",
        "pass x QS AS KS",
        "pass",
        "moon 0 maybe",
        "moon 0 choice",
        "moon 0",
        "fly 0 QS",
        "PLAY 0 QS",
    ],
)
def test_malformed_action_text_is_refused(text: str) -> None:
    with pytest.raises(InvalidActionError):
        parse_action(text)


@pytest.mark.parametrize(
    "build",
    [
        lambda: RuleOptions.from_json({"num_players": 4, "jokers": True}),
        lambda: RuleOptions.from_json({"target_score": 75}),
        lambda: RuleOptions.standard(4, target_score=75),
        lambda: RuleOptions.standard(12),
        lambda: RuleOptions.standard(2),
        lambda: RuleOptions.standard(8),
        lambda: RuleOptions.standard(3, pass_cycle="LRAH"),
        lambda: RuleOptions.standard(5, pass_cycle=PassCycle.LRAH),
        lambda: RuleOptions.cancellation(8, omnibus=True),
        lambda: RuleOptions.cancellation(5),
        lambda: RuleOptions.cancellation(12),
        lambda: RuleOptions.cancellation(8, first_lead="lowest_club"),
        lambda: RuleOptions.from_json({"variant": "spades"}),
        lambda: RuleOptions.from_json({"pass_count": 4}),
        lambda: RuleOptions.from_json({"moon_value": 30}),
        lambda: RuleOptions.from_json({"moon_scoring": "sometimes"}),
        lambda: RuleOptions.from_json({"omnibus": True, "omnibus_bonus_card": "QS"}),
        lambda: RuleOptions.from_json({"omnibus_bonus_value": -7}),
        lambda: RuleOptions.from_json({"no_tricks_bonus": 5}),
        lambda: RuleOptions.from_json({"omnibus": "yes"}),
        lambda: RuleOptions.from_json({"target_score": "100"}),
        lambda: RuleOptions.from_json({"target_score": True}),
        lambda: RuleOptions.from_json({"num_players": 4.0}),
        lambda: RuleOptions.from_json("standard"),
        lambda: RuleOptions.from_json(None),
        lambda: RuleOptions.from_json([]),
        lambda: RuleOptions.preset("spades"),
        lambda: GameHeader(RuleOptions.standard(4), 4),
        lambda: GameHeader(RuleOptions.standard(4), -1),
        lambda: GameHeader.from_json({"first_dealer": 0}),
        lambda: GameHeader.from_json({"options": {}, "first_dealer": "0"}),
        lambda: GameHeader.from_json({"options": {}, "first_dealer": 5}),
        lambda: GameHeader.from_json([]),
        lambda: new_game(RuleOptions.standard(4), first_dealer=4),
    ],
)
def test_invalid_options_are_refused(build: Any) -> None:
    with pytest.raises(InvalidOptionsError):
        build()


def test_error_classes() -> None:
    for cls in (InvalidActionError, InvalidOptionsError, IllegalActionError):
        assert issubclass(cls, EngineError)
        assert issubclass(cls, ValueError)
    err = IllegalActionError("R8.4", "hearts may not be led")
    assert err.rule == "R8.4"
    assert "R8.4" in str(err)


# --- (c) illegal actions leave the state unchanged ----------------------------------------------


def _rng() -> random.Random:
    return random.Random(0)


def _absent(held: tuple[Card, ...]) -> list[Card]:
    """Cards of which `held` has no copy."""
    return [c for c in FULL_DECK if c not in held]


def illegal_actions(state: GameState, rng: random.Random) -> list[tuple[str, Action]]:
    """Actions that must be refused in `state`, each with what makes it wrong."""
    o = state.options
    n = o.num_players
    hand = state.hand
    out: list[tuple[str, Action]] = []
    if state.phase is Phase.GAME_OVER:
        assert hand is not None
        out.append(("deal after the game", random_deal(o, rng)))
        out.append(("play after the game", Play(0, FULL_DECK[0])))
        return out
    if state.phase is Phase.DEAL:
        good = random_deal(o, rng)
        hands = [list(h) for h in good.hands]
        hands[1].append(hands[0].pop())
        out.append(("deal with wrong hand sizes", Deal(hands, good.kitty)))
        hands = [list(h) for h in good.hands]
        hands[0][0] = next(c for c in hands[1] if c != hands[0][0])  # one card too many
        out.append(("deal that is not the pack", Deal(hands, good.kitty)))
        out.append(("deal with a wrong kitty", Deal(good.hands, [*good.kitty, FULL_DECK[0]])))
        out.append(("play before the deal", Play(0, FULL_DECK[0])))
        out.append(("pass before the deal", Pass(0, FULL_DECK[:3])))
        out.append(("moon choice when none pending", MoonChoice(0, ADD)))
        return out
    assert hand is not None
    out.append(("deal mid-hand", random_deal(o, rng)))
    out.append(("seat beyond the table", Play(n, FULL_DECK[0])))
    if state.phase is Phase.MOON_CHOICE:
        shooter = state.moon_shooter
        assert shooter is not None
        out.append(("moon choice by another seat", MoonChoice((shooter + 1) % n, ADD)))
        out.append(("play after the last trick", Play(shooter, FULL_DECK[0])))
        out.append(("pass after the last trick", Pass(shooter, FULL_DECK[:3])))
        return out
    out.append(("moon choice when none pending", MoonChoice(rng.randrange(n), SUBTRACT)))
    if state.phase is Phase.PASS:
        seat = rng.choice(to_act(state))
        held = hand.hands[seat]
        out.append(("pass of 2 cards", Pass(seat, rng.sample(held, 2))))
        out.append(("pass of 4 cards", Pass(seat, rng.sample(held, 4))))
        out.append(("pass of no cards", Pass(seat, [])))
        out.append(
            ("pass of a card not in hand", Pass(seat, [*held[:2], rng.choice(_absent(held))]))
        )
        single = [c for c, k in Counter(held).items() if k == 1]
        if len(single) >= 2:
            out.append(("pass of one card twice", Pass(seat, [single[0], single[0], single[1]])))
        out.append(("play during the pass", Play(seat, held[0])))
        committed = [s for s in range(n) if hand.passed[s] is not None]
        if committed:
            again = rng.choice(committed)
            out.append(("second pass", Pass(again, rng.sample(hand.hands[again], 3))))
        return out
    # Phase.PLAY
    seat = hand.to_play
    held = hand.hands[seat]
    absent = _absent(held)
    if absent:
        out.append(("card not in hand", Play(seat, rng.choice(absent))))
    legal = legal_cards(state, seat)
    wrong = sorted(set(held) - set(legal))
    if wrong:
        out.append(("illegal card of the hand", Play(seat, rng.choice(wrong))))
    other = rng.choice([s for s in range(n) if s != seat])
    own = hand.hands[other] or held  # on the last trick the others may have no card left
    out.append(("out of turn", Play(other, rng.choice(own))))
    if len(held) >= 3:
        out.append(("pass mid-hand", Pass(seat, held[:3])))
    return out


def assert_all_refused(state: GameState, attempts: list[tuple[str, Action]]) -> None:
    """Each action raises and `state` stays equal to a deep copy taken before (R14.2)."""
    before = copy.deepcopy(state)
    legal = set(legal_actions(state))
    for what, action in attempts:
        assert action not in legal, what
        with pytest.raises((IllegalActionError, InvalidActionError)):
            apply(state, action)
        assert state == before, f"{what}: the state changed"


@settings(deadline=None, max_examples=100, suppress_health_check=[HealthCheck.too_slow])
@given(table=st.sampled_from(sorted(TABLES)), seed=st.integers(0, 2**32 - 1))
def test_illegal_actions_leave_the_state_unchanged(table: str, seed: int) -> None:
    options = TABLES[table]
    rng = random.Random(seed)
    _, states = record_game(options, seed, max_actions=rng.randrange(1, 400))
    picks = rng.sample(range(len(states)), min(3, len(states)))
    for i in sorted({*picks, len(states) - 1}):
        state = states[i]
        hand = state.hand
        if state.phase is Phase.PASS and hand is not None and not any(hand.passed):
            # Commit one legal pass first, so that a second pass can be tried too.
            seat = to_act(state)[0]
            state = apply(state, Pass(seat, hand.hands[seat][:3]))
        assert_all_refused(state, illegal_actions(state, rng))
        # The refusals did not spoil the state: a legal action still applies.
        legal = legal_actions(state)
        if legal:
            apply(state, legal[0])


def test_illegal_actions_while_a_moon_choice_is_pending() -> None:
    """R12.5: only the shooter's choice is accepted; everything else is refused unchanged."""
    rng = random.Random(3)
    _, states = record_game(MOON_OPTIONS, seed=3, first_deal=moon_deal(rng), max_actions=53)
    state = states[-1]
    assert state.phase is Phase.MOON_CHOICE
    assert legal_actions(state) == (
        MoonChoice(MOON_SHOOTER, ADD),
        MoonChoice(MOON_SHOOTER, SUBTRACT),
    )
    assert_all_refused(state, illegal_actions(state, rng))


def test_illegal_actions_after_the_game_is_over() -> None:
    _, states = record_game(RuleOptions.standard(4), seed=11)
    state = states[-1]
    assert state.is_over
    assert_all_refused(state, illegal_actions(state, random.Random(11)))


def test_hold_hand_refuses_passes() -> None:
    """R4.5 / TV-07 (c): hand 4 of the 4-player cycle has no pass phase."""
    options = RuleOptions.standard(4, target_score=150)
    _, states = record_game(options, seed=5)
    hold = next(s for s in states if s.hand is not None and s.hand.number == 4)
    assert hold.phase is Phase.PLAY
    assert hold.hand is not None
    seat = hold.hand.to_play
    assert legal_cards(hold, seat) == cards("2C")
    assert_all_refused(hold, [("pass in a hold hand", Pass(seat, hold.hand.hands[seat][:3]))])
