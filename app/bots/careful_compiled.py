"""The careful player's card in every row of a simulator batch, compiled (Numba), row by row.

`rollout.careful_policy_vectorized` plays the careful Medium player's card in every row at once
with NumPy: dozens of array operations per step, each over every row, so a row costs a couple of
microseconds a card. This is the same policy written one row at a time and compiled to machine
code, and `rollout.careful_policy` runs it: the same knowledge, the same modes and the same
choices, card for card (a test holds it to the NumPy version at every step of play-outs at every
table), several times faster. The imagined play-outs of Hard and Expert and the replay of the
plays seen (Expert's inference) spend most of their time in this policy.

Every helper mirrors a NumPy idiom of `rollout`: `_first_max` is the first card of a mask with the
largest key (`argmax` over `where(mask, key, NEG)`), `_lowest` the first card of a mask (0 if
none), `_highest` the last (51 if none). The arithmetic on keys follows the same operations in
the same order, so the floating-point keys, and their ties, are the same.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from app.bots.medium import (
    SHOOT_LOSERS,
    SHOOT_LOSERS_MOON_HAND,
    SHOOT_MIN_CARDS,
    SPADE_LEAD_WITH_QUEEN,
    STOP_SHARE,
)
from app.bots.simulator import CLUBS, DIAMONDS, HEARTS, QS, RANK, SPADES, SUIT

NEG = -1e9
_RANK = RANK.copy()
_SUIT = SUIT.copy()
_RANKF = RANK.astype(np.float64)
_SPADES = SPADES
_HEARTS = HEARTS
_QS = QS
_SUITS_WITH_ACE = np.array([CLUBS, DIAMONDS, SPADES], dtype=np.int64)


@njit(cache=True)
def _first_max(key: np.ndarray, mask: np.ndarray) -> int:  # pragma: no cover - compiled
    best = 0
    best_value = -np.inf
    for c in range(52):
        value = key[c] if mask[c] else NEG
        if value > best_value:
            best_value = value
            best = c
    return best


@njit(cache=True)
def _first_min(key: np.ndarray, mask: np.ndarray) -> int:  # pragma: no cover - compiled
    best = 0
    best_value = -np.inf
    for c in range(52):
        value = -key[c] if mask[c] else NEG
        if value > best_value:
            best_value = value
            best = c
    return best


@njit(cache=True)
def _lowest(mask: np.ndarray) -> int:  # pragma: no cover - compiled
    for c in range(52):
        if mask[c]:
            return c
    return 0


@njit(cache=True)
def _highest(mask: np.ndarray) -> int:  # pragma: no cover - compiled
    for c in range(51, -1, -1):
        if mask[c]:
            return c
    return 51


@njit(cache=True)
def _any(mask: np.ndarray) -> bool:  # pragma: no cover - compiled
    for c in range(mask.shape[0]):  # noqa: SIM110 - a plain loop compiles to a plain loop
        if mask[c]:
            return True
    return False


@njit(cache=True)
def careful_cards(
    hands: np.ndarray,
    leader: np.ndarray,
    k: int,
    plays: np.ndarray,
    seats: np.ndarray,
    voids: np.ndarray,
    penalty: np.ndarray,
    points: np.ndarray,
    pot_points: np.ndarray,
    pot_penalty: np.ndarray,
    bonus_taken: np.ndarray,
    totals: np.ndarray,
    legal: np.ndarray,
    card_points: np.ndarray,
    is_penalty: np.ndarray,
    copies: int,
    bonus: int,
    penalty_points: int,
    target: int,
    first_clean: bool,
    wanted: np.ndarray,
) -> np.ndarray:  # pragma: no cover - compiled; held to `rollout.careful_policy_vectorized`
    """The careful player's card in every row where `wanted` (see `rollout` for the policy
    itself); −1 in the other rows."""
    m = hands.shape[0]
    n = hands.shape[1]
    out = np.empty(m, dtype=np.int64)
    own = np.empty(52, dtype=np.int64)
    unseen = np.empty(52, dtype=np.int64)
    below = np.empty(52, dtype=np.int64)
    above = np.empty(52, dtype=np.int64)
    sure = np.empty(52, dtype=np.bool_)
    own_suit = np.empty(4, dtype=np.int64)
    key = np.empty(52, dtype=np.float64)
    mask = np.empty(52, dtype=np.bool_)
    mask2 = np.empty(52, dtype=np.bool_)
    wins = np.empty(52, dtype=np.bool_)
    losers = np.empty(52, dtype=np.bool_)
    sure_wins = np.empty(52, dtype=np.bool_)
    later = np.empty(n, dtype=np.bool_)
    for i in range(m):
        if not wanted[i]:
            out[i] = -1
            continue
        seat = (leader[i] + k) % n
        # --- what the seat knows (`rollout._Facts`) ---
        for c in range(52):
            total = 0
            for s in range(n):
                total += hands[i, s, c]
            own[c] = hands[i, seat, c]
            unseen[c] = total - own[c]
        for suit in range(4):
            running = 0
            for j in range(13):
                c = suit * 13 + j
                below[c] = running
                running += unseen[c]
            for j in range(13):
                c = suit * 13 + j
                above[c] = running - below[c] - unseen[c]
            count = 0
            for j in range(13):
                count += own[suit * 13 + j]
            own_suit[suit] = count
        for c in range(52):
            sure[c] = above[c] == 0 and unseen[c] == 0
        queen_out = unseen[_QS] > 0
        has_queen = own[_QS] > 0
        top_total = totals[i, 0]
        for s in range(1, n):
            top_total = max(top_total, totals[i, s])
        late = top_total + penalty_points >= target
        # stopping a moon (`rollout._stop_mode`)
        t = 0
        for s in range(1, n):
            if penalty[i, s] > penalty[i, t]:
                t = s
        stop = False
        threat = -1
        if penalty[i, t] >= 3 and t != seat:
            holders = 0
            for s in range(n):
                if penalty[i, s] > 0:
                    holders += 1
            taken = points[i, t]
            if bonus >= 0 and bonus_taken[i, t]:
                taken = taken - card_points[bonus]
            serious = late or taken >= STOP_SHARE * penalty_points
            if holders == 1 and serious:
                stop = True
                threat = t
        # shooting it (`rollout._shoot_mode`, `_moon_hand`)
        shoot = False
        if copies == 1 and not stop:
            mine = penalty[i, seat]
            rest = 0
            for s in range(n):
                rest += penalty[i, s]
            others = rest - mine > 0
            hopeful = not others and (mine > 0 or own_suit[_HEARTS] >= 6)
            if hopeful:
                loser_count = 0
                for c in range(52):
                    if own[c] > 0 and above[c] > 0:
                        loser_count += 1
                top = 0
                for c in range(52):
                    if _SUIT[c] == _HEARTS and _RANK[c] >= 12:
                        top += own[c]
                moon = (not late) and own_suit[_HEARTS] >= 6 and top >= 3
                for suit in _SUITS_WITH_ACE:
                    moon = moon and (own_suit[suit] <= 1 or own[suit * 13 + 12] > 0)
                normal = (not late) and (
                    (mine >= SHOOT_MIN_CARDS and loser_count <= SHOOT_LOSERS)
                    or (moon and loser_count <= SHOOT_LOSERS_MOON_HAND)
                )
                shoot = (mine > 0 or moon) if loser_count == 0 else normal
        row_legal = legal[i]
        if k == 0:
            out[i] = _lead(
                row_legal,
                seat,
                n,
                voids[i],
                below,
                above,
                sure,
                own_suit,
                queen_out,
                has_queen,
                bonus,
                stop,
                shoot,
                first_clean,
                key,
                mask,
                mask2,
            )
            continue
        led = _SUIT[plays[i, 0]]
        following = False
        for c in range(52):
            if row_legal[c] and _SUIT[c] == led:
                following = True
                break
        # the trick so far (`rollout._trick_state`)
        win = 0
        winner = -1
        for j in range(k):
            card = plays[i, j]
            if _SUIT[card] != led:
                continue
            if copies == 2:
                same = 0
                for j2 in range(k):
                    if plays[i, j2] == card:
                        same += 1
                if same != 1:
                    continue
            if _RANK[card] > win:
                win = _RANK[card]
                winner = seats[i, j]
        for s in range(n):
            later[s] = False
        for j in range(k + 1, n):
            later[(leader[i] + j) % n] = True
        tm = max(threat, 0)
        threat_may_win = threat >= 0 and (winner == threat or (later[tm] and not voids[i, tm, led]))
        if following:
            out[i] = _follow(
                i,
                row_legal,
                k,
                n,
                plays,
                pot_points[i],
                pot_penalty[i],
                led,
                win,
                later,
                voids[i],
                unseen,
                above,
                queen_out,
                card_points,
                is_penalty,
                copies,
                bonus,
                stop,
                shoot,
                threat_may_win,
                first_clean,
                wins,
                losers,
                sure_wins,
                mask,
                mask2,
            )
        else:
            out[i] = _discard(
                row_legal,
                below,
                own_suit,
                unseen,
                queen_out,
                sure,
                is_penalty,
                bonus,
                stop,
                shoot,
                threat_may_win,
                key,
                mask,
            )
    return out


@njit(cache=True)
def _lead(
    legal: np.ndarray,
    seat: int,
    n: int,
    voids: np.ndarray,
    below: np.ndarray,
    above: np.ndarray,
    sure: np.ndarray,
    own_suit: np.ndarray,
    queen_out: bool,
    has_queen: bool,
    bonus: int,
    stop: bool,
    shoot: bool,
    first_clean: bool,
    key: np.ndarray,
    sure_hearts: np.ndarray,
    low: np.ndarray,
) -> int:  # pragma: no cover - compiled
    """`rollout._lead` for one row."""
    any_opp_void = np.zeros(4, dtype=np.bool_)
    no_followers = np.ones(4, dtype=np.bool_)
    for s in range(n):
        for suit in range(4):
            if s != seat and voids[s, suit]:
                any_opp_void[suit] = True
            if not (voids[s, suit] or s == seat):
                no_followers[suit] = False
    for c in range(52):
        suit = _SUIT[c]
        risk = float(below[c]) - above[c]
        if no_followers[suit] or sure[c]:
            risk += 20.0
        elif any_opp_void[suit]:
            risk += 3.0 + float(below[c])
        else:
            risk += 0.0
        risk += SPADE_LEAD_WITH_QUEEN if (suit == _SPADES and has_queen) else 0.0
        if c == _QS:
            risk += 60.0
        risk += 40.0 if (suit == _SPADES and _RANK[c] > 12 and queen_out) else 0.0
        if bonus >= 0 and c == bonus:
            risk += 30.0
        risk -= 1.0 if (suit == _HEARTS and above[c] > 0) else 0.0
        risk -= 0.5 * max(0, 3 - own_suit[suit])
        key[c] = risk * 64.0 + _RANKF[c]
    choice = _first_min(key, legal)
    if bonus >= 0:
        bonus_suit = _SUIT[bonus]
        if legal[bonus] and sure[bonus] and not (queen_out and any_opp_void[bonus_suit]):
            choice = bonus
    for c in range(52):
        low[c] = legal[c] and _SUIT[c] == _SPADES and _RANK[c] < 12
    lowest = _lowest(low)
    smoke = queen_out and not has_queen and _any(low) and not no_followers[_SPADES]
    if smoke and above[lowest] > 0:
        choice = lowest
    if first_clean:
        choice = _first_max(_RANKF, legal)
    for c in range(52):
        sure_hearts[c] = legal[c] and sure[c] and _SUIT[c] == _HEARTS
    if stop and _any(sure_hearts):
        choice = _highest(sure_hearts)
    if shoot:
        if _any(sure_hearts):
            choice = _highest(sure_hearts)
        else:
            any_sure = False
            for c in range(52):
                low[c] = legal[c] and sure[c]
                any_sure = any_sure or low[c]
            if any_sure:
                for c in range(52):
                    key[c] = _RANKF[c] + (0.0 if c == _QS else 100.0)
                choice = _first_max(key, low)
            else:
                choice = _first_max(_RANKF, legal)
    return choice


@njit(cache=True)
def _follow(
    i: int,
    legal: np.ndarray,
    k: int,
    n: int,
    plays: np.ndarray,
    pot_points: int,
    pot_penalty: int,
    led: int,
    win: int,
    later: np.ndarray,
    voids: np.ndarray,
    unseen: np.ndarray,
    above: np.ndarray,
    queen_out: bool,
    card_points: np.ndarray,
    is_penalty: np.ndarray,
    copies: int,
    bonus: int,
    stop: bool,
    shoot: bool,
    threat_may_win: bool,
    first_clean: bool,
    wins: np.ndarray,
    losers: np.ndarray,
    sure_wins: np.ndarray,
    kept: np.ndarray,
    safe: np.ndarray,
) -> int:  # pragma: no cover - compiled
    """`rollout._follow` for one row (every legal card is of the led suit)."""
    for c in range(52):
        wins[c] = legal[c] and _RANK[c] > win
    if copies == 2:
        for j in range(k):
            wins[plays[i, j]] = False
    any_wins = False
    any_losers = False
    for c in range(52):
        losers[c] = legal[c] and not wins[c]
        any_wins = any_wins or wins[c]
        any_losers = any_losers or losers[c]
    value = pot_points
    for j in range(k):
        value += card_points[plays[i, j]]
    may_follow = False
    dump = False
    any_later = False
    for s in range(n):
        if later[s]:
            any_later = True
            if voids[s, led]:
                dump = True
            else:
                may_follow = True
    if led == _SPADES and queen_out and any_later:
        dump = True
    for c in range(52):
        sure_wins[c] = wins[c] and not (may_follow and (above[c] > 0 or unseen[c] > 0))
    any_kept = False
    for c in range(52):
        kept[c] = losers[c] and not (bonus >= 0 and c == bonus)
        any_kept = any_kept or kept[c]
    highest_loser = _QS if losers[_QS] else _highest(kept if any_kept else losers)
    any_safe = False
    for c in range(52):
        safe[c] = wins[c] and c != _QS
        any_safe = any_safe or safe[c]
    if not any_safe:
        for c in range(52):
            safe[c] = wins[c]
    if k == n - 1:
        any_clean = False
        best_clean = 51
        for c in range(52):
            if wins[c] and value + card_points[c] <= 0:
                any_clean = True
                best_clean = c
        if bonus >= 0 and wins[bonus] and value + card_points[bonus] <= 0:
            best_clean = bonus
        if any_clean:
            choice = best_clean
        elif any_losers:
            choice = highest_loser
        else:
            choice = _highest(safe)
    else:
        lowest = _lowest(safe)
        beatable = may_follow and (above[lowest] > 0 or unseen[lowest] > 0)
        ours = not dump and (not beatable or value <= 0)
        if any_losers:
            choice = highest_loser
        elif ours:
            choice = _highest(safe)
        else:
            choice = lowest
        if bonus >= 0:
            on_trick = False
            for j in range(k):
                if plays[i, j] == bonus:
                    on_trick = True
            if on_trick and _any(sure_wins):
                choice = _lowest(sure_wins)
    if first_clean:
        open_trick = led != _SPADES
        if bonus >= 0:
            open_trick = open_trick and not legal[bonus]
        if open_trick:
            choice = _highest(legal)
    if stop:
        penalty_on = pot_penalty > 0
        for j in range(k):
            if is_penalty[plays[i, j]]:
                penalty_on = True
        if penalty_on and threat_may_win and any_wins:
            choice = _highest(wins)
    if shoot:
        if not any_wins:
            choice = _lowest(legal)
        elif _any(sure_wins):
            choice = _lowest(sure_wins)
        else:
            choice = _highest(wins)
    return choice


@njit(cache=True)
def _discard(
    legal: np.ndarray,
    below: np.ndarray,
    own_suit: np.ndarray,
    unseen: np.ndarray,
    queen_out: bool,
    sure: np.ndarray,
    is_penalty: np.ndarray,
    bonus: int,
    stop: bool,
    shoot: bool,
    threat_may_win: bool,
    prio: np.ndarray,
    clean: np.ndarray,
) -> int:  # pragma: no cover - compiled
    """`rollout._discard` for one row (void in the led suit)."""
    for c in range(52):
        rank = _RANKF[c]
        suit = _SUIT[c]
        p = 2.0 * rank if below[c] > 0 else rank
        p = p + (3.0 if own_suit[suit] <= 2 else 0.0)
        if bonus >= 0:
            capture = _SUIT[bonus] == suit and _RANK[bonus] < _RANK[c]
            p = p - (10.0 if (capture and unseen[bonus] > 0) else 0.0)
        prio[c] = p
    if bonus >= 0:
        prio[bonus] = -1000.0
    for c in range(52):
        if _SUIT[c] == _HEARTS:
            prio[c] = 20.0 + 2.0 * _RANKF[c]
        if _SUIT[c] == _SPADES and _RANK[c] > 12 and queen_out:
            prio[c] = 500.0 + _RANKF[c]
    prio[_QS] = 1000.0
    choice = _first_max(prio, legal)
    if stop:
        any_clean = False
        for c in range(52):
            clean[c] = legal[c] and not is_penalty[c]
            any_clean = any_clean or clean[c]
        if threat_may_win and any_clean:
            choice = _first_max(prio, clean)
    if shoot:
        for c in range(52):
            prio[c] = _RANKF[c] + (100.0 if is_penalty[c] else 0.0) + (30.0 if sure[c] else 0.0)
        choice = _first_min(prio, legal)
    return choice
