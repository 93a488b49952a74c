"""factory-boy factories for event streams, stored games and high scores.

- `EventStreamFactory.build(...)` -> `GameStream`: a legal stream of domain events,
  played by the greedy strategy for both seats (no database).
  ``turns=N`` plays N whole turns (default 2), ``finished=True`` plays to game over,
  ``before_end=True`` stops just before the command that ends the game (that
  command is in ``stream.pending``), ``small=True`` uses a 7 x 9 field. Streams are
  of ranked games (their seed secret until the end) unless ``ranked=False``.
- `GameFactory.create(services=..., ...)` -> `services.CreatedGame`: the same stream
  stored as a new game through the event store, with a token you know.
- `HighScoreFactory.create(services=..., ...)` -> `services.HighScore`.

Examples::

    game = GameFactory.create(services=svc, finished=True, small=True)
    svc.queries.get_state(game.game_id).over  # True
    stream = EventStreamFactory.build(mode="two_players", second_name="Ayşe", before_end=True)
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from typing import Any

import factory

from service.domain.commands import Command, NewGame
from service.domain.event_codec import event_to_json
from service.domain.events import Event, GameOver
from service.domain.fold import apply_all
from service.domain.rules import decide
from service.domain.start import start_game, start_state
from service.domain.state import GameState
from service.services import CreatedGame, HighScore, Services, security
from squares_testing.greedy import Greedy


@dataclass
class GameStream:
    events: list[Event]
    state: GameState
    # with before_end: the command that ends the game from `state`
    pending: Command | None = None
    commands: list[Command] = field(default_factory=list)

    def jsonl(self) -> str:
        """The stream as `Services.admin.export_game` writes it."""
        return "".join(event_to_json(e) + "\n" for e in self.events)


def build_stream(*, seed: int, player_name: str, difficulty: str = "moderate",
                 mode: str = "vs_computer", height: int = 19, width: int = 33,
                 second_name: str | None = None, second_level: str | None = None,
                 turns: int | None = 2, before_end: bool = False,
                 ranked: bool = True) -> GameStream:
    """Play a game with the greedy strategy for every seat, command by command: a
    ranked game (its seed the secret its state knows) unless not `ranked`."""
    if mode == "two_players" and second_name is None:
        second_name = "Ayşe Çelik"
    command = NewGame(
        seed=seed, player_name=player_name, difficulty=difficulty, mode=mode,
        height=height, width=width, second_name=second_name, second_level=second_level,
        ranked=ranked,
    )
    events, state = start_game(command), start_state(command)
    strategy = Greedy()
    commands: list[Command] = []
    turns_played = 0
    while not state.over and (turns is None or before_end or turns_played < turns):
        command = strategy.next_command(state)
        decided = decide(state, command)
        if before_end and any(isinstance(e, GameOver) for e in decided):
            return GameStream(events, state, command, commands)
        turn_before = state.turn
        state = apply_all(state, decided)
        events = events + decided
        commands.append(command)
        if state.turn != turn_before:
            turns_played += 1
    return GameStream(events, state, None, commands)


class EventStreamFactory(factory.Factory):
    class Meta:
        model = GameStream

    seed = factory.Sequence(lambda n: 1000 + n)
    player_name = factory.Faker("first_name", locale="tr_TR")
    difficulty = "moderate"
    mode = "vs_computer"
    height = 19
    width = 33
    second_name = None
    second_level = None
    turns = 2
    before_end = False
    ranked = True

    class Params:
        finished = factory.Trait(turns=None)
        small = factory.Trait(height=7, width=9)

    @classmethod
    def _build(cls, model_class: type, *args: Any, **kwargs: Any) -> GameStream:
        return build_stream(**kwargs)

    @classmethod
    def _create(cls, model_class: type, *args: Any, **kwargs: Any) -> GameStream:
        return build_stream(**kwargs)


def store_stream(services: Services, stream: GameStream,
                 game_id: str | None = None) -> CreatedGame:
    """Store `stream` as a new game with a fresh token (returned)."""
    token, salt, token_hash = security.new_token_hash()
    game_id = game_id or uuid.uuid4().hex
    secret = stream.state.secret_seed if stream.state.game.seed is None else None
    stored = services.store.add_game(game_id, stream.events, stream.state,
                                     token_hash=token_hash, token_salt=salt,
                                     seed_secret=secret)
    return CreatedGame(game_id, token, stored, stream.state.copy())


class GameFactory(EventStreamFactory):
    """A stored game: ``GameFactory.create(services=svc, finished=True)``."""

    class Meta:
        model = CreatedGame

    services = None
    game_id = None

    @classmethod
    def _build(cls, model_class: type, *args: Any, **kwargs: Any) -> Any:
        raise TypeError("GameFactory stores games: use create(services=...)")

    @classmethod
    def _create(cls, model_class: type, *args: Any, **kwargs: Any) -> CreatedGame:
        services = kwargs.pop("services")
        game_id = kwargs.pop("game_id")
        if services is None:
            raise TypeError("GameFactory.create needs services=...")
        return store_stream(services, build_stream(**kwargs), game_id)


class HighScoreFactory(factory.Factory):
    """A manual high score entry: ``HighScoreFactory.create(services=svc, score=99)``."""

    class Meta:
        model = HighScore

    services = None
    name = factory.Faker("name", locale="tr_TR")
    score = factory.Faker("pyint", min_value=0, max_value=400)
    difficulty = "manual"

    @classmethod
    def _build(cls, model_class: type, *args: Any, **kwargs: Any) -> Any:
        raise TypeError("HighScoreFactory stores entries: use create(services=...)")

    @classmethod
    def _create(cls, model_class: type, *args: Any, **kwargs: Any) -> HighScore:
        services = kwargs.pop("services")
        if services is None:
            raise TypeError("HighScoreFactory.create needs services=...")
        name = kwargs["name"][:32]
        return services.admin.add_high_score(name, kwargs["score"], kwargs["difficulty"])
