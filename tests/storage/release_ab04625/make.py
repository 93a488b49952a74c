"""Makes this folder's fixture with the code of release ab04625 (migrations 0001-0012).

Run it with that release's own code (not this one's); the project's environment has
what it needs, e.g.::

    git worktree add /tmp/rel_ab04625 ab04625
    PYTHONPATH=/tmp/rel_ab04625 .venv/bin/python \\
        tests/storage/release_ab04625/make.py tests/storage/release_ab04625

It plays, through that release's service layer on a fresh SQLite file: against the
computer finished (practice and ranked, the ranked one without hints so that it
enters the high score table) and unfinished, two players finished and unfinished,
online with a claimed invite finished and unfinished, computer against computer, a
game abandoned (that release had no resigning: a game ended unfinished only so), a
game of "Eda Fırat" and one where "eda firat" claims the online seat (the same
player by today's name key, two names to that release), and high score entries by
hand (one of them "Eda Fırat"'s). Then it writes ``rows.json`` (every row of every
table, as that release stored it), ``exports.json`` (its export of every game) and
``tokens.json`` (the tokens of the unfinished games, to play on with). Practice
seeds are fixed, so a run makes the same practice games (tokens and ids differ).
"""

from __future__ import annotations

import json
import sys
import tempfile
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import MetaData, select

from service.domain import ai
from service.domain.commands import PlaceLine
from service.services import Services
from service.store import migrate

HEIGHT, WIDTH = 9, 13


def play(services: Services, game_id: str, tokens: dict[int, str], moves: int | None,
         *, hints: bool = True) -> None:
    """The AI's moves for the humans (asked as hints, which makes a game assisted,
    when the game has hints and `hints` is on), the computer's turns by itself, until
    over (or `moves`)."""
    done = 0
    while moves is None or done < moves:
        state = services.queries.get_state(game_id)
        if state.over:
            return
        if state.seat_info(state.turn).kind == "computer":
            services.play.play_computer_turn(game_id)
            continue
        token = tokens[state.turn]
        command = (services.play.hint(game_id, token).command if hints and state.game.hints
                   else ai.hint(state))
        if isinstance(command, PlaceLine):
            services.play.place_line(game_id, token, command.x, command.y, state.version)
        else:
            services.play.advance(game_id, token, state.version)
        done += 1


def plain(value: Any) -> Any:
    if isinstance(value, datetime | date):
        return value.isoformat()
    if isinstance(value, bytes):
        return value.hex()
    return value


def main(out: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{tmp}/old.db"
        migrate(url)
        services = Services.from_url(url)
        unfinished: dict[str, dict[str, Any]] = {}

        def game(moves: int | None = None, claimer: str = "Zeynep", hints: bool = True,
                 **settings: Any) -> str:
            created = services.play.create_game(height=HEIGHT, width=WIDTH, **settings)
            tokens = {1: created.token, 2: created.token}
            if created.invite is not None:
                claimed = services.play.claim_seat(created.game_id, created.invite.code,
                                                   claimer)
                tokens[claimed.seat] = claimed.token
            play(services, created.game_id, tokens, moves, hints=hints)
            if not services.queries.get_state(created.game_id).over:
                unfinished[created.game_id] = {str(k): v for k, v in tokens.items()}
            return created.game_id

        abandoned = game(moves=2, player_name="Kaan", mode="two_players",
                         second_name="Lale", seed=22)
        sweep = services.retention.abandon_stale(
            services.core.clock() + services.core.abandon_after + timedelta(minutes=1))
        assert [g for g, _ in sweep.abandoned] == [abandoned], sweep
        del unfinished[abandoned]

        game(player_name="Ayşe", difficulty="easy", seed=11)
        game(moves=3, player_name="Bora", difficulty="moderate", seed=12)
        game(player_name="Jale", difficulty="easy", hints=False)  # ranked: a high score
        game(player_name="Cem", mode="two_players", second_name="Deniz", seed=13)
        game(moves=4, player_name="Ece", mode="two_players", second_name="Fatih", seed=14)
        game(player_name="Gül", mode="online", seed=15)
        game(moves=4, player_name="Hakan", mode="online", seed=20)
        game(player_name="Irmak", mode="computer_vs_computer", difficulty="easy",
             second_level="hard", seed=21)
        game(player_name="Eda Fırat", difficulty="easy", seed=23)
        game(player_name="Nil", mode="online", claimer="eda firat", seed=24)
        services.admin.add_high_score("Oya", 17, height=HEIGHT, width=WIDTH)
        services.admin.add_high_score("Eda Fırat", 12)

        engine = services.store.engine
        meta = MetaData()
        meta.reflect(engine)
        with engine.connect() as conn:
            rows = {name: [{k: plain(v) for k, v in row._mapping.items()}
                           for row in conn.execute(select(table))]
                    for name, table in sorted(meta.tables.items())}
        exports = {game_id: services.admin.export_game(game_id)
                   for game_id in (r["game_id"] for r in rows["games"])}
        services.store.dispose()
    for name, data in (("rows", rows), ("exports", exports), ("tokens", unfinished)):
        (out / f"{name}.json").write_text(json.dumps(data, indent=1, ensure_ascii=False,
                                                     sort_keys=True) + "\n")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
