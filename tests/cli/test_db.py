"""``squares db``: Alembic upgrade, downgrade, current and history."""

from __future__ import annotations

from service.services import Services
from tests.cli.conftest import Run


def test_current_on_a_new_database_says_no_schema(run: Run) -> None:
    result = run("db", "current")
    assert result.exit_code == 0 and result.stdout == "none (no schema yet)\n"


def test_upgrade_then_current_and_history(run: Run) -> None:
    result = run("db", "upgrade")
    assert result.exit_code == 0
    assert result.stdout.endswith(": none (no schema yet) -> 0002 (head)\n")
    assert run("db", "current").stdout == "0002 (head)\n"
    history = run("db", "history").stdout.splitlines()
    assert history[0].startswith("base -> 0001: ")
    assert history[1].startswith("0001 -> 0002 (head): ")
    assert history[1].endswith("<- current")


def test_upgrade_to_a_revision_and_downgrade(run: Run) -> None:
    assert run("db", "upgrade", "0001").stdout.endswith("-> 0001\n")
    assert run("db", "current").stdout == "0001\n"
    assert run("db", "upgrade").stdout.endswith("0001 -> 0002 (head)\n")

    result = run("db", "downgrade")
    assert result.exit_code == 2
    assert result.stderr == "error: refusing to downgrade without --yes\n"
    assert run("db", "current").stdout == "0002 (head)\n"

    result = run("db", "downgrade", "--yes")  # default: one step
    assert result.exit_code == 0 and result.stdout.endswith("0002 (head) -> 0001\n")
    result = run("db", "downgrade", "-1", "--yes")  # a relative revision is no option
    assert result.exit_code == 0 and result.stdout.endswith("0001 -> none (no schema yet)\n")


def test_downgrade_to_base_and_an_unknown_revision(run: Run) -> None:
    run("db", "upgrade")
    result = run("db", "downgrade", "nope", "--yes")
    assert result.exit_code == 1 and result.stderr.startswith("error: alembic: ")
    result = run("db", "downgrade", "base", "--yes")
    assert result.exit_code == 0 and run("db", "current").stdout == "none (no schema yet)\n"


def test_data_commands_migrate_by_themselves(run: Run, db_url: str) -> None:
    assert run("highscores", "list").exit_code == 0
    assert run("db", "current").stdout == "0002 (head)\n"
    services = Services.from_url(db_url)
    try:
        assert len(services.high_scores()) == 5  # RULES E2's default table
    finally:
        services.store.dispose()
