"""Playing a game to its end: the one loop, and its drivers at each layer.

`until_over(state, step)` is the loop: `step` until the game is over (a `GameState`'s
``over``, or a JSON state's ``"over"``), bounded. The drivers:

- the domain (no storage): `play_out` plays a `NewGame` (or a state) to its end a
  whole turn at a time, each seat by a strategy (default: its own computer level),
  and returns every event and the final state;
- the services: `finish_computer_game` plays the computer's turns of a stored
  computer-vs-computer game, `computer_game` creates one and finishes it,
  `play_unassisted` plays a stored game's human seats by a strategy (no hint asked);
- HTTP (a Flask test client, `ApiClient`, or anything that can `Send`): `play_hints`
  plays the hint endpoint's moves (``expected_version`` set; the game is then
  assisted, RULES E1), `play_own_moves` plays without a hint (a ranked game stays
  ranked), `play_computer_turns` asks ``POST .../computer-turn`` until the end.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

if TYPE_CHECKING:
    from service.domain.commands import NewGame
    from service.domain.events import Event
    from service.domain.players import Strategy
    from service.domain.state import GameState
    from service.services import Services
    from squares_testing.client import ApiClient

S = TypeVar("S")
MAX_STEPS = 10_000


def is_over(state: Any) -> bool:
    """A `GameState`'s ``over``, or a JSON state's ``"over"``."""
    return bool(state["over"] if isinstance(state, Mapping) else state.over)


def until_over(state: S, step: Callable[[S], S], *, until: Callable[[S], bool] | None = None,
               max_steps: int = MAX_STEPS) -> S:
    """``state = step(state)`` until the game is over (or `until(state)`); the last
    state. AssertionError when it has not ended after `max_steps` steps."""
    for _ in range(max_steps):
        if is_over(state) or (until is not None and until(state)):
            return state
        state = step(state)
    assert is_over(state) or (until is not None and until(state)), \
        f"the game did not end within {max_steps} steps"
    return state


# -- the domain ---------------------------------------------------------------------


StrategyFor = Callable[["GameState"], "Strategy"]


def own_level(state: GameState) -> Strategy:
    """The computer of the seat to move at its own level (a human seat: the game's)."""
    from service.domain import ai

    return ai.strategy_for(state.seat_info(state.turn).level or state.game.difficulty)


def new_game(command: NewGame) -> tuple[list[Event], GameState]:
    """The events `command` starts a game with, and its state (knowing the seed of a
    ranked game, as the server does)."""
    from service.domain.fold import fold
    from service.domain.start import start_game

    events = start_game(command)
    state = fold(events)
    if state.public_seed is None:
        state.know_secret_seed(str(command.seed))
    return events, state


def play_out(start: NewGame | GameState, strategy: Strategy | StrategyFor = own_level, *,
             on_turn: Callable[[GameState, list[Event]], object] | None = None,
             until: Callable[[GameState], bool] | None = None,
             ) -> tuple[list[Event], GameState]:
    """Play a new game (`start` a `NewGame`: its events included) or the game of a
    state to its end, a whole turn at a time, each by `strategy` (a strategy, or a
    function of the state that picks one). `on_turn(state, events)` sees each turn
    before it is applied; `until(state)` may stop the game early. Returns the events
    and the last state."""
    from service.domain.fold import apply_all
    from service.domain.players import play_turn
    from service.domain.state import GameState

    events, state = ([], start) if isinstance(start, GameState) else new_game(start)
    pick: StrategyFor = (strategy if not hasattr(strategy, "next_command")
                         else (lambda _state: strategy))  # type: ignore[assignment,return-value]

    def step(state: GameState) -> GameState:
        turn = play_turn(state, pick(state))
        if on_turn is not None:
            on_turn(state, turn)
        events.extend(turn)
        return apply_all(state, turn)

    return events, until_over(state, step, until=until)


def turn_starts(start: NewGame | GameState, strategy: Strategy | StrategyFor = own_level,
                *, most: int | None = None) -> list[GameState]:
    """The state at the start of every turn of the game `play_out` plays (the first
    `most` of them)."""
    found: list[GameState] = []
    play_out(start, strategy, on_turn=lambda state, _turn: found.append(state),
             until=None if most is None else (lambda _state: len(found) >= most))
    return found


# -- the services ---------------------------------------------------------------------


def finish_computer_game(services: Services, game_id: str,
                         state: GameState | None = None) -> GameState:
    """Play the computer's turns of a stored computer-vs-computer game to its end."""
    return until_over(services.queries.get_state(game_id) if state is None else state,
                      lambda _state: services.play.play_computer_turn(game_id).state)


def computer_game(services: Services, seed: int | None = None, *, height: int = 7,
                  width: int = 9, level1: str = "easy", level2: str = "easy") -> str:
    """A stored computer_vs_computer game played to its end (7 x 9, easy against easy
    unless told; ``seed=None``: a ranked one); its id."""
    created = services.play.create_game(player_name="sim", difficulty=level1, second_level=level2,
                                   mode="computer_vs_computer", seed=seed, height=height,
                                   width=width)
    finish_computer_game(services, created.game_id, created.state)
    return created.game_id


def play_unassisted(services: Services, game_id: str, token: str | Mapping[int, str],
                    state: GameState | None = None, strategy: Strategy | None = None,
                    ) -> GameState:
    """Play a stored game's human seats by `strategy` (default `Greedy`) through the
    services, the computer answering, until it is over; no hint is asked, so a ranked
    game stays ranked. `token`: the game's, or each seat's (an online game). The last
    state."""
    from service.domain.commands import PlaceLine
    from squares_testing.greedy import Greedy

    chooser = strategy or Greedy()

    def step(state: GameState) -> GameState:
        command = chooser.next_command(state)
        mover = token if isinstance(token, str) else token[state.turn]
        if isinstance(command, PlaceLine):
            return services.play.place_line(game_id, mover, command.x, command.y).state
        return services.play.advance(game_id, mover).state

    return until_over(services.queries.get_state(game_id) if state is None else state, step)


# -- HTTP ---------------------------------------------------------------------------------


class Send(Protocol):
    def __call__(self, method: str, path: str, body: Any = None,
                 token: str | None = None) -> tuple[int, Any]:
        """One JSON request; (its status, its decoded JSON body)."""
        ...


def flask_send(client: Any) -> Send:
    """`Send` through a Flask test client."""
    def send(method: str, path: str, body: Any = None,
             token: str | None = None) -> tuple[int, Any]:
        headers = {} if token is None else {"Authorization": f"Bearer {token}"}
        response = client.open(path, method=method, json=body, headers=headers)
        return response.status_code, response.get_json(silent=True)

    return send


def api_send(client: ApiClient) -> Send:
    """`Send` through an `ApiClient` (ConnectionFailed when there is no answer)."""
    def send(method: str, path: str, body: Any = None,
             token: str | None = None) -> tuple[int, Any]:
        reply = client.call(method, path, body, token=token)
        return reply.status, reply.data

    return send


def _ok(answer: tuple[int, Any], what: str) -> Any:
    status, data = answer
    assert status == 200, (what, status, data)
    return data


def hint_move(send: Send, game_id: str, token: str | None,
              state: Mapping[str, Any]) -> dict[str, Any]:
    """Play the hint endpoint's move for the seat to move (``expected_version`` set);
    the move's answer (its ``events`` and ``state``)."""
    base = f"/api/games/{game_id}"
    hint = _ok(send("GET", f"{base}/hint", None, token), "hint")
    body: dict[str, Any] = {"expected_version": state["version"]}
    if hint["action"] == "line":
        body.update(x=hint["x"], y=hint["y"])
        return dict(_ok(send("POST", f"{base}/lines", body, token), "line"))
    return dict(_ok(send("POST", f"{base}/advance", body, token), "advance"))


def own_move(send: Send, game_id: str, token: str | None,
             state: Mapping[str, Any]) -> dict[str, Any]:
    """A move chosen from the state alone, no hint asked (``expected_version`` set):
    stages 1 and 3 end at once, stage 2 draws the first free line. The move's answer."""
    base = f"/api/games/{game_id}"
    body: dict[str, Any] = {"expected_version": state["version"]}
    legal = state["legal"]
    if state["stage"] == 2 and legal["lines"]:
        x, y = legal["lines"][0]
        return dict(_ok(send("POST", f"{base}/lines", {**body, "x": x, "y": y}, token),
                        "line"))
    return dict(_ok(send("POST", f"{base}/advance", body, token), "advance"))


def play_own_moves(send: Send, game_id: str, token: str | Mapping[int, str] | None,
                   state: Mapping[str, Any] | None = None, *, rounds: int | None = None,
                   max_steps: int = MAX_STEPS) -> dict[str, Any]:
    """`play_hints` without the hints (`own_move`): the game stays unassisted, so a
    ranked game enters its high score table. The last state."""
    def token_for(state: Mapping[str, Any]) -> str | None:
        return token.get(state["turn"]) if isinstance(token, Mapping) else token

    def read() -> dict[str, Any]:
        return dict(_ok(send("GET", f"/api/games/{game_id}", None, None), "game")["state"])

    return until_over(read() if state is None else dict(state),
                      lambda s: own_move(send, game_id, token_for(s), s)["state"],
                      until=None if rounds is None else (lambda s: s["round"] > rounds),
                      max_steps=max_steps)


def play_hints(send: Send, game_id: str, token: str | Mapping[int, str] | None,
               state: Mapping[str, Any] | None = None, *, rounds: int | None = None,
               reread: bool = False, max_steps: int = MAX_STEPS) -> dict[str, Any]:
    """Play the hints (the computer answers on its own) until the game is over or,
    with `rounds`, round `rounds` + 1 begins; the last state. `token`: the game's, or
    one per seat (an online game). Without a `state`, and after every move with
    `reread`, the game is read (``GET``) as a page would read it, which also plays a
    computer turn the server still owes; else the move's answer is the next state."""
    def token_for(state: Mapping[str, Any]) -> str | None:
        return token.get(state["turn"]) if isinstance(token, Mapping) else token

    def read() -> dict[str, Any]:
        return dict(_ok(send("GET", f"/api/games/{game_id}", None, None), "game")["state"])

    def step(state: dict[str, Any]) -> dict[str, Any]:
        moved = hint_move(send, game_id, token_for(state), state)["state"]
        return read() if reread else moved

    return until_over(read() if state is None else dict(state), step,
                      until=None if rounds is None else (lambda s: s["round"] > rounds),
                      max_steps=max_steps)


def play_computer_turns(send: Send, game_id: str, token: str,
                        state: Mapping[str, Any]) -> dict[str, Any]:
    """``POST .../computer-turn`` until a computer-vs-computer game is over."""
    path = f"/api/games/{game_id}/computer-turn"
    return until_over(dict(state), lambda _s: _ok(send("POST", path, None, token),
                                                  "computer turn")["state"])
