"""``pip install .`` (not editable) gives a working ``squares``: the wheel carries the
migrations and every template and asset, and from a fresh venv, outside the
repository, ``squares db upgrade`` migrates a new database and ``squares serve``
(its app and streams servers) answers ``/healthz``.

Offline and quick: the wheel is built without build isolation from a copy of the
sources (the build requirements are in the ``test`` extra), and the new venv gets
no pip and no downloads: the wheel is installed into it with ``--no-deps`` and a
``.pth`` file lends it the dependencies of the interpreter running the tests (plain
path entries after its own site-packages: that interpreter's ``.pth`` files, e.g. an
editable ``squares``, are not run, and the checkout is left out).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import urllib.error
import urllib.request
import zipfile
from pathlib import Path

import pytest

from squares_testing.server import serving

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ("pyproject.toml", "setup.py", "README.md", "service", "cli", "migrations")
PACKAGES = ("service", "cli", "migrations")

pytestmark = pytest.mark.slow


def run(argv: list[str | Path], cwd: Path, env: dict[str, str],
        timeout: float = 120) -> subprocess.CompletedProcess[str]:
    result = subprocess.run([str(a) for a in argv], cwd=cwd, env=env, capture_output=True,
                            text=True, timeout=timeout)
    if result.returncode != 0:
        pytest.fail(f"{' '.join(map(str, argv))} exited with {result.returncode}:\n"
                    f"{result.stdout}\n{result.stderr}")
    return result


def clean_env() -> dict[str, str]:
    """No repository on the path, no database from outside, no user site-packages."""
    drop = {"DATABASE_URL", "PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP", "VIRTUAL_ENV"}
    env = {k: v for k, v in os.environ.items() if k not in drop and not k.startswith("PIP_")}
    env.update(PYTHONNOUSERSITE="1", PIP_DISABLE_PIP_VERSION_CHECK="1", PIP_NO_INPUT="1")
    return env


def build_wheel(tmp_path: Path, env: dict[str, str]) -> Path:
    """The wheel of a copy of the sources (a build in the checkout would leave
    ``build/`` behind, and a stale ``build/lib`` could hide a missing file)."""
    src = tmp_path / "src"
    src.mkdir()
    # the checkout's compiled catalogs (.mo) are left behind: the build makes its own
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info", "*.mo")
    for name in SOURCES:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, src / name, ignore=ignore)
        else:
            shutil.copy2(ROOT / name, src / name)
    dist = tmp_path / "dist"
    result = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
         "--no-index", "--quiet", "--wheel-dir", str(dist), str(src)],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120,
    )
    if result.returncode != 0:
        pytest.fail("building the wheel failed (the build requirements come with "
                    f"`pip install -e '.[test]'`):\n{result.stdout}\n{result.stderr}")
    (wheel,) = dist.glob("squares-*.whl")
    return wheel


def assert_wheel_has_every_file(wheel: Path, src: Path) -> None:
    with zipfile.ZipFile(wheel) as zf:
        names = set(zf.namelist())
    expected = {
        path.relative_to(src).as_posix()
        for package in PACKAGES
        for path in (src / package).rglob("*")
        if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc"
    }
    assert {"migrations/env.py", "migrations/script.py.mako"} <= expected
    assert any(n.startswith("migrations/versions/0001_") for n in expected)
    assert sorted(expected - names) == []
    # the translations' catalogs, compiled by the build (setup.py): git keeps no .mo
    assert "service/translations/tr/LC_MESSAGES/messages.po" in expected
    assert "service/translations/tr/LC_MESSAGES/messages.mo" in names
    # the product only: no test support (squares_testing), tests or benchmarks
    top = {name.split("/")[0] for name in names if not name.split("/")[0].endswith(".dist-info")}
    assert top == set(PACKAGES), top


def make_venv(tmp_path: Path, wheel: Path, env: dict[str, str]) -> Path:
    """A new venv with the wheel installed and this venv's packages on its path."""
    venv = tmp_path / "venv"
    run([sys.executable, "-m", "venv", "--without-pip", venv], tmp_path, env)
    python = venv / "bin" / "python"
    run([sys.executable, "-m", "pip", "--python", python, "install", "--no-deps",
         "--no-index", "--quiet", wheel], tmp_path, env)
    site_packages = Path(run([python, "-c", "import sysconfig; print(sysconfig.get_path("
                              "'purelib'))"], tmp_path, env).stdout.strip())
    (site_packages / "_squares_test_dependencies.pth").write_text(
        "".join(f"{path}\n" for path in dependency_paths())
    )
    return venv


def dependency_paths() -> list[str]:
    """Where this interpreter imports third-party packages from: its import path
    without the standard library and without any directory holding one of the
    project's own packages (the checkout), so only the wheel can provide those."""
    stdlib = Path(sysconfig.get_paths()["stdlib"]).resolve()
    paths = []
    for entry in dict.fromkeys(sys.path):
        path = Path(entry or ".").resolve()
        if (not path.is_dir() or path.is_relative_to(stdlib)
                or any((path / package).exists() for package in PACKAGES)):
            continue
        paths.append(str(path))
    return paths


def get(port: int, path: str, headers: dict[str, str] | None = None) -> tuple[int, bytes]:
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", headers=headers or {})
    with urllib.request.urlopen(request, timeout=5) as resp:
        return resp.status, resp.read()


def test_installed_wheel_migrates_and_serves(tmp_path: Path) -> None:
    env = clean_env()
    wheel = build_wheel(tmp_path, env)
    assert_wheel_has_every_file(wheel, tmp_path / "src")
    venv = make_venv(tmp_path, wheel, env)
    python, squares = venv / "bin" / "python", venv / "bin" / "squares"
    cwd = tmp_path / "elsewhere"  # not the repository: nothing importable from here
    cwd.mkdir()

    # The code, the migrations and the default database are the installed package's.
    probe = run([python, "-c", (
        "import json, cli, migrations, service; from service.store import migrations as m;"
        " from service.ops import settings as s; print(json.dumps("
        "[cli.__file__, migrations.__file__, service.__file__, str(m.MIGRATIONS_DIR),"
        " str(s.DEFAULT_SQLITE_PATH)]))"
    )], cwd, env)
    *modules, migrations_dir, default_db = json.loads(probe.stdout)
    site_packages = venv.resolve() / "lib"
    for path in [*modules, migrations_dir]:
        assert Path(path).resolve().is_relative_to(site_packages), path
    assert Path(migrations_dir, "env.py").is_file()
    assert Path(default_db) == cwd.resolve() / "instance" / "squares.db"

    url = f"sqlite:///{tmp_path / 'db' / 'x.db'}"
    run([squares, "--database-url", url, "db", "upgrade"], cwd, env)
    assert "(head)" in run([squares, "--database-url", url, "db", "current"], cwd, env).stdout

    log = tmp_path / "server.log"
    with serving(lambda port: [str(squares), "--database-url", url, "serve", "--port",
                               str(port), "--workers", "1"],
                 log_path=log, env=env, cwd=cwd, timeout=30, live=True) as server:
        port = server.port
        assert json.loads(get(port, "/healthz")[1]) == {"status": "ok"}
        assert json.loads(get(port + 1, "/healthz")[1]) == {"status": "ok"}  # streams
        assert f"live streams on http://127.0.0.1:{port + 1}" in log.read_text()
        # Templates, assets and the migrated data (RULES E2's table) come along too.
        status, page = get(port, "/highscores")
        assert status == 200 and "Eda Fırat" in page.decode("utf-8")
        # ... and the compiled catalogs: the page in Turkish when the browser asks
        status, page = get(port, "/highscores", {"Accept-Language": "tr"})
        assert status == 200 and '<html lang="tr">' in page.decode("utf-8")
        assert "<h1>En yüksek puanlar: 19 × 33</h1>" in page.decode("utf-8")
        assert get(port, "/api/docs")[0] == 200
        assert get(port, "/assets/common/style.css")[0] == 200
        assert get(port, "/assets/replay/review/main.js")[0] == 200
