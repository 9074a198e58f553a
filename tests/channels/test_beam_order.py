"""Ordinals count along the beam path: by the s position a list gives, else by where the list
names a device when devices are numbered per segment; a description's "sector N" places it."""

from __future__ import annotations

from pathlib import Path

from osprey_desktop.channels import find, load_channel_database


def _write(path: Path, rows: list[str]) -> Path:
    path.write_text("\n".join(rows) + "\n")
    return path


def test_the_s_column_orders_the_devices(tmp_path) -> None:
    # named out of order; the s column says where each BPM sits
    rows = ["name,description,s"]
    for number, s in ((1, 30.0), (2, 10.0), (3, 20.0), (4, 40.0)):
        rows.append(f"RING:BPM{number}:X,beam position monitor {number} x,{s}")
    database = load_channel_database(_write(tmp_path / "s.csv", rows))
    assert database.get("RING:BPM2:X").position == 10.0
    assert find("the first BPM x", database).channels == ["RING:BPM2:X"]
    assert find("the last two BPM x", database).channels == ["RING:BPM1:X", "RING:BPM4:X"]


def test_devices_numbered_per_segment_count_in_list_order(tmp_path) -> None:
    rows = ["name,description"]
    for segment in ("LI21", "LI22", "LI23"):
        for number in (1, 2):
            rows.append(f"{segment}:BPM{number}:X,linac bpm {number} x")
    database = load_channel_database(_write(tmp_path / "segments.csv", rows))
    assert find("the 3rd linac bpm x", database).channels == ["LI22:BPM1:X"]
    assert find("the last linac bpm x", database).channels == ["LI23:BPM2:X"]


def test_a_description_that_states_the_sector_places_the_channel(tmp_path) -> None:
    rows = ["name,description"]
    for sector in (1, 2, 3):
        for number in (1, 2):
            rows.append(f"RG-{sector:02d}:BPM{number}:X,ring sector {sector} bpm {number} x")
    database = load_channel_database(_write(tmp_path / "sectors.csv", rows))
    assert find("sector 2 bpm 1 x", database).channels == ["RG-02:BPM1:X"]
