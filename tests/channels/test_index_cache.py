"""A list loaded once is read back with its finder on the next start, keyed by its content."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from osprey_desktop.channels import finding, index_cache, loading
from osprey_desktop.channels.finding import configured_finder


def _write_list(path: Path, count: int) -> Path:
    rows = ["name,description"] + [f"SR:BPM{n}:X,beam position monitor {n} x" for n in range(count)]
    path.write_text("\n".join(rows) + "\n")
    return path


def _written() -> None:
    for thread in threading.enumerate():
        if thread.name == "channel-index":
            thread.join()


def _new_process(monkeypatch) -> None:
    """Forget what this process loaded, as a fresh start would."""
    monkeypatch.setattr(loading, "_cache", {})
    monkeypatch.setattr(finding, "_FINDERS", {})


def test_the_second_start_reads_the_kept_index_instead_of_the_list(tmp_path, monkeypatch) -> None:
    path = _write_list(tmp_path / "list.csv", 40)
    first = loading.get_channel_database(path)
    configured_finder(first)
    _written()
    _new_process(monkeypatch)

    def not_again(*_args, **_kwargs):
        raise AssertionError("the list was read again")

    monkeypatch.setattr(loading, "load_channel_database", not_again)
    again = loading.get_channel_database(path)
    assert again is not first and len(again) == 40
    finder = configured_finder(again)
    assert finder is again.finders[next(iter(again.finders))]  # not built again
    assert finder.find("bpm 7 x").names == ["SR:BPM7:X"]


def test_a_changed_list_is_loaded_afresh(tmp_path, monkeypatch) -> None:
    path = _write_list(tmp_path / "list.csv", 40)
    configured_finder(loading.get_channel_database(path))
    _written()
    _new_process(monkeypatch)
    _write_list(path, 41)
    assert len(loading.get_channel_database(path)) == 41


def test_a_damaged_index_reads_as_none(tmp_path) -> None:
    path = _write_list(tmp_path / "list.csv", 5)
    key = index_cache.file_key(path)
    assert key is not None
    (index_cache.cache_dir("indexes") / f"{key}.pickle").write_bytes(b"not a pickle")
    assert index_cache.load(path) is None


@pytest.mark.parametrize("missing", ["nope.csv"])
def test_an_unreadable_list_has_no_key(tmp_path, missing) -> None:
    assert index_cache.file_key(tmp_path / missing) is None


def test_a_record_read_back_is_the_record_kept() -> None:
    import pickle

    from osprey_desktop.channels import ChannelRecord

    record = ChannelRecord(
        name="SR:QF:01:SP",
        description="focusing quadrupole",
        synonyms=("qf1",),
        role="setpoint",
        writable=True,
        limits={"control": (0, 100), "alarm": {"high": 90}},
    )
    again = pickle.loads(pickle.dumps(record))
    assert again == record and hash(again) == hash(record)
    assert again.model_fields_set == record.model_fields_set
    assert again.model_dump() == record.model_dump()
