"""Shared by the tests of RULES T (test_rules_T1_T3, test_rules_T4_T8): position A,
and `refused`, which checks that a command is refused and changes nothing.

Position A is on a 9 x 9 field (boxes at odd x, y in 1..7), where every inner slot
is drawn except five:

    (2, 1) forms (1, 1)             (4, 1) forms nothing yet
    (6, 1) forms (7, 1)             (1, 4) forms (1, 3) and (1, 5)
    (3, 6) forms (3, 5) and (3, 7)

Drawing (2, 1) lets (4, 1) form (3, 1), which lets (6, 1) form (5, 1) and (7, 1).
"""

import pytest

from service.domain.commands import RuleViolation
from service.domain.rules import decide

from .helpers import Game

A = [(2, 1), (4, 1), (6, 1), (3, 6), (1, 4)]


def game_a(**kwargs) -> Game:
    return Game.at(A, size=(9, 9), **kwargs)


def refused(game: Game, command) -> str:
    before = game.state.copy()
    with pytest.raises(RuleViolation) as info:
        decide(game.state, command)
    assert game.state == before  # nothing changed, nothing to store
    return info.value.code
