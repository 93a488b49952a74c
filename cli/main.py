"""The `squares` click group."""

from __future__ import annotations

import click


@click.group()
def cli() -> None:
    """Squares: run and manage the game service."""


@cli.command()
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=5000, show_default=True, type=int)
def serve(host: str, port: int) -> None:
    """Serve the game over HTTP."""
    from service.app import create_app

    create_app().run(host=host, port=port)
