"""The integer fields the API's schemas share: in a JSON body an integer is strict
(``5.0`` and ``"5"`` are none), in a query string it is text in ASCII digits
(`AsciiInteger`)."""

from __future__ import annotations

from typing import Any

from marshmallow import fields

from ..protocol.paths import ascii_int


def strict_int(**kwargs: Any) -> fields.Integer:
    return fields.Integer(strict=True, **kwargs)


class AsciiInteger(fields.Integer):
    """An integer written as text (a query string), read by `ascii_int`: ASCII digits
    with an optional leading ``-`` (the field's range then refuses a negative with
    its own message). int() alone would read ``"١٢"`` or ``"１２"`` as 12 and take
    ``"+5"``, ``" 5"`` and ``"5_0"``; here each is a 400 ``invalid_request``."""

    def _validated(self, value: Any) -> int:
        if isinstance(value, str):
            number = ascii_int(value, signed=True)
            if number is None:
                raise self.make_error("invalid", input=value)
            value = number
        return super()._validated(value)


def query_int(**kwargs: Any) -> fields.Integer:
    """An integer in the query string: text, so not strict (``"5"`` is 5, ``"5.5"`` is
    not), in ASCII digits (`AsciiInteger`)."""
    return AsciiInteger(**kwargs)
