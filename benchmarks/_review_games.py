"""What the review benchmark's parts share (`review.py`, `_review_latency.py`): the
games they play and how a figure is marked against its target."""

from __future__ import annotations

MODE = "computer_vs_computer"
# Seat 1 / seat 2; game i plays pairing i mod 6.
PAIRINGS = (("easy", "easy"), ("moderate", "moderate"), ("hard", "hard"),
            ("easy", "hard"), ("hard", "moderate"), ("moderate", "easy"))


def pairing(i: int) -> tuple[str, str]:
    return PAIRINGS[i % len(PAIRINGS)]


def mark(ok: bool | None) -> str:
    return "—" if ok is None else ("PASS" if ok else "MISS")
