"""The browser pages: play (`/`, `/play/<id>`), how to play, replays (`/games`,
`/games/<id>`), high scores and spectating (`/live`, its rows as `/live.json` for
the page's poll, and `/watch/<id>`), and each player's page (`/players/<name>`).

Pages are rendered by Jinja (autoescaped: names always show as text) and brought
to life by a little plain JavaScript that talks to the JSON API under ``/api``.
The list pages call the service layer directly. Every asset is served from this
package; nothing is loaded from the network.
"""

from . import highscores, pages, players  # noqa: F401  (their pages register on bp)
from .blueprint import bp

__all__ = ["bp"]
