"""Makes this folder's fixture with the code of release 3d21845 (migrations 0001-0005).

Run it with that release's own code and environment (not this one's), e.g.::

    git worktree add /tmp/old-3d21845 3d21845
    cd /tmp/old-3d21845 && python3 -m venv .venv && .venv/bin/pip install -e .
    .venv/bin/python /path/to/tests/storage/release_3d21845/make.py /path/to/this/folder

It plays, through that release's service layer on a fresh SQLite file, a game of every
mode: against the computer finished and unfinished, two players finished and
unfinished, online with a claimed invite (three finished, one unfinished),
computer against computer; then writes ``rows.json`` (every row of every table, as
that release stored it), ``exports.json`` (its export of every game) and
``tokens.json`` (the tokens of the unfinished games, to play on with). Seeds are
fixed, so a run makes the same games (tokens and ids differ).
"""

from __future__ import annotations

import json
import sys
import tempfile
from datetime import date, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import MetaData, select

from service.domain.commands import PlaceLine
from service.services import Services
from service.store import migrate

SIZE = {"height": 9, "width": 13}


def play(services: Services, game_id: str, tokens: dict[int, str], moves: int | None) -> None:
    """Hints for the humans, the computer's turns by itself, until over (or `moves`)."""
    done = 0
    while moves is None or done < moves:
        state = services.queries.get_state(game_id)
        if state.over:
            return
        seat = state.seat_info(state.turn)
        if seat.kind == "computer":
            services.play.play_computer_turn(game_id)
            continue
        command = services.play.hint(game_id)
        token = tokens[state.turn]
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

        def game(moves: int | None = None, **settings: Any) -> str:
            created = services.play.create_game(**SIZE, **settings)
            tokens = {1: created.token, 2: created.token}
            if created.invite is not None:
                claimed = services.play.claim_seat(created.game_id, created.invite.code, "Zeynep")
                tokens[claimed.seat] = claimed.token
            play(services, created.game_id, tokens, moves)
            if not services.queries.get_state(created.game_id).over:
                unfinished[created.game_id] = {str(k): v for k, v in tokens.items()}
            return created.game_id

        game(player_name="Ayşe", difficulty="easy", seed=11)
        game(moves=3, player_name="Bora", difficulty="moderate", seed=12)
        game(player_name="Cem", mode="two_players", second_name="Deniz", seed=13)
        game(moves=4, player_name="Ece", mode="two_players", second_name="Fatih", seed=14)
        for seed in (15, 18, 19):  # today's rules would draw seat 1, 2, 2 to move first
            game(player_name="Gül", mode="online", seed=seed)
        game(moves=4, player_name="Hakan", mode="online", seed=20)  # 2 too
        game(player_name="Irmak", mode="computer_vs_computer", difficulty="easy",
             second_level="hard", seed=21)

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
