"""The sampler's placing of hidden cards, compiled (Numba), with Python's own random stream.

`sampler.Sampler._assign` deals a layout's hidden cards with `random.Random.shuffle` and
`random.Random.choices`: pure Python, a call per card, a quarter of what Hard and Expert spend on
a decision. `assign_many` places the cards of many layouts in one call, drawing the very numbers
those methods would draw: it runs the Mersenne Twister of CPython's `random` module on a copy of
the generator's state (`random.Random.getstate`) and hands the state back, so the layouts, and
every number the generator gives afterwards, are the same to the bit as the Python version's
(tested). Each method is mirrored step for step: `shuffle` (`_randbelow` by `getrandbits` with
rejection), the stable sort of the cards, most constrained first, and `choices` with weights
(`random()` of 53 bits, `bisect_right` on the running sums).

A layout that needs cards moved along a chain of places to make room (`sampler._augment`, rare)
is left to the Python version: `assign_many` stops before it and says how far it got.
"""

from __future__ import annotations

import numpy as np
from numba import njit

_N = 624
_M = 397
_MATRIX_A = 0x9908B0DF
_UPPER = 0x80000000
_LOWER = 0x7FFFFFFF
_MASK32 = 0xFFFFFFFF


@njit(cache=True)
def _next_word(mt: np.ndarray, index: np.ndarray) -> int:  # pragma: no cover - compiled
    """CPython's `genrand_uint32`: the next 32-bit output; `index` is a one-element array."""
    if index[0] >= _N:
        for kk in range(_N):
            y = (mt[kk] & _UPPER) | (mt[(kk + 1) % _N] & _LOWER)
            value = mt[(kk + _M) % _N] ^ (y >> 1)
            if y & 1:
                value ^= _MATRIX_A
            mt[kk] = value
        index[0] = 0
    y = mt[index[0]]
    index[0] += 1
    y ^= y >> 11
    y ^= (y << 7) & 0x9D2C5680
    y ^= (y << 15) & 0xEFC60000
    y ^= y >> 18
    return int(y & _MASK32)


@njit(cache=True)
def _below(mt: np.ndarray, index: np.ndarray, n: int) -> int:  # pragma: no cover - compiled
    """`Random._randbelow_with_getrandbits(n)`: `getrandbits(n.bit_length())` until below n."""
    k = 0
    while (1 << k) <= n:
        k += 1
    while True:
        r = _next_word(mt, index) >> (32 - k)
        if r < n:
            return r


@njit(cache=True)
def _random(mt: np.ndarray, index: np.ndarray) -> float:  # pragma: no cover - compiled
    """`Random.random()`: 53 random bits from two words."""
    a = _next_word(mt, index) >> 5
    b = _next_word(mt, index) >> 6
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0)


@njit(cache=True)
def assign_many(
    mt: np.ndarray,
    index: np.ndarray,
    count: int,
    choices: np.ndarray,
    eligible: np.ndarray,
    capacity: np.ndarray,
    constrained: int,
    out: np.ndarray,
) -> int:  # pragma: no cover - compiled; held to `sampler.Sampler._assign`
    """Place the hidden cards of up to `count` layouts, as `Sampler._assign` would one after
    another: `out[d, p]` is the place of card `p` (in the sampler's card order) in layout `d`.

    `mt` (624 words, as int64) and `index` (one element) are the generator's state, advanced in
    place.
    `choices[p]` is how many places accept card `p`, `eligible[p, j]` whether place `j` does,
    `capacity[j]` the room of place `j`, and `constrained` the number of cards some place
    refuses. Returns the layouts placed: fewer than `count` when one needs cards moved to make
    room, the state then being that before it."""
    cards = choices.shape[0]
    places = capacity.shape[0]
    order = np.empty(cards, dtype=np.int64)
    ranked = np.empty(cards, dtype=np.int64)
    room = np.empty(places, dtype=np.int64)
    open_places = np.empty(places, dtype=np.int64)
    running = np.empty(places, dtype=np.int64)
    saved = np.empty(_N, dtype=mt.dtype)
    top = 0
    for c in range(cards):
        top = max(top, choices[c])
    for d in range(count):
        saved[:] = mt
        saved_index = index[0]
        for c in range(cards):
            order[c] = c
        for i in range(cards - 1, 0, -1):  # `shuffle`
            j = _below(mt, index, i + 1)
            order[i], order[j] = order[j], order[i]
        filled = 0  # a stable sort by the number of places that accept the card
        for key in range(top + 1):
            for c in range(cards):
                if choices[order[c]] == key:
                    ranked[filled] = order[c]
                    filled += 1
        for j in range(places):
            room[j] = capacity[j]
        stuck = False
        for c in range(constrained):
            card = ranked[c]
            n_open = 0
            total = 0
            for j in range(places):
                if eligible[card, j] and room[j] > 0:
                    open_places[n_open] = j
                    total += room[j]
                    running[n_open] = total
                    n_open += 1
            if n_open == 0:
                stuck = True
                break
            x = _random(mt, index) * float(total)  # `choices(..., weights=room)`
            lo = 0
            hi = n_open - 1
            while lo < hi:  # bisect_right(running, x, 0, n_open - 1)
                middle = (lo + hi) // 2
                if x < running[middle]:
                    hi = middle
                else:
                    lo = middle + 1
            place = open_places[lo]
            out[d, card] = place
            room[place] -= 1
        if stuck:
            mt[:] = saved
            index[0] = saved_index
            return d
        start = constrained
        for j in range(places):  # the rest, cut into the free room in place order
            for _ in range(room[j]):
                out[d, ranked[start]] = j
                start += 1
    return count
