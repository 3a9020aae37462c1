from app.engine import RuleOptions
from tests.engine.helpers import play_random_game


def test_random_standard_game_ends_with_a_winner() -> None:
    state = play_random_game(RuleOptions.standard(), seed=1)
    assert state.winners
    assert max(state.totals) >= 100
