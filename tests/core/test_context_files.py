"""save_context_to_file and load_context: atomic JSON files read back with dot notation."""

import json
import logging
import os
from datetime import datetime

import pytest

from osprey_desktop.context import CapabilityContext, ContextManager, RawContext, load_context
from osprey_desktop.context import base as context_base


@pytest.fixture
def archiver_class(no_registry):
    saved = dict(context_base._CONTEXT_CLASSES)

    class ArchiverData(CapabilityContext):
        CONTEXT_TYPE = "ARCHIVER_DATA"
        channel: str
        timestamps: list[datetime]
        values: list[float]

        def get_access_details(self, key):
            return {"access_pattern": f"context.ARCHIVER_DATA.{key}.values"}

    yield ArchiverData
    context_base._CONTEXT_CLASSES.clear()
    context_base._CONTEXT_CLASSES.update(saved)


@pytest.fixture
def saved_manager(archiver_class):
    cm = ContextManager({"capability_context_data": {}})
    cm.set_context(
        "ARCHIVER_DATA",
        "beam_current_historical_data",
        archiver_class(
            channel="SR:CURRENT",
            timestamps=[datetime(2024, 1, 15, 10, 0), datetime(2024, 1, 15, 10, 1)],
            values=[500.1, 499.8],
        ),
    )
    return cm


def test_save_writes_the_stored_json_and_returns_the_path(saved_manager, tmp_path):
    path = saved_manager.save_context_to_file(tmp_path / "run_1")
    assert path == tmp_path / "run_1" / "context.json"
    written = json.loads(path.read_text(encoding="utf-8"))
    assert written == saved_manager.get_raw_data()
    assert written["ARCHIVER_DATA"]["beam_current_historical_data"]["timestamps"][0] == (
        "2024-01-15T10:00:00"
    )


def test_save_replaces_an_existing_file_and_leaves_no_temporary_files(saved_manager, tmp_path):
    (tmp_path / "context.json").write_text("old content")
    saved_manager.save_context_to_file(tmp_path)
    assert json.loads((tmp_path / "context.json").read_text())  # replaced, valid JSON
    assert sorted(p.name for p in tmp_path.iterdir()) == ["context.json"]


def test_a_failed_write_keeps_the_previous_file(saved_manager, tmp_path, monkeypatch):
    (tmp_path / "context.json").write_text('{"previous": {}}')

    def refuse(*args):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(OSError, match="disk full"):
        saved_manager.save_context_to_file(tmp_path)
    assert (tmp_path / "context.json").read_text() == '{"previous": {}}'
    assert sorted(p.name for p in tmp_path.iterdir()) == ["context.json"]


def test_save_with_a_custom_filename(saved_manager, tmp_path):
    path = saved_manager.save_context_to_file(str(tmp_path), filename="turn_3.json")
    assert path.name == "turn_3.json" and path.exists()


@pytest.mark.parametrize("filename", ["", "   "])
def test_empty_filename_is_refused(saved_manager, tmp_path, filename):
    with pytest.raises(ValueError, match="Filename cannot be empty"):
        saved_manager.save_context_to_file(tmp_path, filename=filename)


@pytest.mark.parametrize("filename", ["sub/context.json", "..", "../escape.json", "a\\b.json"])
def test_path_like_filename_is_refused(saved_manager, tmp_path, filename):
    with pytest.raises(ValueError, match="must be a plain file name without folders"):
        saved_manager.save_context_to_file(tmp_path, filename=filename)
    assert list(tmp_path.iterdir()) == []


def test_data_that_is_not_json_raises_type_error(tmp_path):
    cm = ContextManager({"capability_context_data": {"X": {"k": {"when": object()}}}})
    with pytest.raises(TypeError, match="cannot be saved as JSON"):
        cm.save_context_to_file(tmp_path)
    assert list(tmp_path.iterdir()) == []


def test_spec_example_load_context_gives_dot_notation(
    saved_manager, archiver_class, tmp_path, monkeypatch
):
    saved_manager.save_context_to_file(tmp_path)
    monkeypatch.chdir(tmp_path)
    context = load_context()
    data = context.ARCHIVER_DATA.beam_current_historical_data
    assert isinstance(data, archiver_class)
    assert data.values == [500.1, 499.8]
    assert data.timestamps[1] == datetime(2024, 1, 15, 10, 1)


def test_load_context_without_the_class_still_reads_by_attribute(
    saved_manager, tmp_path, monkeypatch
):
    saved_manager.save_context_to_file(tmp_path, filename="elsewhere.json")
    context_base._CONTEXT_CLASSES.pop("ARCHIVER_DATA")  # as in a process that never imported it
    monkeypatch.chdir(tmp_path)
    data = load_context("elsewhere.json").ARCHIVER_DATA.beam_current_historical_data
    assert isinstance(data, RawContext)
    assert data.values == [500.1, 499.8]
    assert data.channel == "SR:CURRENT"


def test_load_context_of_an_empty_file_is_an_empty_manager(tmp_path, monkeypatch):
    (tmp_path / "context.json").write_text("{}")
    monkeypatch.chdir(tmp_path)
    assert load_context().get_all() == {}


def test_missing_file_gives_none_and_says_where_it_looked(tmp_path, monkeypatch, caplog):
    monkeypatch.chdir(tmp_path)
    with caplog.at_level(logging.WARNING):
        assert load_context() is None
    assert f"Context file not found: {tmp_path / 'context.json'}" in caplog.text


@pytest.mark.parametrize(
    "content,reason",
    [
        ("{not json", "is not valid JSON"),
        ("[1, 2]", "expected a JSON object of context types, got list"),
        ('{"T": [1]}', "'T' must map context keys to objects"),
        ('{"T": {"k": 3}}', "'T.k' must be an object of fields"),
    ],
)
def test_invalid_file_gives_none_with_the_reason(tmp_path, monkeypatch, caplog, content, reason):
    (tmp_path / "context.json").write_text(content)
    monkeypatch.chdir(tmp_path)
    with caplog.at_level(logging.WARNING):
        assert load_context() is None
    assert reason in caplog.text


def test_unreadable_file_gives_none(tmp_path, monkeypatch, caplog):
    (tmp_path / "context.json").write_bytes(b"\xff\xfe\x00garbage")
    monkeypatch.chdir(tmp_path)
    assert load_context() is None
    assert "Cannot read context file" in caplog.text


def test_saved_file_is_readable_like_a_normally_written_file(saved_manager, tmp_path):
    path = saved_manager.save_context_to_file(tmp_path)
    assert path.stat().st_mode & 0o777 == 0o644
