"""``squares players forget NAME``: forget a player (`service.services.players`)."""

from __future__ import annotations

import click

from .context import AppContext, pass_app
from .output import echo_json, human_utc


@click.group()
def players() -> None:
    """Players: forget one."""


@players.command("forget")
@click.argument("name")
@click.option("--yes", is_flag=True, help="Do not ask for confirmation.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@pass_app
def forget(app: AppContext, name: str, yes: bool, as_json: bool) -> None:
    """Forget the player NAME (any way of writing it): every page, answer, export and
    high score row shows a placeholder instead, their passkeys and sessions are
    deleted, and the name stays out of everyone's reach for
    SQUARES_FORGOTTEN_NAME_HOLD. Their games still replay and verify."""
    if not yes:
        click.confirm(f"Forget {name!r} everywhere? This cannot be undone", abort=True)
    with app.services() as services:
        done = services.players.forget(name)
    if as_json:
        echo_json({"placeholders": done.placeholders, "free_at": done.free_at})
        return
    click.echo(f"forgotten: now shown as {', '.join(done.placeholders)}; "
               f"the name is free again from {human_utc(done.free_at)}")
