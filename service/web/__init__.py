"""The browser pages: play (`/`, `/play/<id>`), how to play, replays (`/games`,
`/games/<id>`), high scores and spectating (`/live`, its rows as `/live.json` for
the page's poll, and `/watch/<id>`), each player's page (`/players/<name>`), and
the account page (`/account`: passkeys) and the daily challenge (`/daily`).

Pages are rendered by Jinja (autoescaped: names always show as text) and brought
to life by a little plain JavaScript that talks to the JSON API under ``/api``.
The list pages call the service layer directly. Every asset is served from this
package; nothing is loaded from the network.
"""

# they register on bp
from . import account, daily, highscores, pages, players, ratings, script_strings  # noqa: F401
from .blueprint import bp

__all__ = ["bp"]
