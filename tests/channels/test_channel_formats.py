"""Facility channel lists load as they are: Osprey's three formats, CSV and EPICS .db files.

The shared lists in /work/shared/facility-channels are read without any change; the number of
channels each must give is counted from the file itself (entries, expansions, ChannelNames),
not written down here.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from osprey_desktop.channels import ChannelDatabaseError, load_channel_database
from osprey_desktop.channels.formats import read_channel_list
from osprey_desktop.connectors.sim_machine import SimMachine
from tests.support.cli_env import cli_environment, run_cli
from tests.support.cli_process import run_osprey

REPO = Path(__file__).resolve().parents[2]
SHARED = Path("/work/shared/facility-channels")
SHARED_LISTS = sorted(SHARED.glob("*/*.json"))

needs_shared = pytest.mark.skipif(not SHARED.is_dir(), reason="shared facility lists not present")


def _json(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def _in_context_count(path: Path) -> int:
    """Entries, with each template counted as instances x axes x sub-channels."""
    total = 0
    for entry in _json(path)["channels"]:
        if entry.get("template"):
            first, last = entry["instances"]
            total += (
                (last - first + 1)
                * len(entry.get("axes") or [""])
                * len(entry.get("sub_channels") or [""])
            )
        else:
            total += 1
    return total


def _hierarchical_count(node: dict[str, Any]) -> int:
    """Leaves of the tree, each container counted once per instance it expands to."""
    children = [v for k, v in node.items() if not k.startswith("_") and isinstance(v, dict)]
    if not children:
        return 1
    total = 0
    for child in children:
        spec = child.get("_expansion")
        copies = 1
        if spec is not None:
            if spec["_type"] == "list":
                copies = len(spec["_instances"])
            else:
                copies = spec["_range"][1] - spec["_range"][0] + 1
        total += copies * _hierarchical_count(child)
    return total


def _middle_layer_count(node: Any) -> int:
    if not isinstance(node, dict):
        return 0
    own = len(node["ChannelNames"]) if isinstance(node.get("ChannelNames"), list) else 0
    return own + sum(_middle_layer_count(v) for v in node.values())


def _expected_count(path: Path) -> int:
    if path.stem == "in_context":
        return _in_context_count(path)
    if path.stem == "hierarchical":
        return _hierarchical_count(_json(path)["tree"])
    return _middle_layer_count(_json(path))


# ----- the shared lists, as they are --------------------------------------------------------------
@needs_shared
@pytest.mark.parametrize("path", SHARED_LISTS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_each_shared_list_loads_every_channel_it_holds(path: Path) -> None:
    listing = read_channel_list(path)
    assert listing.format == f"Osprey {path.stem} JSON"
    assert len(listing.records) == _expected_count(path)
    assert listing.problems == []
    assert len(load_channel_database(path)) == len(listing.records)


@needs_shared
def test_counts_the_readme_states() -> None:
    assert len(read_channel_list(SHARED / "osprey-tier1/in_context.json").records) == 569
    assert len(read_channel_list(SHARED / "osprey-tier3/in_context.json").records) == 2908
    assert len(read_channel_list(SHARED / "osprey-v0.11.5/in_context.json").records) == 255


@needs_shared
def test_the_three_tier3_formats_describe_the_same_channels_the_same_way() -> None:
    kinds = ("in_context", "hierarchical", "middle_layer")
    lists = [read_channel_list(SHARED / f"osprey-tier3/{kind}.json") for kind in kinds]
    by_name = [{r.name: r for r in listing.records} for listing in lists]
    assert by_name[0].keys() == by_name[1].keys() == by_name[2].keys()
    for name, record in by_name[0].items():
        others = [records[name] for records in by_name[1:]]
        assert {(r.family, r.device, r.readback) for r in others} == {
            (record.family, record.device, record.readback)
        }, name


@needs_shared
@pytest.mark.parametrize("kind", ["in_context", "hierarchical", "middle_layer"])
def test_every_channel_an_operator_query_targets_is_in_the_list(kind: str) -> None:
    names = {
        r.name.lower() for r in read_channel_list(SHARED / f"osprey-v0.11.5/{kind}.json").records
    }
    queries = _json(SHARED / f"osprey-v0.11.5/queries/{kind}_benchmark.json")
    targeted = {pv.lower() for query in queries for pv in query["targeted_pv"]}
    assert targeted and targeted <= names


@needs_shared
def test_setpoints_are_writable_and_paired_with_their_readbacks() -> None:
    database = load_channel_database(SHARED / "osprey-tier3/in_context.json")
    sp = database.require("SR:MAG:HCM:07:CURRENT:SP")
    assert (sp.role, sp.writable, sp.family, sp.device) == ("setpoint", True, "HCM", "HCM07")
    assert database.readback_for(sp.name) == "SR:MAG:HCM:07:CURRENT:RB"
    rb = database.require("SR:MAG:HCM:07:CURRENT:RB")
    assert (rb.role, rb.writable, rb.setpoint) == ("readback", False, sp.name)
    for record in database:
        assert record.writable == (record.role == "setpoint")
        assert record.writable == record.name.endswith(":SP"), record.name


@needs_shared
def test_a_golden_setpoint_is_a_stored_reference_not_a_control() -> None:
    for kind in ("in_context", "hierarchical", "middle_layer"):
        golden = load_channel_database(SHARED / f"osprey-tier3/{kind}.json").require(
            "SR:MAG:DIPOLE:01:CURRENT:GOLDEN"
        )
        assert (golden.role, golden.writable) == ("monitor", False), kind


@needs_shared
def test_hierarchical_keeps_every_level_in_the_description_and_its_access_statement() -> None:
    database = load_channel_database(SHARED / "osprey-tier3/hierarchical.json")
    tree = _json(SHARED / "osprey-tier3/hierarchical.json")["tree"]
    record = database.require("SR:MAG:DIPOLE:03:CURRENT:SP")
    headings = [
        tree["SR"]["_description"],
        tree["SR"]["MAG"]["_description"],
        tree["SR"]["MAG"]["DIPOLE"]["_description"],
        tree["SR"]["MAG"]["DIPOLE"]["DEVICE"]["CURRENT"]["_description"],
    ]
    for heading in headings:
        assert heading.split(":")[0] in record.description
    assert tree["SR"]["MAG"]["DIPOLE"]["DEVICE"]["CURRENT"]["SP"]["_description"] in (
        record.description
    )
    # the list states "(write)" for valve commands: writable although not named as setpoints
    assert database.require("SR:VAC:VALVE:01:CONTROL:OPEN").writable
    assert not database.require("SR:VAC:VALVE:01:POSITION:OPEN").writable


@needs_shared
def test_a_description_phrase_finds_the_channel_in_every_tier3_format() -> None:
    for kind in ("in_context", "hierarchical", "middle_layer"):
        database = load_channel_database(SHARED / f"osprey-tier3/{kind}.json")
        found = database.top_matches("storage ring dipole 3 current setpoint", writable=True)
        assert [m.name for m in found] == ["SR:MAG:DIPOLE:03:CURRENT:SP"], kind


@needs_shared
def test_templates_expand_to_numbered_devices_with_both_descriptions() -> None:
    database = load_channel_database(SHARED / "osprey-v0.11.5/in_context.json")
    record = database.require("SteeringCoil07YSetPoint")
    assert (record.family, record.device, record.writable) == (
        "SteeringCoil",
        "SteeringCoil07",
        True,
    )
    assert "trajectory" in record.description and "coil 7 Y" in record.description
    assert database.readback_for("SteeringCoil07YSetPoint") == "SteeringCoil07YReadBack"
    # a standalone entry: the address is the PV, the facility's name of it a synonym
    assert "TerminalVoltageSetPoint" in database.require("TerminalVoltageSetValue").synonyms
    assert database.readback_for("TerminalVoltageSetValue") == "TerminalVoltageReadBack"


@needs_shared
def test_middle_layer_reads_units_common_names_and_field_roles() -> None:
    database = load_channel_database(SHARED / "osprey-v0.11.5/middle_layer.json")
    sp = database.require("SR01C:HCM2:SetCurrent")
    assert (sp.role, sp.writable, sp.units, sp.sector) == ("setpoint", True, "Ampere", 1)
    assert "HCM 1-2" in sp.synonyms
    assert database.readback_for(sp.name) == "SR01C:HCM2:Current"
    assert database.readback_for("SR:RF1:FreqSet") == "SR:RF1:Freq"
    assert not database.require("SR01C:BPM3:X").writable


@needs_shared
@pytest.mark.parametrize("path", SHARED_LISTS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_the_simulated_ring_serves_a_foreign_list(path: Path) -> None:
    database = load_channel_database(path)
    ring = SimMachine(database, seed=1, clock=lambda: 1000.0, lag_scale=0.01)
    for record in database:
        assert ring.read(record.name).value == ring.read(record.name).value  # finite, no error
    setpoint = next(r for r in database if r.role == "setpoint" and r.readback)
    ring.set_setpoint(setpoint.name, 1.5, t=1000.0)
    assert ring.value(setpoint.readback, t=1010.0) == pytest.approx(1.5, abs=0.01)


# ----- CSV ---------------------------------------------------------------------------------------
def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_csv_with_semicolons_and_other_column_names_gives_units_limits_and_writability(
    tmp_path: Path,
) -> None:
    path = _write(
        tmp_path,
        "list.csv",
        "PV Name;Description;EGU;Prec;Min;Max;Access\n"
        "SR:HCM1:SP;Horizontal corrector 1;A;4;-10;10;rw\n"
        "SR:HCM1:RB;Horizontal corrector 1 readback;A;4;;;ro\n"
        "SR:DCCT;Beam current;mA;2;0;600;\n",
    )
    database = load_channel_database(path)
    sp = database.require("SR:HCM1:SP")
    assert (sp.units, sp.precision, sp.role, sp.writable) == ("A", 4, "setpoint", True)
    assert sp.limits.control == (-10.0, 10.0)
    assert database.readback_for("SR:HCM1:SP") == "SR:HCM1:RB"
    assert not database.require("SR:HCM1:RB").writable
    dcct = database.require("SR:DCCT")
    assert (dcct.writable, dcct.limits.display) == (False, (0.0, 600.0))


def test_csv_row_with_an_unreadable_limit_is_kept_read_only_and_reported_by_line(
    tmp_path: Path,
) -> None:
    path = _write(
        tmp_path,
        "list.csv",
        "name,description,units,low,high,writable\n"
        "A:Gap:SP,gap,mm,5,abc,yes\n"
        ",no name,,,,\n"
        "A:Gap:RB,gap readback,mm,,,no\n",
    )
    listing = read_channel_list(path)
    record = next(r for r in listing.records if r.name == "A:Gap:SP")
    assert not record.writable
    problems = [str(p) for p in listing.problems]
    assert any(p.startswith("line 2") and "'abc' is not a number" in p for p in problems)
    assert any(p.startswith("line 2") and "read-only" in p for p in problems)
    assert any(p.startswith("line 3") and "without a channel name" in p for p in problems)


def test_csv_without_a_name_column_is_refused_naming_the_file(tmp_path: Path) -> None:
    path = _write(tmp_path, "list.csv", "label,value\nfoo,1\n")
    with pytest.raises(ChannelDatabaseError, match=r"list\.csv.*first row must name the columns"):
        load_channel_database(path)


# ----- EPICS .db ------------------------------------------------------------------------------
_DB = """\
# two correctors
record(ao, "SR:HCM1:SP") {
    field(DESC, "Horizontal corrector 1")
    field(EGU,  "A")
    field(PREC, "3")
    field(DRVL, "-10")
    field(DRVH, "10")
    field(LOPR, "-12") field(HOPR, "12")
    field(HIGH, "9") field(HIHI, "9.5")
}
record(ai, "SR:HCM1:RB") {
    field(DESC, "Horizontal corrector 1 readback")
    field(EGU, "A")
}
record(ai, "") {
}
record(bo, "$(P)Enable") {
    field(DESC, "Enable")
}
"""


def test_epics_db_output_records_are_writable_setpoints_with_their_limits(tmp_path: Path) -> None:
    listing = read_channel_list(_write(tmp_path, "ioc.db", _DB))
    assert listing.format == "EPICS database"
    database = listing.to_database()
    sp = database.require("SR:HCM1:SP")
    assert (sp.role, sp.writable, sp.units, sp.precision) == ("setpoint", True, "A", 3)
    assert sp.limits.control == (-10.0, 10.0) and sp.limits.display == (-12.0, 12.0)
    assert sp.limits.alarm is not None and sp.limits.alarm.hihi == 9.5
    rb = database.require("SR:HCM1:RB")
    assert (rb.role, rb.writable, rb.setpoint) == ("readback", False, "SR:HCM1:SP")


def test_epics_db_problems_name_their_line(tmp_path: Path) -> None:
    problems = [str(p) for p in read_channel_list(_write(tmp_path, "ioc.db", _DB)).problems]
    assert "line 15: record without a name; skipped" in problems
    assert any(p.startswith("line 17") and "unexpanded macro" in p for p in problems)


# ----- pairing and roles ------------------------------------------------------------------------
def test_setpoints_pair_with_readbacks_whatever_suffix_style(tmp_path: Path) -> None:
    pairs = {
        "A:CURRENT:SP": "A:CURRENT:RB",
        "B:Volt:SET": "B:Volt:RBV",
        "GunVoltageSet": "GunVoltageRB",
        "TerminalVoltageSetValue": "TerminalVoltageReadBack",
        "C_Current_Setpoint": "C_Current_Readback",
        "SR01C:HCM1:SetCurrent": "SR01C:HCM1:Current",
        "SR:RF1:FreqSet": "SR:RF1:Freq",
    }
    rows = [f"{sp},setpoint of something\n{rb},something\n" for sp, rb in pairs.items()]
    database = load_channel_database(
        _write(tmp_path, "pairs.csv", "name,description\n" + "".join(rows))
    )
    for sp, rb in pairs.items():
        assert database.readback_for(sp) == rb
        assert database.require(sp).writable and not database.require(rb).writable
        assert database.require(rb).role == "readback"


def test_a_list_that_states_nothing_about_access_is_read_only(tmp_path: Path) -> None:
    path = _write(
        tmp_path,
        "plain.json",
        json.dumps({"channels": [{"address": "ID5:Gap", "description": "undulator gap"}]}),
    )
    assert not load_channel_database(path).require("ID5:Gap").writable


def test_a_setpoint_the_list_calls_read_only_stays_read_only_and_is_reported(
    tmp_path: Path,
) -> None:
    path = _write(tmp_path, "l.csv", "name,writable\nQ1:SP,no\n")
    listing = read_channel_list(path)
    assert not listing.records[0].writable
    assert "listed read-only" in str(listing.problems[0])


# ----- malformed files -----------------------------------------------------------------------
@pytest.mark.parametrize(
    ("name", "text", "message"),
    [
        ("bad.json", '{"channels": [', r"bad\.json is not valid JSON: line 1"),
        ("other.json", '{"hello": 1}', r"other\.json is not a channel list"),
        (
            "tree.json",
            json.dumps(
                {
                    "hierarchy": {"levels": [{"name": "a"}], "naming_pattern": "{b}"},
                    "tree": {"X": {}},
                }
            ),
            r"tree\.json \(Osprey hierarchical JSON\).*levels that are not defined: b",
        ),
        ("none.json", json.dumps({"channels": [{"channel": ""}]}), r"none\.json.*no usable"),
        ("empty.db", "# nothing here\n", r"empty\.db \(EPICS database\) holds no usable"),
    ],
)
def test_a_malformed_file_gives_one_error_naming_it(
    tmp_path: Path, name: str, text: str, message: str
) -> None:
    with pytest.raises(ChannelDatabaseError, match=message):
        load_channel_database(_write(tmp_path, name, text))


def test_a_repeated_name_in_a_facility_list_is_reported_and_the_first_kept(tmp_path: Path) -> None:
    entries = [{"address": "X:1", "description": "first"}, {"address": "X:1", "description": "2"}]
    listing = read_channel_list(_write(tmp_path, "dup.json", json.dumps({"channels": entries})))
    assert [r.description for r in listing.records] == ["first"]
    assert "entry 1 (X:1): 'X:1' is listed again (first at entry 0 (X:1))" in str(
        listing.problems[0]
    )


# ----- the command line ------------------------------------------------------------------------
def _check(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return run_osprey(["channels", "check", *args], env=cli_environment(tmp_path), timeout=120)


@needs_shared
@pytest.mark.parametrize("path", SHARED_LISTS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_channels_check_summarises_each_shared_list(tmp_path: Path, path: Path) -> None:
    result = _check(tmp_path, str(path), "--json")
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout)
    assert summary["loads"] is True
    assert summary["format"] == f"Osprey {path.stem} JSON"
    assert summary["channels"] == _expected_count(path)
    assert sum(summary["families"].values()) == summary["channels"]
    assert summary["pairs"] <= summary["roles"]["setpoint"] <= summary["writable"]


@needs_shared
def test_channels_check_prints_a_summary_for_a_person(tmp_path: Path) -> None:
    result = _check(tmp_path, str(SHARED / "osprey-tier3/middle_layer.json"))
    assert result.returncode == 0, result.stderr
    assert "format:    Osprey middle_layer JSON" in result.stdout
    assert "channels:  2908" in result.stdout
    assert "problems: none" in result.stdout


def test_channels_check_lists_problems_by_line_and_fails_on_an_unreadable_file(
    tmp_path: Path,
) -> None:
    good = _write(tmp_path, "ioc.db", _DB)
    result = _check(tmp_path, str(good))
    assert result.returncode == 0, result.stderr
    assert "line 15: record without a name; skipped" in result.stdout
    bad = _write(tmp_path, "bad.json", "{")
    result = _check(tmp_path, str(bad))
    assert result.returncode == 2
    assert "bad.json is not valid JSON" in result.stderr


@needs_shared
@pytest.mark.timeout(180)
@pytest.mark.parametrize(
    ("kind", "request_text", "answer"),
    [
        (
            "osprey-tier3/hierarchical",
            "read the storage ring dipole 3 current readback",
            "SR:MAG:DIPOLE:03:CURRENT:RB",
        ),
        ("osprey-v0.11.5/middle_layer", "read SR01C:HCM2:SetCurrent", "SR01C:HCM2:SetCurrent"),
    ],
)
def test_ask_answers_from_a_foreign_list_on_the_simulated_ring(
    tmp_path: Path, kind: str, request_text: str, answer: str
) -> None:
    config = _write(
        tmp_path,
        "config.yaml",
        f"control_system:\n  type: sim\n  channel_database: {SHARED / kind}.json\n",
    )
    args = ["--config", str(config), "ask", request_text, "--db", str(tmp_path / "t.sqlite")]
    result = run_cli(tmp_path, *args, timeout=150)
    assert result.returncode == 0, result.stderr
    # the answer names the channel in a sentence ("NAME: value") or a table row ("| NAME |")
    assert f"{answer}: " in result.stdout or f"| {answer} |" in result.stdout, result.stdout
