"""How ``squares serve`` runs the service on one node: processes of supported servers,
each with one job, started and stopped together by `supervisor`.

- the **app server** (`app_server`): granian, a Rust HTTP server, runs the Flask app
  (pages and the JSON API) on a few worker processes, one request at a time in each;
- the **streams server** (`streams_server`): granian runs the live feed's ASGI app
  (`service.live.app`) on one worker process, one event loop holding every open
  stream of the node;
- the **analyst** (`analyst_process`): reviews the games that end, at a lower CPU
  priority, never on a request thread;
- the **metrics server** (`metrics_server`, when ``SQUARES_METRICS_PORT`` is set):
  the sum of every process's Prometheus metrics, on a port of its own.

Behind the proxy (``deploy/nginx.conf``) one origin serves all: ``/api/games/*/live``
goes to the streams server, the rest to the app server. Run bare (``./dev run``),
the streams server has a port of its own, which the pages are told
(``SQUARES_LIVE_URL``, `live_url`).
"""
