"""The SQLite database's files are the service user's alone, whatever the umask.

The database holds secrets: ``games.seed_secret`` is each running ranked game's seed
(whoever reads it knows the dice before they fall), and the hashes of tokens and
invitation codes. SQLite creates a database file 0644 less the umask, so under the
usual umask 022 every local user could read it. So before SQLite opens a file
database (`prepare`):

- each folder made on the way to it is made 0700. A folder that exists keeps its
  mode: it may be ``/tmp`` or a data folder the operator shares on purpose, which
  the service has no business narrowing; the files below decide what can be read.
- the database file is made empty with mode 0600 if it is missing (an empty file is
  an empty SQLite database). SQLite gives the ``-wal``, ``-shm`` and ``-journal`` files
  it makes the database file's mode, so those are 0600 too.
- a file of the database that exists with group or other bits (made by an older
  release, or copied in) loses them, when the service opens it, every time, not
  once: a looser mode is a mistake to undo, never a choice the service can tell from
  one. The owner's bits stay (a read-only file stays read-only). A file owned by
  another user keeps its mode (only its owner may change it).
- the writers' queue lock (``-writers``, `writer_queue`) and the migrations' lock
  (``.migrate-lock``) are made 0600: anyone who could open one could hold its lock
  and stall every write.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

PRIVATE_DIR = 0o700
PRIVATE_FILE = 0o600
GROUP_AND_OTHER = 0o077
# SQLite's own files beside the database, and the service's two lock files
SIDE_FILES = ("-wal", "-shm", "-journal", "-writers", ".migrate-lock")


def prepare(database: str) -> None:
    """Make the folders of the SQLite file `database` (0700) and the file (0600) if
    they are missing, and take group and other bits off its files that exist."""
    path = Path(database)
    make_private_dirs(path.parent)
    _tighten_file(str(path), os.O_CREAT)
    for suffix in SIDE_FILES:
        _tighten_file(f"{path}{suffix}")


def tighten(path: str | os.PathLike[str]) -> None:
    """Take group and other bits off the file `path` (another secret of the service,
    e.g. the export key); nothing if it cannot be opened."""
    _tighten_file(path)


def _tighten_file(path: str | os.PathLike[str], create: int = 0) -> None:
    """A file that cannot be opened (missing, a folder, another user's) is left to
    SQLite, which opens it or says why it cannot, as it did before."""
    try:
        fd = os.open(path, os.O_RDONLY | create, PRIVATE_FILE)
    except OSError:
        return
    try:
        _tighten(fd)
    finally:
        os.close(fd)


def make_private_dirs(folder: Path) -> None:
    """Make `folder` and its missing parents, each 0700 (a folder that exists is left
    as it is)."""
    missing = []
    while not folder.exists():
        missing.append(folder)
        if folder.parent == folder:
            break
        folder = folder.parent
    for made in reversed(missing):
        try:
            made.mkdir(PRIVATE_DIR)
        except FileExistsError:  # another process was first: its folder
            continue
        os.chmod(made, PRIVATE_DIR)  # mkdir's mode is less the umask


def open_private(path: str | os.PathLike[str], flags: int) -> int:
    """`os.open` of a file of the service's own (a lock file): made 0600 if missing,
    group and other bits taken off if it exists."""
    fd = os.open(path, flags | os.O_CREAT, PRIVATE_FILE)
    try:
        _tighten(fd)
    except BaseException:
        os.close(fd)
        raise
    return fd


def _tighten(fd: int) -> None:
    mode = os.fstat(fd).st_mode & 0o7777
    if mode & GROUP_AND_OTHER:
        # another user's file, or a read-only file system: nothing this process can do
        with contextlib.suppress(OSError):
            os.fchmod(fd, mode & ~GROUP_AND_OTHER)
