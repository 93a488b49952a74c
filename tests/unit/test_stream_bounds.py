"""Bounded import parsing (issue 23, item 7): `export_format.parse_lines` reads a binary
stream line by line within caps derived from the largest legal game, refuses the
first line that breaks one, and reads nothing after it."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator

import pytest

from service.domain import export_bounds, export_format
from service.domain.board import MAX_HEIGHT, MAX_WIDTH, MIN_SIZE, geometry
from service.domain.commands import NewGame
from service.domain.event_codec import event_to_json
from service.domain.events import (
    Event,
    GameAbandoned,
    GameOver,
    HighScoreEntry,
    HighScoresEntered,
    HintUsed,
    LinePlaced,
    MoveExplained,
    PieceInserted,
    SeatClaimed,
    SeedRevealed,
    StageAdvanced,
)
from service.domain.export_bounds import (
    MAX_DEPTH,
    MAX_EVENTS,
    MAX_INT_DIGITS,
    MAX_LINE_BYTES,
    MAX_STREAM_BYTES,
)
from service.domain.export_format import StreamRefused, parse_lines, parse_stream
from service.domain.names import NAME_MAX
from service.domain.pieces import MAX_TRIES
from service.domain.random_lines import RULES_EDITION, initial_line_count
from service.domain.rules import PENALTY
from service.domain.signing import sign
from service.domain.start import start_game

ABANDONED = event_to_json(GameAbandoned("idle"))
# the longest name, each character 4 UTF-8 bytes and a 12-byte JSON escape
LONG_NAME = "\U00020000" * NAME_MAX


def _refusal(data: bytes) -> StreamRefused:
    with pytest.raises(StreamRefused) as caught:
        parse_lines(io.BytesIO(data))
    return caught.value


def _line_of(raw: object) -> bytes:
    return json.dumps(raw).encode() + b"\n"


class CountingReader:
    """A binary stream of endless lines that counts the lines handed out."""

    def __init__(self, lines: Iterator[bytes]) -> None:
        self.lines = lines
        self.served = 0

    def readline(self, size: int = -1, /) -> bytes:
        self.served += 1
        line = next(self.lines)
        return line if size < 0 else line[:size]


def _endless(first: bytes, then: bytes) -> Iterator[bytes]:
    yield first
    while True:
        yield then


# -- the caps are derived from the largest field ----------------------------------------
def test_the_event_cap_counts_every_event_a_turn_can_have() -> None:
    g = geometry(MAX_HEIGHT, MAX_WIDTH)
    slots = len(g.inner_slots) - initial_line_count(g, RULES_EDITION)
    assert export_bounds.open_slots() == slots == 1013  # the same by every rules edition
    # game_created, seat_claimed, hint_used; the turns; the three ending events
    assert MAX_EVENTS == export_bounds.most_events() == 3 + slots + slots * 8 + 3
    assert export_bounds.most_events(MIN_SIZE, MIN_SIZE) < MAX_EVENTS


def _largest_created() -> Event:
    (created,) = start_game(NewGame(seed="f" * 32, player_name=LONG_NAME,
                                    second_name=LONG_NAME, mode="two_players",
                                    height=MAX_HEIGHT, width=MAX_WIDTH, ranked=True))
    return created


def test_the_line_cap_is_four_times_the_largest_game_created_written_loosely() -> None:
    loose = json.dumps(_largest_created().to_dict())  # spaced, every name escaped
    assert len(event_to_json(_largest_created()).encode()) < len(loose)
    assert len(loose) < export_bounds.largest_event_bytes()
    assert 4 * export_bounds.largest_event_bytes() == MAX_LINE_BYTES


def _canonical_bytes(event: Event) -> int:
    return len(event_to_json(event).encode()) + 1


def test_each_kind_of_event_fits_its_size_in_the_stream_cap() -> None:
    x, y = MAX_WIDTH - 1, MAX_HEIGHT - 1
    box = (x - 1, y - 1)
    turns = export_bounds.open_slots()
    reason = ("exhaustive search of 20000 paths from 1013 starts; of the best, the one "
              "leaving the least to give away (search budget reached; hard's random "
              "walks added)")
    largest = {
        export_bounds.LINE_PLACED_BYTES: LinePlaced(2, x, y, 1, ((*box, "P"),) * 2, PENALTY),
        export_bounds.STAGE_ADVANCED_BYTES: StageAdvanced(2, 2, 2, turns, "irregular_square"),
        export_bounds.PIECE_INSERTED_BYTES: PieceInserted(2, 3, ((4, 4),) * 3, ((x, y),) * 3,
                                                          MAX_TRIES, False, (box,) * 6),
        export_bounds.MOVE_EXPLAINED_BYTES: MoveExplained(2, 1, "moderate", -9999, *box, (),
                                                          turns, 20000, reason),
    }
    for allowance, event in largest.items():
        assert _canonical_bytes(event) <= allowance, event.TYPE
    entry = HighScoreEntry(2, LONG_NAME, -9999, "computer_vs_computer")
    ending = [SeatClaimed(2, LONG_NAME), HintUsed(2), GameOver((-9999, -9999), (800, 800), 800, 2),
              SeedRevealed("f" * 32), HighScoresEntered((entry, entry))]
    loosely = sum(len(json.dumps(e.to_dict())) + 1 for e in ending)  # names escaped
    assert loosely <= export_bounds.ENDING_BYTES
    signed = export_format.to_jsonl([], sign([], b"k" * 32))  # the signature line alone
    assert len(signed.encode()) <= export_bounds.SIGNATURE_BYTES
    assert MAX_STREAM_BYTES == export_bounds.most_stream_bytes() > MAX_EVENTS * 200


# -- reading stops at the first bad line -------------------------------------------------
def test_a_stream_past_the_event_cap_is_refused_at_the_cap_unread_beyond() -> None:
    first = event_to_json(_largest_created()).encode() + b"\n"
    reader = CountingReader(_endless(first, ABANDONED.encode() + b"\n"))
    with pytest.raises(StreamRefused) as caught:
        parse_lines(reader)
    assert caught.value.details["line"] == MAX_EVENTS + 1
    assert "more than" in caught.value.details["reason"]
    assert reader.served == MAX_EVENTS + 1


def test_a_bad_line_is_the_last_line_read() -> None:
    lines = iter([ABANDONED.encode() + b"\n", b"{oops\n", *[b"x\n"] * 10])
    reader = CountingReader(lines)
    with pytest.raises(StreamRefused) as caught:
        parse_lines(reader)
    assert caught.value.details["line"] == 2 and reader.served == 2


def test_a_stream_past_the_byte_cap_is_refused_at_the_line_that_crosses_it() -> None:
    padded = (ABANDONED[:-1] + " " * (MAX_LINE_BYTES - len(ABANDONED)) + "}").encode()
    assert len(padded) == MAX_LINE_BYTES
    reader = CountingReader(_endless(padded + b"\n", padded + b"\n"))
    with pytest.raises(StreamRefused) as caught:
        parse_lines(reader)
    crossing = MAX_STREAM_BYTES // (MAX_LINE_BYTES + 1) + 1
    assert caught.value.details["line"] == crossing == reader.served
    assert f"passes {MAX_STREAM_BYTES} bytes" in caught.value.details["reason"]


def test_a_line_may_be_as_long_as_the_cap_and_no_longer() -> None:
    padded = ABANDONED[:-1] + " " * (MAX_LINE_BYTES - len(ABANDONED)) + "}"
    assert parse_lines(io.BytesIO(padded.encode() + b"\r\n")) == [GameAbandoned("idle")]
    error = _refusal(padded.encode() + b" \n")
    assert error.details["line"] == 1 and "longer than" in error.details["reason"]
    error = _refusal(ABANDONED.encode() + b"\n" + b"[" * (10 * MAX_LINE_BYTES))
    assert error.details["line"] == 2 and "longer than" in error.details["reason"]


# -- what a line may hold ----------------------------------------------------------------
def _event_raw(**changes: object) -> dict[str, object]:
    return {**json.loads(ABANDONED), **changes}


@pytest.mark.parametrize(("raw", "reason"), [
    (_event_raw(extra=1), "exactly the keys"),
    ({"type": "game_abandoned", "data": {"reason": "idle"}}, "exactly the keys"),
    (_event_raw(v="1"), "v an integer"),
    (_event_raw(v=True), "v an integer"),
    (_event_raw(type=["game_abandoned"]), "type is text"),
    (_event_raw(data=[["reason", "idle"]]), "data is a JSON object"),
    (_event_raw(data={"reason": "idle", "why": 1}), "malformed game_abandoned"),
])
def test_an_event_line_has_exactly_type_v_and_data(raw: dict[str, object],
                                                     reason: str) -> None:
    error = _refusal(ABANDONED.encode() + b"\n" + _line_of(raw))
    assert error.details["line"] == 2 and reason in error.details["reason"]


@pytest.mark.parametrize(("text", "reason"), [
    ('{"type":"game_abandoned","type":"x","v":1,"data":{"reason":"idle"}}', "twice"),
    ('{"type":"game_over","v":1,"data":{"scores":[NaN,0]}}', "NaN is not"),
    ('{"type":"game_over","v":1,"data":{"scores":[-Infinity,0]}}', "-Infinity is not"),
    ('{"type":"game_over","v":1,"data":{"scores":[1.5,0]}}', "not an integer"),
    ('{"type":"game_over","v":1,"data":{"scores":[1e400,0]}}', "not an integer"),
    ('{"type":"game_over","v":1,"data":{"winner":-' + "9" * 21 + "}}", "21 digits"),
    ('{"type":"game_over","v":1,"data":{"winner":' + "9" * 10_000 + "}}", "10000 digits"),
])
def test_numbers_and_keys_json_would_take_but_no_event_holds(text: str, reason: str) -> None:
    error = _refusal(text.encode() + b"\n")
    assert error.details["line"] == 1 and reason in error.details["reason"]


def test_integers_of_up_to_the_digit_cap_are_taken() -> None:
    big = int("9" * MAX_INT_DIGITS)
    over = GameOver((-big, big), (0, 0), 0, 0)
    assert parse_stream(event_to_json(over) + "\n") == [over]


def test_nesting_is_refused_before_json_recurses_into_it() -> None:
    ok = "[" * MAX_DEPTH + "]" * MAX_DEPTH
    assert "not a JSON object" in _refusal(ok.encode()).details["reason"]
    for depth in (MAX_DEPTH + 1, MAX_LINE_BYTES // 2):
        error = _refusal(("[" * depth + "]" * depth).encode())
        assert error.details["line"] == 1 and "nested deeper" in error.details["reason"]


@pytest.mark.parametrize("name", ["[" * 40, '{[\\"[[[[[[[[[[', "\\\\" + "[" * 20])
def test_brackets_inside_strings_do_not_count(name: str) -> None:
    line = '{"type":"seat_claimed","v":1,"data":{"seat":2,"name":"' + name + '"}}'
    (claimed,) = parse_stream(line + "\n")
    assert claimed == SeatClaimed(2, json.loads(f'"{name}"'))


def test_an_unterminated_string_of_escapes_is_scanned_in_one_pass() -> None:
    line = '{"x":"' + '\\"[' * (MAX_LINE_BYTES // 3 - 4)
    assert "not JSON" in _refusal(line.encode()).details["reason"]


# -- lines and text ----------------------------------------------------------------------
def test_blank_lines_may_end_a_stream_only() -> None:
    assert parse_stream(ABANDONED + "\r\n\n  \n") == [GameAbandoned("idle")]
    error = _refusal(f"{ABANDONED}\n\n \n{ABANDONED}\n".encode())
    assert error.details == {"line": 2, "reason": "empty line"}
    assert _refusal(b"\n \n").details == {"line": 1, "reason": "the stream is empty"}


def test_a_line_that_is_not_utf8_is_refused_at_its_number() -> None:
    error = _refusal(ABANDONED.encode() + b"\n" + b'{"type":"\xff"}\n')
    assert error.details["line"] == 2
    assert "is not UTF-8 text" in error.details["reason"] and "byte 10" in error.details["reason"]


def test_a_text_parses_as_its_utf8_bytes_do() -> None:
    line = '{"type":"seat_claimed","v":1,"data":{"seat":2,"name":"Gülşen İnce"}}'
    text = f"{ABANDONED}\n{line}\n"
    assert parse_stream(text) == parse_lines(io.BytesIO(text.encode()))
    assert parse_stream(text)[1] == SeatClaimed(2, "Gülşen İnce")


def test_every_refusal_is_one_short_line() -> None:
    long_key = "k" * (MAX_LINE_BYTES // 2)
    error = _refusal(_line_of({long_key: 1, "type": 1, "v": 1}))
    assert "\n" not in error.message and len(error.message) < 400
