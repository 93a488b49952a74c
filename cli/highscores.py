"""``squares highscores``: the high score table (RULES E)."""

from __future__ import annotations

from collections.abc import Sequence

import click

from service.domain.board import DEFAULT_HEIGHT, DEFAULT_WIDTH, MAX_HEIGHT, MAX_WIDTH, MIN_SIZE
from service.domain.ranking import MAIN, TABLES, ranks, table_levels
from service.domain.start import LEVELS
from service.ops.times import human_utc
from service.services import HighScore

from .context import AppContext, pass_app
from .output import INT32_MAX, INT32_MIN, echo_json, require_yes, table

# Marks of the entries whose game may have been assisted (played before hints were
# recorded) and of RULES E2's default entries.
NOT_RECORDED = "*"


def high_score_table(entries: Sequence[HighScore]) -> str:
    """`entries` in their table's order, each ranked within its level (`ranking.ranks`)."""
    rows = [
        (rank, e.name + (NOT_RECORDED if not e.hints_recorded else ""), e.score,
         e.difficulty, human_utc(e.created_at), _game(e), e.id)
        for rank, e in zip(ranks(e.level for e in entries), entries, strict=True)
    ]
    text = table(("#", "name", "score", "difficulty", "date", "game", "id"), rows,
                 align_right=(0, 2, 6))
    if any(not e.hints_recorded for e in entries):
        text += f"\n{NOT_RECORDED} played before hints were recorded"
    return text


def _game(entry: HighScore) -> str:
    if entry.source == "original":
        return "the original game"
    return entry.game_id or "-"


def table_options(command: click.decorators.FC) -> click.decorators.FC:
    """--mode, --height, --width: which table (RULES E1, M2), the main table of the
    default field unless told."""
    command = click.option("--mode", type=click.Choice(TABLES), default=MAIN,
                           show_default=True, help="Whose table: games against the "
                           "computer, or of two humans (on one screen, online).")(command)
    command = click.option("--width", type=click.IntRange(MIN_SIZE, MAX_WIDTH),
                           default=DEFAULT_WIDTH, show_default=True)(command)
    return click.option("--height", type=click.IntRange(MIN_SIZE, MAX_HEIGHT),
                        default=DEFAULT_HEIGHT, show_default=True,
                        help="The field size: one table per size.")(command)


@click.group()
def highscores() -> None:
    """Show and edit the high score tables (one per mode and field size)."""


@highscores.command("list")
@click.option("--limit", type=click.IntRange(1, 10_000), default=10, show_default=True)
@table_options
@click.option("--level", type=click.Choice(LEVELS), default=None,
              help="Only the games against the computer at this level (the main table "
                   "only).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@pass_app
def list_high_scores(app: AppContext, limit: int, height: int, width: int, mode: str,
                     level: str | None, as_json: bool) -> None:
    """The best scores of one table: in the main table each level of the computer
    apart, the hardest first, then the entries without a level (# counts within each)."""
    if level is not None and not table_levels(mode):
        raise click.BadParameter("only the table against the computer has levels",
                                 param_hint="--level")
    with app.services() as services:
        entries = services.queries.high_scores(limit, height=height, width=width, mode=mode,
                                               level=level)
    if as_json:
        echo_json(entries)
    elif entries:
        click.echo(high_score_table(entries))
    else:
        at = f" at {level}" if level else ""
        click.echo(f"the {mode} table of {height} x {width}{at} is empty")


@highscores.command(context_settings={"ignore_unknown_options": True})
@click.argument("name")
@click.argument("score", type=click.IntRange(INT32_MIN, INT32_MAX))
@click.option("--difficulty", default="manual", show_default=True)
@table_options
@pass_app
def add(app: AppContext, name: str, score: int, difficulty: str, height: int, width: int,
        mode: str) -> None:
    """Add an entry by hand (SCORE may be negative; a 32-bit integer)."""
    with app.services() as services:
        entry = services.admin.add_high_score(name, score, difficulty, height=height, width=width,
                                        mode=mode)
    click.echo(f"added high score {entry.id}: {entry.name} {entry.score}")


@highscores.command()
@click.argument("entry_id", metavar="ID", type=click.IntRange(1, INT32_MAX))
@click.option("--yes", is_flag=True, help="Confirm the deletion.")
@pass_app
def remove(app: AppContext, entry_id: int, yes: bool) -> None:
    """Remove one entry (ID as shown by `highscores list`)."""
    require_yes(yes)
    with app.services() as services:
        services.admin.remove_high_score(entry_id)
    click.echo(f"removed high score {entry_id}")


@highscores.command()
@click.option("--yes", is_flag=True, help="Confirm: every entry is replaced.")
@pass_app
def reset(app: AppContext, yes: bool) -> None:
    """Back to the default table of RULES E2 (entries from games go too)."""
    require_yes(yes, "reset the high scores")
    with app.services() as services:
        services.admin.reset_high_scores()
        entries = services.queries.high_scores(100)
    click.echo(f"high scores reset to the {len(entries)} default entries")
