from service.domain.commands import NewGame
from service.domain.fold import fold
from squares_testing.greedy import Greedy
from squares_testing.play import play_out


def test_a_whole_game_between_two_greedy_computers_ends():
    events, state = play_out(NewGame(seed=7, player_name="x", mode="computer_vs_computer"),
                             Greedy())
    assert state.empty_slots == 0
    assert fold(events) == state
