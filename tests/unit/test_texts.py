"""`domain.texts.english`: a message is its English text, byte for byte (what the API
answers by default and what the tests compare), and keeps what the HTTP layer needs
to say it in another language (`protocol.messages.said`)."""

from __future__ import annotations

import copy
import pickle

from service.domain.texts import English, english


def test_a_message_is_its_english_text_and_keeps_its_template_and_values() -> None:
    message = english("({x}, {y}) is outside the {width} x {height} field",
                      x=99, y=98, width=9, height=7)
    assert message == "(99, 98) is outside the 9 x 7 field"
    assert isinstance(message, English)
    assert message.template == "({x}, {y}) is outside the {width} x {height} field"
    assert message.values == {"x": 99, "y": 98, "width": 9, "height": 7}
    assert english("no game {game_id!r}", game_id="ab") == "no game 'ab'"


def test_a_message_without_values_is_plain_text() -> None:
    message = english("the game is over")
    assert message == "the game is over" and type(message) is str


def test_a_message_survives_a_copy_and_a_pickle_whole() -> None:
    message = english("it is {name}'s turn", name="Ayşe")
    for again in (copy.deepcopy(message), pickle.loads(pickle.dumps(message))):
        assert again == "it is Ayşe's turn"
        assert isinstance(again, English)
        assert (again.template, again.values) == ("it is {name}'s turn", {"name": "Ayşe"})
