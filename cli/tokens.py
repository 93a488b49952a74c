"""Where the CLI keeps the tokens of the games it created or joined:
``$SQUARES_TOKENS_FILE``, else ``$XDG_DATA_HOME/squares/tokens.json``, else
``~/.local/share/squares/tokens.json``, written atomically and readable by its owner
only. An entry is a game id with its token, or (an online game, whose tokens move
one seat each) with an object of seat ("1", "2") → token plus its invitation
``"code"`` when this CLI created the game. And what a token moves: `game_for_token`."""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from pathlib import Path

from service.domain.state import GameState
from service.errors import GameNotFound, ServiceError
from service.services import Services

from .context import current_settings
from .output import CliFailure


def tokens_file() -> Path:
    """Where the CLI keeps the tokens of the games it created (the running command's
    settings ``SQUARES_TOKENS_FILE`` and ``XDG_DATA_HOME``)."""
    settings = current_settings()
    if settings.tokens_file is not None:
        return settings.tokens_file.expanduser()
    return settings.data_home.expanduser() / "squares" / "tokens.json"


def _read_tokens_file(path: Path) -> dict[str, str | dict[str, str]]:
    """The file's well-formed entries: a game id with its token, or (an online game)
    with an object of seat ("1", "2") → token, plus its invitation ``"code"``."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict):
        return {}
    entries: dict[str, str | dict[str, str]] = {}
    for key, value in data.items():
        if isinstance(value, str):
            entries[key] = value
        elif isinstance(value, dict):
            entries[key] = {k: v for k, v in value.items() if isinstance(v, str)}
    return entries


def load_tokens(path: Path | None = None) -> dict[str, str]:
    """The kept tokens that move every human seat of their game, by game id (an
    online game's seat tokens: `load_seat_tokens`)."""
    entries = _read_tokens_file(path or tokens_file())
    return {k: v for k, v in entries.items() if isinstance(v, str)}


def _online_entry(game_id: str, path: Path | None) -> dict[str, str]:
    entry = _read_tokens_file(path or tokens_file()).get(game_id)
    return entry if isinstance(entry, dict) else {}


def load_seat_tokens(game_id: str, path: Path | None = None) -> dict[int, str]:
    """The kept tokens of an online game, by the seat each moves (one or both)."""
    entry = _online_entry(game_id, path)
    return {int(k): v for k, v in entry.items() if k in ("1", "2")}


def load_invite_code(game_id: str, path: Path | None = None) -> str | None:
    """The invitation code kept with the online game this CLI created, if any."""
    return _online_entry(game_id, path).get("code")


def save_token(game_id: str, token: str, path: Path | None = None, *,
               seat: int | None = None, code: str | None = None) -> Path | None:
    """Add a game's token to the file (created 0600); None if it cannot be written
    (the game is still playable now; resuming it later then needs ``--token``).
    With `seat` (an online game, whose tokens move one seat each) the token is kept
    as that seat's, next to the other seat's if this CLI holds it too, and with the
    invitation `code` of a game it created."""
    path = path or tokens_file()
    entries = _read_tokens_file(path)
    if seat is None:
        entries[game_id] = token
    else:
        entry = dict(_online_entry(game_id, path))
        entry[str(seat)] = token
        if code is not None:
            entry["code"] = code
        entries[game_id] = entry
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=path.name + ".", suffix=".tmp", dir=path.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as out:  # mkstemp: mode 0600
                json.dump(entries, out, indent=1, sort_keys=True)
            os.replace(tmp, path)
        except OSError:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise
    except OSError:
        return None
    return path


def game_for_token(services: Services, game_id: str,
                   token: str) -> tuple[tuple[int, ...], GameState]:
    """The seats `token` moves in game `game_id` and the game now; one-line errors."""
    try:
        seats = services.play.check_token(game_id, token)
        _, state = services.queries.get_game(game_id)
    except GameNotFound as exc:
        raise CliFailure(f"no game {game_id}") from exc
    except ServiceError as exc:
        raise CliFailure(f"game {game_id}: {exc}") from exc
    return seats, state
