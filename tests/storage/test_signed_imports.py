"""RULES E1 (issue 34) for imports, on every backend: an export is signed with the
instance's secret; an import keeps its high score table only with a valid signature
of this instance or of a key its operator lists, and is an archive game otherwise (its
entries kept, ranked nowhere); import runs the API's name checks; `verify` reports
each signature's state."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

from service.domain.commands import NewGame, RuleViolation
from service.domain.export_format import to_jsonl
from service.domain.signing import key_id, sign
from service.errors import InvalidStream
from service.ops.settings import SettingError, Settings
from service.services import Services, export_keys
from squares_testing.greedy import Greedy
from squares_testing.play import play_out, play_unassisted

OTHER_INSTANCE = "the-other-instance-secret-0123456789"


@pytest.fixture(autouse=True)
def own_key_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A key file of this test's own (created on first use), no trusted keys."""
    path = tmp_path / "instance" / "export.key"
    monkeypatch.setenv("SQUARES_EXPORT_KEY_FILE", str(path))
    monkeypatch.delenv("SQUARES_EXPORT_KEY", raising=False)
    monkeypatch.delenv("SQUARES_TRUSTED_EXPORT_KEYS", raising=False)
    return path


def _played(services: Services, name: str = "Ayşe") -> str:
    """A ranked 7 x 9 game played here to its end, no hint: in the main table."""
    created = services.play.create_game(player_name=name, height=7, width=9, difficulty="easy")
    play_unassisted(services, created.game_id, created.token, created.state)
    return created.game_id


def _forged(name: str = "Mallory", seed: str = "chosen by the attacker") -> list:
    """What issue 34 imported: a ranked stream built offline with the domain code, its
    seed the attacker's, its "computer" seat playing whatever the attacker liked."""
    return play_out(NewGame(seed=seed, player_name=name, height=7, width=9,
                            difficulty="hard", ranked=True), Greedy())[0]


def _main_table(services: Services) -> list:
    return services.queries.high_scores(100, height=7, width=9)


def test_rule_E1_an_export_is_signed_and_imports_ranked(services: Services,
                                                        own_key_file: Path) -> None:
    game_id = _played(services)
    exported = services.admin.export_game(game_id)
    signature = json.loads(exported.splitlines()[-1])
    assert signature["type"] == "signature" and signature["data"]["alg"] == "HMAC-SHA256"
    assert signature["data"]["key"] == key_id(own_key_file.read_text().strip().encode())
    [entry] = [h for h in _main_table(services) if h.game_id == game_id]
    services.admin.delete_game(game_id)
    again = services.admin.import_game(exported)
    assert services.queries.get_summary(again).origin == "signed"
    assert [(h.name, h.score, h.ranking) for h in _main_table(services)
            if h.game_id == again] == [(entry.name, entry.score, "vs_computer")]
    [report] = services.admin.signature_reports(again)
    assert (report.origin, report.state, report.own) == ("signed", "valid", True)
    assert services.admin.verify(again) == []


def test_rule_E1_a_forged_stream_imports_as_an_archive_game_in_no_table(
        services: Services) -> None:
    events = _forged()
    for stream in (to_jsonl(events),  # unsigned
                   to_jsonl(events, sign(events, b"a key of the attacker's own"))):
        game_id = services.admin.import_game(stream)
        summary = services.queries.get_summary(game_id)
        assert (summary.origin, summary.status) == ("archive", "finished")
        assert all(h.game_id != game_id for h in _main_table(services))
        with services.store.unit_of_work(write=False) as uow:
            kept = uow.high_scores.of_game(game_id)
        assert [(h.name, h.ranking) for h in kept] == [("Mallory", "archive")]  # kept
        [report] = services.admin.signature_reports(game_id)
        assert report.origin == "archive" and report.state in ("missing", "unknown_key")
        assert services.admin.verify(game_id) == []
        # exported again it stays unsigned: no instance vouches for it by passing it on
        assert '"type":"signature"' not in services.admin.export_game(game_id)
        services.admin.delete_game(game_id)


def test_rule_E1_our_signature_over_changed_events_is_invalid(services: Services) -> None:
    events = _forged()
    signed = sign(events, export_keys.own_secret(services.settings))
    honest = to_jsonl(events, signed)
    changed = _forged(seed="another seed")  # a valid game, but not the signed one
    game_id = services.admin.import_game(to_jsonl(changed, signed))
    assert services.queries.get_summary(game_id).origin == "archive"
    assert services.admin.signature_reports(game_id)[0].state == "invalid"
    services.admin.delete_game(game_id)
    ranked = services.admin.import_game(honest)  # the same events signed: ranked
    assert services.queries.get_summary(ranked).origin == "signed"
    assert [h.name for h in _main_table(services) if h.game_id == ranked] == ["Mallory"]


def test_rule_E1_a_key_the_operator_lists_is_trusted_until_it_is_removed(
        services: Services, monkeypatch: pytest.MonkeyPatch) -> None:
    events = _forged(name="Kerem")
    stream = to_jsonl(events, sign(events, OTHER_INSTANCE.encode()))
    monkeypatch.setenv("SQUARES_TRUSTED_EXPORT_KEYS", f"some-other-key-0000000,{OTHER_INSTANCE}")
    services.settings = Settings.from_env()  # as a process started now reads them
    game_id = services.admin.import_game(stream)
    [report] = services.admin.signature_reports(game_id)
    assert (report.origin, report.state, report.own) == ("signed", "valid", False)
    assert report.key == key_id(OTHER_INSTANCE.encode())
    assert services.admin.verify(game_id) == []
    monkeypatch.delenv("SQUARES_TRUSTED_EXPORT_KEYS")
    services.settings = Settings.from_env()
    [problem] = services.admin.verify(game_id)
    assert problem.kind == "signature" and "unknown key" in problem.message


def test_rule_E1_import_refuses_a_look_alike_of_a_table_name(services: Services) -> None:
    """Issue 34: "Eda Firat" imported beside RULES E2's "Eda Fırat" took the name."""
    events = _forged(name="Eda Firat")
    for stream in (to_jsonl(events), to_jsonl(events, sign(events, export_keys.own_secret(services.settings)))):
        with pytest.raises(RuleViolation) as refused:
            services.admin.import_game(stream)
        assert refused.value.code == "name_confusable"
        assert refused.value.details["existing"] == "Eda Fırat"
    assert services.queries.list_games()[1] == 0
    assert _played(services, "Eda Fırat")  # the real name plays on


@pytest.mark.parametrize(("line", "reason"), [
    ({"type": "signature", "v": 2, "data": {}}, "version 2 is unknown"),
    ({"type": "signature", "v": 1, "data": {"alg": "HMAC-SHA1", "key": "0" * 16,
                                            "mac": "0" * 64}}, "alg is HMAC-SHA256"),
    ({"type": "signature", "v": 1, "data": {"alg": "HMAC-SHA256", "key": "x",
                                            "mac": "0" * 64}}, "16 and its mac 64 hex"),
])
def test_a_malformed_signature_line_is_refused_naming_its_line(
        services: Services, line: dict, reason: str) -> None:
    events = _forged()
    with pytest.raises(InvalidStream) as refused:
        services.admin.import_game(to_jsonl(events) + json.dumps(line) + "\n")
    assert refused.value.details["line"] == len(events) + 1
    assert reason in refused.value.details["reason"]
    signed = to_jsonl(events, sign(events, b"k" * 32))
    with pytest.raises(InvalidStream, match="after the signature"):
        services.admin.import_game(signed + signed.splitlines(keepends=True)[1])
    assert services.queries.list_games()[1] == 0


def test_the_key_file_is_made_once_with_mode_600(own_key_file: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    assert not own_key_file.exists()
    secret = export_keys.own_secret(Settings.from_env())
    assert stat.S_IMODE(own_key_file.stat().st_mode) == 0o600
    assert len(secret) == 64 and export_keys.own_secret(Settings.from_env()) == secret  # kept
    assert [p.name for p in own_key_file.parent.iterdir()] == ["export.key"]
    monkeypatch.setenv("SQUARES_EXPORT_KEY", "a setting for every instance")
    assert export_keys.own_secret(Settings.from_env()) == b"a setting for every instance"
    monkeypatch.setenv("SQUARES_EXPORT_KEY", "short")
    with pytest.raises(SettingError, match="SQUARES_EXPORT_KEY="):
        Settings.from_env()
    assert os.environ["SQUARES_EXPORT_KEY_FILE"] == str(own_key_file)
