"""``squares db``: Alembic upgrade, downgrade, current and history."""

from __future__ import annotations

from service.services import Services
from service.store.migrations import head_revisions, script_directory
from tests.cli.conftest import Run

HEAD = head_revisions()[0]
REVISIONS = [s.revision for s in reversed(list(script_directory().walk_revisions()))]


def test_current_on_a_new_database_says_no_schema(run: Run) -> None:
    result = run("db", "current")
    assert result.exit_code == 0 and result.stdout == "none (no schema yet)\n"


def test_upgrade_then_current_and_history(run: Run) -> None:
    result = run("db", "upgrade")
    assert result.exit_code == 0
    assert result.stdout.endswith(f": none (no schema yet) -> {HEAD} (head)\n")
    assert run("db", "current").stdout == f"{HEAD} (head)\n"
    history = run("db", "history").stdout.splitlines()
    assert history[0].startswith("base -> 0001: ")
    assert history[1].startswith("0001 -> 0002: ")
    assert history[-1].startswith(f"{REVISIONS[-2]} -> {HEAD} (head): ")
    assert history[-1].endswith("<- current")
    assert len(history) == len(REVISIONS)


def test_upgrade_to_a_revision_and_downgrade(run: Run) -> None:
    assert run("db", "upgrade", "0001").stdout.endswith("-> 0001\n")
    assert run("db", "current").stdout == "0001\n"
    assert run("db", "upgrade").stdout.endswith(f"0001 -> {HEAD} (head)\n")

    # Down to 0001 drops the default names' skeletons (derived, but values): --yes.
    result = run("db", "downgrade", "0001")
    assert result.exit_code == 2 and "drops high_scores.name_skeleton: 5 rows\n" in result.stdout
    # (and the bookkeeping of 0010: the event position counter, the analyst checkpoint;
    # 0011's table and mark of the five defaults, and their field, 19 x 33, since 0011)
    assert "drops high_scores.ranking: 5 rows\n" in result.stdout
    assert "drops high_scores.height: 5 rows\n" in result.stdout
    assert result.stderr == "error: refusing to drop 27 rows without --yes\n"
    # Down to 0006, then to 0001: the defaults' field goes last.
    result = run("db", "downgrade", "0006", "--yes")
    assert result.exit_code == 0 and result.stdout.endswith(f"{HEAD} (head) -> 0006\n")
    result = run("db", "downgrade", "0001", "--yes")
    assert result.exit_code == 0 and result.stdout.endswith("0006 -> 0001\n")
    assert "drops games.height: 0 rows\n" in result.stdout
    assert "drops high_scores.height: 5 rows\n" in result.stdout

    # The first migration's tables hold RULES E2's five high scores.
    result = run("db", "downgrade", "-1")  # a relative revision is no option
    assert result.exit_code == 2
    assert "drops high_scores: 5 rows\n" in result.stdout
    assert "drops games: 0 rows\n" in result.stdout and "drops events: 0 rows\n" in result.stdout
    assert result.stderr == "error: refusing to drop 5 rows without --yes\n"
    assert run("db", "current").stdout == "0001\n"
    result = run("db", "downgrade", "-1", "--yes")
    assert result.exit_code == 0 and result.stdout.endswith("0001 -> none (no schema yet)\n")


def test_downgrade_to_base_with_games_names_every_row_it_drops(run: Run, db_url: str) -> None:
    run("db", "upgrade")
    services = Services.from_url(db_url)
    try:
        game = services.play.create_game(player_name="Ada", height=7, width=7, seed=1)
        services.play.advance(game.game_id, game.token)
    finally:
        services.store.dispose()
    result = run("db", "downgrade", "base")
    assert result.exit_code == 2
    assert result.stdout.splitlines() == [
        "drops rating_changes: 0 rows", "drops ratings: 0 rows",  # 0019: no rated game
        "drops daily_attempts: 0 rows",  # 0018: no daily challenge played
        "drops ceremonies: 0 rows", "drops recovery_codes: 0 rows",  # 0017: nobody
        "drops sessions: 0 rows", "drops passkeys: 0 rows",  # signed in
        "drops players: 1 row",  # Ada's guest record, which holds her name
        "drops games.first_player: 1 row", "drops games.second_player: 0 rows",
        "drops high_scores.player_id: 0 rows",  # the game runs: no entry yet
        "drops games.first_key: 1 row",  # 0015: Ada's games, for her page
        "drops games.second_key: 0 rows",  # the computer's seat has no key
        "drops games.seed_commitment: 1 row",  # 0013: what finds a stored game
        "drops invitations.seat: 0 rows",  # no online game (0012: rematches)
        "drops invitations.rematch_of: 0 rows",
        "drops games.assisted: 1 row", "drops games.origin: 1 row",
        "drops games.signature: 0 rows",  # played here, not imported
        "drops high_scores.ranking: 5 rows", "drops high_scores.hints_recorded: 5 rows",
        "drops game_reviews: 0 rows",  # the game runs: no review yet
        "drops projection_checkpoints: 1 row",  # the analyst's
        "drops event_positions: 1 row",  # the counter
        "drops events.position: 2 rows",  # every event has its position
        "drops games.seed_secret: 0 rows",  # a chosen seed: a practice game, no secret
        "drops games.ranked: 1 row", "drops viewers.client: 0 rows",
        "drops high_scores.name_skeleton: 5 rows",
        "drops games.creator: 0 rows",  # the CLI's games have no creator address
        "drops invitations: 0 rows", "drops viewers: 0 rows",
        "drops games.height: 1 row", "drops games.width: 1 row",
        "drops high_scores.height: 5 rows", "drops high_scores.width: 5 rows",
        "drops high_scores: 5 rows", "drops games: 1 row", "drops events: 2 rows"]
    assert result.stderr == "error: refusing to drop 46 rows without --yes\n"
    assert run("db", "current").stdout == f"{HEAD} (head)\n"
    assert run("db", "downgrade", "base", "--yes").exit_code == 0
    assert run("db", "current").stdout == "none (no schema yet)\n"


def test_backup_copies_a_live_sqlite_database(run: Run, db_url: str, tmp_path) -> None:
    run("db", "upgrade")
    services = Services.from_url(db_url)
    try:
        services.play.create_game(player_name="Ada", height=7, width=7, seed=1)
        target = tmp_path / "backup.db"
        result = run("db", "backup", str(target))
        assert result.exit_code == 0, result.stderr
        copy = Services.from_url(f"sqlite:///{target}")
        try:
            assert copy.queries.list_games()[1] == 1 and len(copy.queries.high_scores()) == 5
        finally:
            copy.store.dispose()
    finally:
        services.store.dispose()
    again = run("db", "backup", str(target))
    assert again.exit_code == 1 and "exists already" in again.stderr


def test_backup_of_postgresql_prints_the_pg_dump_command(run: Run, tmp_path) -> None:
    url = "postgresql://squares:secret@127.0.0.1:5433/games"
    result = run("--database-url", url, "db", "backup", str(tmp_path / "g.dump"))
    assert result.exit_code == 0
    assert result.stdout == (f"pg_dump --format=custom --file={tmp_path / 'g.dump'} "
                             "--host=127.0.0.1 --port=5433 --username=squares games\n")
    assert "secret" not in result.stdout


def test_downgrade_to_base_and_an_unknown_revision(run: Run) -> None:
    run("db", "upgrade")
    result = run("db", "downgrade", "nope", "--yes")
    assert result.exit_code == 1 and result.stderr.startswith("error: alembic: ")
    result = run("db", "downgrade", "base", "--yes")
    assert result.exit_code == 0 and run("db", "current").stdout == "none (no schema yet)\n"


def test_data_commands_migrate_by_themselves(run: Run, db_url: str) -> None:
    assert run("highscores", "list").exit_code == 0
    assert run("db", "current").stdout == f"{HEAD} (head)\n"
    services = Services.from_url(db_url)
    try:
        assert len(services.queries.high_scores()) == 5  # RULES E2's default table
    finally:
        services.store.dispose()
