from service.domain.commands import NewGame
from service.domain.fold import apply_all, fold
from service.domain.players import Greedy, play_turn
from service.domain.start import start_game


def test_a_whole_game_between_two_greedy_computers_ends():
    events = start_game(NewGame(seed=7, player_name="x", mode="computer_vs_computer"))
    state = fold(events)
    while not state.over:
        turn = play_turn(state, Greedy())
        events += turn
        state = apply_all(state, turn)
    assert state.empty_slots == 0
    assert fold(events) == state
