"""``squares review``: catch the game reviews up, rebuild them, or follow the games."""

from __future__ import annotations

import signal
import sys
import threading
from types import FrameType
from typing import Any

import click

from service.projections.analyst import LEASE_S, Analyst, Step
from service.projections.catch_up import review_all, reviews_pending

from .context import AppContext, pass_app


@click.command()
@click.option("--all", "catch_up", is_flag=True,
              help="Review every ended game not reviewed yet (the default).")
@click.option("--rebuild", is_flag=True,
              help="Forget every review and compute them all again.")
@click.option("--follow", is_flag=True,
              help="Keep reviewing games as they end, until stopped (what `squares serve` "
                   "does in the background).")
@click.option("--lease", "lease_s", type=click.FloatRange(0.5, 3600), default=LEASE_S,
              show_default=True,
              help="Seconds a stopped analyst keeps the others waiting (its lease).")
@pass_app
def review(app: AppContext, catch_up: bool, rebuild: bool, follow: bool,
           lease_s: float) -> None:
    """Review ended games: per turn, the best stage 1 against what was played and
    what each stage-2 line gave away (see GET /api/games/<id>/analysis).

    One analyst works at a time: while a running server's analyst holds the lease,
    it does the work and this command says so.
    """
    if follow and (rebuild or catch_up):
        raise click.UsageError("--follow runs alone: it catches up first anyway")
    with app.services() as services:
        if follow:
            _follow(Analyst(services.store, lease_s=lease_s))
            return
        if rebuild:
            removed = Analyst(services.store).rebuild()
            click.echo(f"forgot {removed} review{'' if removed == 1 else 's'}; reviewing "
                       "every ended game again", err=True)
        pending = reviews_pending(services.store)
        with click.progressbar(length=pending, label="reviewing", file=sys.stderr,
                               show_pos=True) as bar:
            def progress(step: Step) -> None:
                if step in (Step.REVIEWED, Step.FAILED, Step.SKIPPED):
                    bar.update(1)

            reviewed, waiting = review_all(services.store, progress, lease_s=lease_s)
        left = reviews_pending(services.store)
    if waiting:
        click.echo("another analyst (a running server's) holds the lease and reviews the "
                   f"{left} game{'' if left == 1 else 's'} left", err=True)
    click.echo(f"reviewed {reviewed} game{'' if reviewed == 1 else 's'}")


def _follow(analyst: Analyst) -> None:
    stop = threading.Event()

    def on_signal(signum: int, frame: FrameType | None) -> None:
        stop.set()

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    click.echo(f"following the games as {analyst.holder} (Ctrl-C stops)", err=True)
    analyst.run(stop)


def summary_lines(names: tuple[str, str], body: dict[str, Any]) -> list[str]:
    """The seats' review summaries, for `squares games show`."""
    if "error" in body:
        return [f"  {body['error']}"]
    lines = []
    for seat, name in zip(body["seats"], names, strict=True):
        if seat["accuracy"] is None:
            lines.append(f"  {name}: no whole turn played")
            continue
        lines.append(f"  {name}: accuracy {seat['accuracy']} %, stage 1 took {seat['gained']} "
                     f"of {seat['best']}, gave away {seat['given_away']}, luck "
                     f"{seat['luck']:+d}")
        for m in seat["mistakes"]:
            better = " ".join(f"({x},{y})" for x, y in m["better"])
            what = "stage 1" if m["stage"] == 1 else "stage-2 line"
            lines.append(f"    round {m['round']} (step {m['start_seq']}): {what} lost "
                         f"{m['lost']}; better {better}")
    if not body["exact"]:
        approximate = sum(1 for t in body["turns"] if not t.get("exact", True))
        lines.append(f"  ({approximate} turns approximate: their searches stopped at the "
                     "review's work budget, so their best is the best found)")
    return lines
