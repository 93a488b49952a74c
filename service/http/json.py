"""The Flask app's JSON answers, written by orjson: a move's answer holds the whole
board, and Python's own encoder took as long as the rest of the view.

`FastJSON` is Flask's documented way to change the JSON library (a `JSONProvider`):
answers are encoded by orjson with the same result as Flask's own provider (compact,
keys in their order, text as UTF-8, dates and dataclasses through Flask's `default`);
request bodies are still decoded by Flask's (the API's parser refuses a key given
twice, `service.api.blueprint`). What orjson cannot write (an integer past 64 bits,
which an error may echo) is written by Python's encoder.
"""

from __future__ import annotations

from typing import Any

import orjson
from flask import Response, current_app
from flask.json.provider import DefaultJSONProvider

OPTIONS = orjson.OPT_NON_STR_KEYS | orjson.OPT_PASSTHROUGH_DATETIME | \
    orjson.OPT_PASSTHROUGH_DATACLASS | orjson.OPT_PASSTHROUGH_SUBCLASS


class FastJSON(DefaultJSONProvider):
    # what Python's encoder writes (the fallback, options only it has) keeps the keys'
    # order too, as orjson does; Flask 3 reads this, not the JSON_SORT_KEYS config
    sort_keys = False

    def dumps(self, obj: Any, **kwargs: Any) -> str:
        if kwargs:  # options only Python's encoder has (indent, sort_keys, ...)
            return super().dumps(obj, **kwargs)
        return self._encode(obj).decode()

    def response(self, *args: Any, **kwargs: Any) -> Response:
        """`flask.jsonify`'s answer: one argument as it is, several as a list, keyword
        arguments as an object."""
        if args and kwargs:
            raise TypeError("jsonify() takes either arguments or keyword arguments")
        obj: Any = (args[0] if len(args) == 1 else list(args)) if args else kwargs
        return current_app.response_class(self._encode(obj), mimetype=self.mimetype)

    def _encode(self, obj: Any) -> bytes:
        try:
            return orjson.dumps(obj, default=self.default, option=OPTIONS)
        except orjson.JSONEncodeError:
            return super().dumps(obj, separators=(",", ":"), ensure_ascii=False).encode()
