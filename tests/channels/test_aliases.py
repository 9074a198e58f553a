"""Aliases learned from answered questions: kept in a YAML file, used next time, said so."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from osprey_desktop.base.errors import ClarificationRequired
from osprey_desktop.capabilities.control_room.channel_finding import find_channels_noted
from osprey_desktop.channels import ChannelDatabase
from osprey_desktop.channels.aliases import AliasStore, learn_from_answer, remember_question


@pytest.fixture
def aliases_file(tmp_path: Path, monkeypatch) -> Path:
    path = tmp_path / "aliases.yaml"
    monkeypatch.setenv("OSPREY_DESKTOP_CHANNEL_ALIASES", str(path))
    return path


def _find(database: ChannelDatabase, text: str, writable: bool = False):
    return find_channels_noted(database, text, writable=writable, max_write_channels=10)


def test_an_answered_question_becomes_an_alias_used_and_named_next_time(
    database: ChannelDatabase, aliases_file: Path
) -> None:
    with pytest.raises(ClarificationRequired) as asked:
        _find(database, "show the main dipole")
    chosen = asked.value.suggestions[1]
    names, _, note = _find(database, f"read {chosen}")
    assert names == [chosen]
    assert "'main dipole' will mean" in note
    saved = yaml.safe_load(aliases_file.read_text())["aliases"]
    assert [(a["phrase"], a["channels"], a["list"]) for a in saved] == [
        ("main dipole", [chosen], database.source)
    ]
    names, phrase, note = _find(database, "what is the main dipole now")
    assert names == [chosen]
    assert "alias" in note and "channels aliases" in note


def test_a_request_that_is_no_answer_teaches_nothing(
    database: ChannelDatabase, aliases_file: Path
) -> None:
    with pytest.raises(ClarificationRequired):
        _find(database, "show the main dipole")
    names, _, note = _find(database, "beam current")  # another question, not the answer
    assert names and "alias" not in note
    assert not aliases_file.exists()


def test_an_item_the_list_lacks_beside_one_it_has_teaches_nothing(
    database: ChannelDatabase, aliases_file: Path
) -> None:
    from osprey_desktop.capabilities.control_room.channel_finding import find_each_target

    # the list has no cavity temperature; the nearest it offers is the RF voltage named beside
    text = "the temperature of cavity 2 and the RF voltage readback"
    names, note = find_each_target(
        database, ["the temperature of cavity 2", "the RF voltage readback"], text
    )
    assert names == ["SR:RF:Voltage:RB"]
    assert "No channel found for 'the temperature of cavity 2'" in note
    assert "alias" not in note
    assert not aliases_file.exists()


def test_which_of_several_devices_a_write_means_is_not_learned(
    database: ChannelDatabase, aliases_file: Path
) -> None:
    with pytest.raises(ClarificationRequired) as asked:
        _find(database, "set the horizontal corrector in sector 3 to 1 A", writable=True)
    _find(database, f"set {asked.value.suggestions[0]} to 1 A", writable=True)
    assert not aliases_file.exists()


def test_an_alias_belongs_to_the_list_it_was_learned_on(aliases_file: Path) -> None:
    store = AliasStore.default()
    remember_question("main dipole", ["SR:B:1"], "a.json")
    assert learn_from_answer(["SR:B:1"], "b.json", store) is None  # another list's question
    remember_question("main dipole", ["SR:B:1"], "a.json")
    assert learn_from_answer(["SR:B:1"], "a.json", store) is not None
    assert store.lookup("Main  Dipole", "a.json") is not None
    assert store.lookup("main dipole", "b.json") is None


def test_a_hand_edited_file_with_a_bad_entry_keeps_the_good_ones(aliases_file: Path) -> None:
    aliases_file.write_text(
        "aliases:\n  - phrase: gun\n    channels: GUN:V\n    list: a.json\n  - phrase: nothing\n"
    )
    store = AliasStore.default()
    assert [(e.phrase, e.channels) for e in store.entries()] == [("gun", ("GUN:V",))]
    aliases_file.write_text("aliases: [unclosed")
    assert store.entries() == []
