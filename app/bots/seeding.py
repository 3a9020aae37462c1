"""Seeds for the computer players' random choices.

A decision's generator is derived from stored game data only (the game's seed, the number of the
action being decided and the seat), never from hidden cards, so a decision is reproducible and a
replayed request gets the same one (BOT-06, DESIGN.md).
"""

from __future__ import annotations

import hashlib
import random


def decision_rng(game_seed: int, action_number: int, seat: int) -> random.Random:
    """The generator for `seat`'s decision at `action_number` of the game seeded `game_seed`."""
    digest = hashlib.sha256(f"hearts-bot:{game_seed}:{action_number}:{seat}".encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))
