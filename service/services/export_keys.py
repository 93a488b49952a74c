"""The secrets of signed exports (`domain.signing`): this instance's own, and those of
the other instances its operator trusts.

The own secret is the setting ``SQUARES_EXPORT_KEY``, else the key file (``export.key``
in the instance directory, or ``SQUARES_EXPORT_KEY_FILE``): 32 random bytes as hex,
created with mode 600 (in a folder made 700) the first time the server starts (or a
command signs or checks an export), and kept: a new key would leave the games
imported with the old one unverifiable. A key file readable by others is made 600
when it is read: whoever has the key can sign any stream as this instance's. The
trusted ones are ``SQUARES_TRUSTED_EXPORT_KEYS``.
"""

from __future__ import annotations

import contextlib
import os
import secrets
from pathlib import Path

from ..domain.signing import key_id
from ..errors import BadSetting
from ..ops.settings import EXPORT_KEY_MIN, Settings
from ..store import private_files

KEY_BYTES = 32


def own_secret(settings: Settings) -> bytes:
    """This instance's secret (the key file is created on first use)."""
    if settings.export_key is not None:
        return settings.export_key.encode("utf-8")
    return key_file_secret(settings.export_key_file)


def own_key_id(settings: Settings) -> str:
    return key_id(own_secret(settings))


def known_secrets(settings: Settings) -> dict[str, bytes]:
    """Key id -> secret: this instance's and the trusted ones."""
    trusted = [key.encode("utf-8") for key in settings.trusted_export_keys]
    return {key_id(secret): secret for secret in (own_secret(settings), *trusted)}


def key_file_secret(path: Path, what: str = "export key") -> bytes:
    """The secret in `path`, written there first if the file does not exist: whole,
    mode 600, by one process only (a complete temporary file is linked into place,
    which fails if another process was first; then its key is the one). `what`: the
    secret's name in the error for a file that holds none (the daily challenge's
    secret is kept so too, `daily`)."""
    try:
        secret = _read(path, what)
    except FileNotFoundError:
        pass
    else:
        private_files.tighten(path)  # a key file written by hand, or copied in
        return secret
    private_files.make_private_dirs(path.parent)
    draft = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
    fd = os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "w", encoding="ascii") as file:
            file.write(secrets.token_hex(KEY_BYTES) + "\n")
        with contextlib.suppress(FileExistsError):  # another process was first
            os.link(draft, path)
    finally:
        draft.unlink()
    return _read(path, what)


def _read(path: Path, what: str) -> bytes:
    text = path.read_text(encoding="ascii").strip()
    if len(text) < EXPORT_KEY_MIN:
        raise BadSetting(f"the {what} file {path} holds no key")
    return text.encode("ascii")
