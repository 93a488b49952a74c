"""What every request of the Flask app passes through, in one hook before its view and
one after (Flask looks at every hook on every request, so one each is cheaper than a
hook per concern):

- before: the time it started (for the access line), the request's host (a host the
  service does not answer to is a 400 before anything else: `service.ops.hosts`),
  a write with the session cookie from another site (`cross_site`), the rate limit
  (`limits`);
- after: the rate limit's headers, the security headers and ``Connection: close``
  after an unread body (`headers`), ``Vary`` on a translated answer (`language`), then the request id, the metrics and the access
  line (`access_log`), last, so that they see the answer as it leaves.

The API's own checks of a request body stay on its blueprint (`api.blueprint`).
"""

from __future__ import annotations

import time

from flask import Flask, Response, g, request
from werkzeug.exceptions import SecurityError

from ..ops import hosts, settings
from ..protocol import access_log, headers
from . import cross_site, language
from .limits import RateLimits


def init_app(app: Flask, limits: RateLimits) -> None:
    trusted_hosts = settings.of_app(app).trusted_hosts

    def before() -> None:
        g.squares_started = time.perf_counter()
        if not trusted_hosts.allows(request.host):  # after ProxyFix: the forwarded host
            raise SecurityError(hosts.REFUSED)
        cross_site.check()
        limits.check()

    def after(response: Response) -> Response:
        limits.add_headers(response)
        headers.add_security_headers(response)
        headers.close_after_unread_body(response)
        language.add_vary(response)
        access_log.finish(response)
        return response

    app.before_request(before)
    app.after_request(after)
