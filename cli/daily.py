"""``squares daily show [DATE]`` and ``squares daily verify DATE``: the daily
challenge of a date (`service.services.daily`), and the check that its revealed seed
is the one its games committed to and that each of them replays from it."""

from __future__ import annotations

from datetime import date, datetime

import click

from .context import AppContext, pass_app
from .maintenance import problem_line
from .output import CliFailure, echo_json, human_utc


class DateType(click.ParamType):
    """A UTC date, YYYY-MM-DD."""

    name = "DATE"

    def convert(self, value: object, param: click.Parameter | None,
                ctx: click.Context | None) -> date:
        if isinstance(value, date):
            return value
        text = str(value)
        try:
            if len(text) == 10 and text.isascii():
                return date.fromisoformat(text)
        except ValueError:
            pass
        self.fail(f"{text!r} is no date (YYYY-MM-DD)", param, ctx)


DATE = DateType()


@click.group()
def daily() -> None:
    """The daily challenge: one game a UTC date, the same for every player."""


@daily.command("show")
@click.argument("day", metavar="[DATE]", type=DATE, required=False)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@pass_app
def show(app: AppContext, day: date | None, as_json: bool) -> None:
    """A date's challenge (default: today, UTC): the commitment to its seed, the seed
    once the date is over, and its ranking (today's so far)."""
    with app.services() as services:
        found = services.daily.day(day)
    if as_json:
        echo_json({"date": found.date.isoformat(), "commitment": found.commitment,
                   "seed": found.seed, "over": found.over,
                   "ranking": [{"place": e.place, "name": e.name, "score": e.score,
                                "game_id": e.game_id, "ended_at": e.ended_at}
                               for e in found.ranking],
                   "ranked_players": found.ranked_players,
                   "practice_games": found.practice_games,
                   "best_game_id": found.best_game_id})
        return
    click.echo(f"daily challenge of {found.date.isoformat()}"
               + (" (over)" if found.over else " (today)"))
    click.echo(f"commitment: {found.commitment}")
    click.echo(f"seed: {found.seed if found.seed is not None else 'secret until the date is over'}")
    click.echo(f"{found.ranked_players} ranked, {found.practice_games} practice")
    for entry in found.ranking:
        click.echo(f"{entry.place:>4}. {entry.name}  {entry.score}  {entry.game_id}  "
                   f"{_ended(entry.ended_at)}")


def _ended(moment: datetime | None) -> str:
    return "still running at midnight" if moment is None else human_utc(moment)


@daily.command("verify")
@click.argument("day", metavar="DATE", type=DATE)
@pass_app
def verify(app: AppContext, day: date) -> None:
    """Check a date that is over: its seed (derived from the daily secret) against the
    commitment each of its stored games carries, and every one of them replayed from
    that seed and checked as ``squares verify`` checks a game; exit 1 on a problem."""
    with app.services() as services:
        check = services.daily.verify(day)
    click.echo(f"seed of {check.date.isoformat()}: {check.seed}")
    click.echo(f"commitment: {check.commitment}")
    for problem in check.problems:
        click.echo(problem_line(problem))
    if not check.reveal_matches or check.problems:
        raise CliFailure(f"{len(check.problems)} problem"
                         f"{'s' if len(check.problems) != 1 else ''} in the daily games of "
                         f"{check.date.isoformat()}")
    click.echo(f"ok: the seed matches its commitment; {check.games} daily "
               f"game{'s' if check.games != 1 else ''} replayed from it")
