"""nginx's own answers (deploy/nginx.conf, when the app is away) are written by hand:
they must carry the headers every answer of the app carries and the API's one error
shape, both built in `service.protocol.answers`."""

from __future__ import annotations

import json
import re
from pathlib import Path

from service.protocol.answers import error_body
from service.protocol.headers import SECURITY_HEADERS

NGINX_CONF = Path(__file__).resolve().parents[2] / "deploy" / "nginx.conf"


def _locations() -> dict[str, str]:
    text = NGINX_CONF.read_text()
    return dict(re.findall(r"location (@\w+) \{(.*?)\n        \}", text, re.S))


def _headers(block: str) -> dict[str, str]:
    found = re.findall(r'add_header ([\w-]+) ("[^"]*"|\S+) always;', block)
    return {name: value.strip('"') for name, value in found}


def test_nginx_answers_carry_the_apps_security_headers() -> None:
    locations = _locations()
    assert {"@api_unavailable", "@page_unavailable"} <= set(locations)
    for name in ("@api_unavailable", "@page_unavailable"):
        headers = _headers(locations[name])
        assert {k: headers.get(k) for k in SECURITY_HEADERS} == SECURITY_HEADERS, name


def test_nginx_api_answer_is_the_error_shape() -> None:
    block = _locations()["@api_unavailable"]
    body = re.search(r"return 503 '(.*)\\n';", block)
    assert body is not None
    answer = json.loads(body.group(1))
    assert answer == error_body("unavailable", answer["error"]["message"])
