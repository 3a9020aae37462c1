"""Use cases: start a game, take the player's action, advance the computer players, resume."""
