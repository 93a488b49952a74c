"""``squares games``: list, show, delete, abandon-stale, prune, export and import games."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import click

from service.domain.render import render, render_board
from service.ops.durations import parse_duration
from service.ops.times import human_utc
from service.services import GameSummary, SignatureReport

from .context import AppContext, pass_app
from .output import INT32_MAX, CliFailure, echo_json, require_yes, table
from .review import summary_lines

STATUSES = {"unfinished": "active", "active": "active", "finished": "finished",
            "abandoned": "abandoned", "aborted": "aborted"}


class DurationType(click.ParamType):
    name = "duration"

    def convert(self, value: object, param: click.Parameter | None,
                ctx: click.Context | None) -> timedelta:
        if isinstance(value, timedelta):
            return value
        try:
            return parse_duration(str(value))
        except ValueError as exc:
            self.fail(str(exc), param, ctx)


def signature_text(report: SignatureReport) -> str:
    """Where a stored game comes from, in words (`squares verify`, import)."""
    whose = "this instance" if report.own else f"key {report.key}"
    if report.origin == "here":
        return "played here"
    if report.origin == "signed":
        return (f"ranked: signature valid ({whose})" if report.state == "valid"
                else f"ranked, but its signature is {report.state.replace('_', ' ')} now "
                     f"({whose})")
    why = {"missing": "no signature", "invalid": f"signature invalid ({whose})",
           "unknown_key": f"signed with an unknown key ({report.key})",
           "valid": f"signature valid now ({whose}); imported before it was"}[report.state]
    return f"as an archive game, in no high score table: {why}"


def scores_text(summary: GameSummary) -> str:
    return f"{summary.scores[0]}:{summary.scores[1]}"


def players_text(summary: GameSummary) -> str:
    return f"{summary.player_name} vs {summary.second_name}"


def outcome_text(summary: GameSummary) -> str:
    if summary.status == "abandoned":
        return f"abandoned (round {summary.round}, no result)"
    if summary.status == "aborted":
        return f"aborted (round {summary.round}, no result)"
    if summary.status != "finished":
        return f"active (round {summary.round}, seat {summary.turn}, stage {summary.stage})"
    if summary.winner == 0:
        return "finished, draw"
    winner = summary.player_name if summary.winner == 1 else summary.second_name
    return f"finished, {winner} won"


@click.group()
def games() -> None:
    """List and manage stored games."""


@games.command("list")
@click.option("--status", type=click.Choice(sorted(STATUSES)), default=None,
              help="Only unfinished (active), finished or abandoned games.")
@click.option("--player", metavar="NAME", default=None, help="Either seat's name.")
@click.option("--limit", type=click.IntRange(1, 10_000), default=20, show_default=True)
@click.option("--offset", type=click.IntRange(0, INT32_MAX), default=0, show_default=True)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@pass_app
def list_games(app: AppContext, status: str | None, player: str | None, limit: int,
               offset: int, as_json: bool) -> None:
    """List games, newest first."""
    with app.services() as services:
        found, total = services.queries.list_games(
            status=STATUSES[status] if status else None, player=player,
            limit=limit, offset=offset,
        )
    if as_json:
        echo_json({"total": total, "limit": limit, "offset": offset, "games": found})
        return
    if not found:
        click.echo("no games" if total == 0 else f"no games at offset {offset} (total {total})")
        return
    rows = [
        (g.game_id, players_text(g), g.mode, g.difficulty, g.status, scores_text(g), g.version,
         human_utc(g.created_at))
        for g in found
    ]
    click.echo(table(
        ("id", "player", "mode", "difficulty", "status", "scores", "version", "created"),
        rows, align_right=(6,),
    ))
    click.echo(f"{offset + 1}-{offset + len(found)} of {total} games")


@games.command()
@click.argument("game_id", metavar="ID")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@pass_app
def show(app: AppContext, game_id: str, as_json: bool) -> None:
    """Show a game's summary and its board."""
    with app.services() as services:
        summary, state = services.queries.get_game(game_id)  # a game past its time: abandoned
        analysis = None if summary.status == "active" else services.reviews.analysis(game_id)
    review = analysis.review.body if analysis and analysis.review else None
    if as_json:
        echo_json({"game": summary, "board": render_board(state).split("\n"),
                   "review": review})
        return
    click.echo(f"game       {summary.game_id}")
    click.echo(f"mode       {summary.mode} (difficulty {summary.difficulty})")
    click.echo(f"players    {summary.player_name} (P) vs {summary.second_name} (C)")
    click.echo(f"status     {outcome_text(summary)}")
    click.echo(f"scores     {scores_text(summary)}  squares {summary.squares[0]}:"
               f"{summary.squares[1]}  ownerless {summary.ownerless}")
    click.echo(f"events     {summary.version}")
    click.echo(f"created    {human_utc(summary.created_at)}")
    click.echo(f"finished   {human_utc(summary.finished_at)}")
    if analysis is not None:
        click.echo(f"review     {analysis.status}"
                   + ("" if review else " (squares review --all)"))
        for line in summary_lines((summary.player_name, summary.second_name), review or {}
                                  ) if review else ():
            click.echo(line)
    click.echo("")
    click.echo(render(state, color=True))


@games.command()
@click.argument("game_id", metavar="ID")
@click.option("--yes", is_flag=True, help="Confirm the deletion.")
@pass_app
def delete(app: AppContext, game_id: str, yes: bool) -> None:
    """Delete a game and its events (its high scores stay)."""
    require_yes(yes)
    with app.services() as services:
        services.admin.delete_game(game_id)
    click.echo(f"deleted game {game_id}")


@games.command("abandon-stale")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@pass_app
def abandon_stale(app: AppContext, as_json: bool) -> None:
    """Abandon the games past their time now: untouched for SQUARES_ABANDON_AFTER,
    or online games whose invitation expired unclaimed (the server does it every
    few minutes)."""
    with app.services() as services:
        sweep = services.retention.abandon_stale()
    if as_json:
        echo_json({"abandoned": [{"game_id": g, "reason": r} for g, r in sweep.abandoned],
                   "skipped": sweep.skipped})
        return
    for game_id, reason in sweep.abandoned:
        click.echo(f"{game_id}  {reason}")
    count = len(sweep.abandoned)
    click.echo(f"abandoned {count} game{'' if count == 1 else 's'}")


@games.command()
@click.option("--abandoned-older-than", "abandoned", type=DurationType(), default=None,
              help="Abandoned games, by the age of their abandonment: 45m, 12h, 30d, 2w.")
@click.option("--unfinished-older-than", "unfinished", type=DurationType(), default=None,
              help="Every unfinished game, active or abandoned, by the age of its last "
                   "event.")
@click.option("--yes", is_flag=True, help="Confirm the deletion.")
@pass_app
def prune(app: AppContext, abandoned: timedelta | None, unfinished: timedelta | None,
          yes: bool) -> None:
    """Delete abandoned (or all unfinished) games older than a duration."""
    if abandoned is None and unfinished is None:
        raise click.UsageError("Missing option '--abandoned-older-than' or "
                               "'--unfinished-older-than'.", ctx=click.get_current_context())
    require_yes(yes)
    with app.services() as services:
        if abandoned is not None:
            count = services.retention.prune_abandoned(abandoned)
            click.echo(f"pruned {count} abandoned game{'' if count == 1 else 's'}")
        if unfinished is not None:
            count = services.admin.prune_unfinished(unfinished)
            click.echo(f"pruned {count} unfinished game{'' if count == 1 else 's'}")


@games.command()
@click.argument("game_id", metavar="ID")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write to FILE instead of stdout.")
@pass_app
def export(app: AppContext, game_id: str, output: Path | None) -> None:
    """Export a game's events as JSON Lines."""
    with app.services() as services:
        text = services.admin.export_game(game_id)
    if output is None:
        click.echo(text, nl=False)
        return
    try:
        output.write_bytes(text.encode("utf-8"))
    except OSError as exc:
        raise CliFailure(f"cannot write {output}: {exc.strerror or exc}") from exc
    click.echo(f"wrote {text.count(chr(10))} events to {output}", err=True)


@games.command("import")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, allow_dash=True))
@pass_app
def import_game(app: AppContext, file: str) -> None:
    """Import a JSON Lines export as a new game (read-only); prints its id, and on
    stderr whether it keeps its high score table (a valid signature) or is an archive
    game."""
    # Read line by line: a stream is refused at its first bad line, unread beyond it.
    with click.open_file(file, "rb") as source, app.services() as services:
        new_id = services.admin.import_game(source)
        (report,) = services.admin.signature_reports(new_id)
    click.echo(new_id)
    click.echo(f"imported {signature_text(report)}", err=True)
