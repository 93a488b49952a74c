"""Secrets at rest: the SQLite database holds each running ranked game's seed and the
hashes of tokens, so its folder is made 0700 and its files 0600 (the database, its
``-wal`` and ``-shm``, the writers' and the migrations' lock files), and so is the
export key, whatever the umask of the process that makes them (`private_files`).

Each command runs in a process of its own, the umask set there: a umask is the whole
process's, and the tests' own must stay as it is."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli.conftest import SQUARES

DATABASE = "squares.db"
# What a process that wrote a game and signed its export holds open in the folder:
# the database and SQLite's files beside it while a connection is open, the lock
# files, the export key.
OPEN_FILES = {DATABASE, f"{DATABASE}-wal", f"{DATABASE}-shm", f"{DATABASE}-writers",
              f"{DATABASE}.migrate-lock", "export.key"}

# A ranked game created (its seed in games.seed_secret) and exported (the key file
# made), then the modes of the folder's files while the connection is still open.
_WRITE_AND_LOOK = """
import json, stat, sys
from pathlib import Path
from service.services import Services
services = Services.from_url(sys.argv[1])
created = services.play.create_game(player_name="Ann", height=7, width=9)
services.admin.export_game(created.game_id)
folder = Path(sys.argv[2])
print(json.dumps({p.name: stat.S_IMODE(p.stat().st_mode) for p in folder.iterdir()}))
"""


def _env(folder: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "SQUARES_EXPORT_KEY"}
    return {**env, "SQUARES_EXPORT_KEY_FILE": str(folder / "export.key")}


def _squares(folder: Path, umask: int, *args: str) -> subprocess.CompletedProcess[str]:
    url = f"sqlite:///{folder / DATABASE}"
    return subprocess.run([str(SQUARES), "--database-url", url, *args], env=_env(folder),
                          umask=umask, capture_output=True, text=True, timeout=120,
                          check=True)


def _write_and_look(folder: Path, umask: int) -> dict[str, int]:
    done = subprocess.run(
        [sys.executable, "-c", _WRITE_AND_LOOK,
         f"sqlite:///{folder / DATABASE}", str(folder)],
        env=_env(folder), umask=umask, capture_output=True, text=True, timeout=120,
        check=True)
    return json.loads(done.stdout)


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.mark.parametrize("umask", [0o022, 0o000], ids=["umask022", "umask000"])
def test_a_new_database_its_folder_and_the_export_key_are_private(
        tmp_path: Path, umask: int) -> None:
    folder = tmp_path / "srv" / "instance"  # two folders made on the way
    _squares(folder, umask, "db", "upgrade")
    assert (_mode(tmp_path / "srv"), _mode(folder)) == (0o700, 0o700)
    assert {p.name: _mode(p) for p in folder.iterdir()} == {
        DATABASE: 0o600, f"{DATABASE}.migrate-lock": 0o600}

    modes = _write_and_look(folder, umask)
    assert modes == dict.fromkeys(OPEN_FILES, 0o600)
    assert _mode(folder) == 0o700


def test_files_left_readable_by_others_are_made_private_when_opened(tmp_path: Path) -> None:
    """Files of an older release (or copied in, or left by a crash) lose their group
    and other bits when the service opens the database; a folder that exists keeps its
    mode (it may be shared on purpose): the files in it decide what can be read."""
    folder = tmp_path / "instance"
    folder.mkdir()
    _squares(folder, 0o022, "db", "upgrade")
    (folder / f"{DATABASE}-wal").write_bytes(b"")  # as an older release left them
    (folder / f"{DATABASE}-shm").write_bytes(b"")
    (folder / "export.key").write_text("0123456789abcdef" * 4 + "\n", encoding="ascii")
    for path in [folder, *folder.iterdir()]:
        path.chmod(0o755 if path == folder else 0o644)

    assert _write_and_look(folder, 0o022) == dict.fromkeys(OPEN_FILES, 0o600)
    assert _mode(folder) == 0o755


def test_a_backup_is_private_too(tmp_path: Path) -> None:
    folder = tmp_path / "instance"
    _squares(folder, 0o000, "db", "upgrade")
    copy = tmp_path / "backup.db"
    _squares(folder, 0o000, "db", "backup", str(copy))
    assert _mode(copy) == 0o600
