"""``squares verify`` and ``squares rebuild``: check and repair the read model."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import click

from service.services import Problem

from .context import AppContext, pass_app
from .games import signature_text
from .output import CliFailure, echo_json


def one_or_all(game_id: str | None, all_games: bool) -> str | None:
    """The game to work on (None: all of them); exactly one of ID / --all."""
    if (game_id is None) == (not all_games):
        raise CliFailure("give either a game ID or --all", exit_code=2)
    return game_id


def problem_line(problem: Problem) -> str:
    return f"{problem.game_id}: {problem.kind}: {problem.message}"


@click.command()
@click.argument("game_id", metavar="[ID]", required=False)
@click.option("--all", "all_games", is_flag=True, help="Verify every game.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@pass_app
def verify(app: AppContext, game_id: str | None, all_games: bool, as_json: bool) -> None:
    """Fold event streams from scratch, re-deriving every random outcome from the
    seed, and compare them with the read model and the high scores; exit 1 when any
    problem is found. Also lists games waiting on the computer's turn."""
    target = one_or_all(game_id, all_games)
    with app.services() as services:
        problems = services.admin.verify(target)
        checked = 1 if target is not None else services.queries.list_games(limit=1)[1]
        waiting = [w for w in services.admin.waiting_on_computer()
                   if target is None or w.game_id == target]
        signatures = ([] if any(p.kind == "game_not_found" for p in problems)
                      else services.admin.signature_reports(target))
    if as_json:
        echo_json({"ok": not problems, "games": checked, "problems": problems,
                   "waiting_on_computer": waiting, "signatures": signatures})
    else:
        for problem in problems:
            click.echo(problem_line(problem))
        for game in waiting:
            click.echo(f"{game.game_id}: waiting on the computer (seat {game.seat}, "
                       f"{game.level}); the next command or read of the game plays it")
        for report in signatures:  # each import's, or the one game's
            click.echo(f"{report.game_id}: {signature_text(report)}")
    if problems:
        bad = len({p.game_id for p in problems})
        raise CliFailure(f"{len(problems)} problem{'s' if len(problems) != 1 else ''} "
                         f"in {bad} game{'s' if bad != 1 else ''}")
    if not as_json:
        click.echo(f"ok: {checked} game{'s' if checked != 1 else ''} verified")


class _Progress:
    """A click progress bar on stderr, opened at the first callback (when the
    total is known)."""

    def __init__(self, label: str) -> None:
        self.label = label
        self.bar: Any = None
        self.done = 0

    def __call__(self, done: int, total: int) -> None:
        if self.bar is None:
            self.bar = click.progressbar(length=total, label=self.label,
                                         file=sys.stderr)
            self.bar.__enter__()
        self.bar.update(done - self.done)
        self.done = done

    def close(self) -> None:
        if self.bar is not None:
            self.bar.__exit__(None, None, None)


@contextmanager
def progress(label: str) -> Iterator[_Progress]:
    bar = _Progress(label)
    try:
        yield bar
    finally:
        bar.close()


@click.command()
@click.argument("game_id", metavar="[ID]", required=False)
@click.option("--all", "all_games", is_flag=True, help="Rebuild every game's row.")
@pass_app
def rebuild(app: AppContext, game_id: str | None, all_games: bool) -> None:
    """Rewrite the games read model from the events."""
    target = one_or_all(game_id, all_games)
    with app.services() as services, progress("rebuilding") as bar:
        written = services.admin.rebuild_read_model(target, progress=bar)
    click.echo(f"rebuilt {written} game row{'' if written == 1 else 's'}")
