"""The live feed: games followed as they are played, as Server-Sent Events.

The streams server (`service.serve.streams_server`, a process of its own) holds the
open streams: `app` (its ASGI app: checks, refusals, the answer's head), `hub` (the
body of each stream, and what they share), `feed` (one database watcher per process),
`reads` (one read per game and wake-up), `pages` (the SSE text of a game's events),
`sse` (a stream's text), `viewers` (spectator counts over every process) and `slots`
(stream caps). `streams.create_streams_app` puts them together.

The Flask app's ``/api/games/{id}/live`` (``service/api/feed.py``) only answers the
events so far and a ``retry:``: a stream held there would hold one of its threads.
"""
