"""A site file under every user's file: its values, its locked keys, and ``config --show``."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from osprey_desktop.cli import main
from osprey_desktop.config import ConfigError, load_config, site_config_path
from osprey_desktop.config.loader import load_config_layers

SITE = """\
control_system:
  type: epics
  channel_database: /srv/facility/channels.csv
  epics:
    writes_enabled: false
archiver:
  type: archiver_appliance
  archiver_appliance:
    url: http://archiver.example.org:17665/retrieval
locked:
  - control_system.epics.writes_enabled
  - control_system.channel_database
  - archiver
"""

USER = """\
control_system:
  channel_database: /home/op/my_channels.yaml
  verification_tolerance: 0.2
  epics:
    writes_enabled: true
    timeout: 5.0
archiver:
  type: none
"""


@pytest.fixture
def files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    site, user = tmp_path / "site.yaml", tmp_path / "user.yaml"
    site.write_text(SITE, encoding="utf-8")
    user.write_text(USER, encoding="utf-8")
    monkeypatch.setenv("OSPREY_DESKTOP_SITE_CONFIG", str(site))
    monkeypatch.delenv("OSPREY_DESKTOP_CONFIG", raising=False)
    return site, user


def test_a_locked_key_holds_against_the_user_file(files, caplog) -> None:
    site, user = files
    with caplog.at_level(logging.WARNING, logger="osprey_desktop.config.loader"):
        config = load_config(user)
    cs = config.control_system
    assert cs.type == "epics"  # from the site
    assert cs.epics.writes_enabled is False  # locked: the user's true is ignored
    assert cs.effective_writes_enabled is False
    assert cs.channel_database == "/srv/facility/channels.csv"  # locked
    assert config.archiver.type == "archiver_appliance"  # the whole section is locked
    assert cs.epics.timeout == 5.0 and cs.verification_tolerance == 0.2  # not locked
    warned = " ".join(r.getMessage() for r in caplog.records)
    assert "control_system.epics.writes_enabled" in warned and str(site) in warned


def test_sources_say_where_each_value_came_from(files) -> None:
    site, user = files
    layers = load_config_layers(user)
    assert layers.files == {
        "default": layers.files["default"],
        "site": site,
        "user": user,
    }
    assert layers.source_of("control_system.type") == "site"
    assert layers.source_of("control_system.epics.timeout") == "user"
    assert layers.source_of("models.planner") == "default"
    assert layers.is_locked("archiver.archiver_appliance.url")
    assert dict(layers.overridden)["control_system.epics.writes_enabled"] is True


def test_only_the_site_file_may_lock(files, tmp_path) -> None:
    user = tmp_path / "sneaky.yaml"
    user.write_text("locked: [control_system.read_only]\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="only the site file may lock") as caught:
        load_config(user)
    assert caught.value.file == str(user)


def test_a_lock_on_an_unknown_key_names_the_site_file(tmp_path, monkeypatch) -> None:
    site = tmp_path / "site.yaml"
    site.write_text("locked: [control_system.epics.writes_enabeld]\n", encoding="utf-8")
    monkeypatch.setenv("OSPREY_DESKTOP_SITE_CONFIG", str(site))
    with pytest.raises(ConfigError, match="not a configuration key") as caught:
        load_config()
    assert caught.value.file == str(site)


def test_a_bad_value_in_the_site_file_is_blamed_on_it(tmp_path, monkeypatch) -> None:
    site = tmp_path / "site.yaml"
    site.write_text("control_system:\n  type: tine\n", encoding="utf-8")
    monkeypatch.setenv("OSPREY_DESKTOP_SITE_CONFIG", str(site))
    with pytest.raises(ConfigError) as caught:
        load_config()
    assert caught.value.file == str(site) and caught.value.key == "control_system.type"


def test_the_site_file_is_found_in_xdg_config_dirs(tmp_path, monkeypatch) -> None:
    monkeypatch.delenv("OSPREY_DESKTOP_SITE_CONFIG", raising=False)
    folder = tmp_path / "xdg" / "osprey-desktop"
    folder.mkdir(parents=True)
    (folder / "config.yaml").write_text("machine:\n  name: Ring\n", encoding="utf-8")
    monkeypatch.setenv("XDG_CONFIG_DIRS", f"{tmp_path / 'none'}:{tmp_path / 'xdg'}")
    assert site_config_path() == folder / "config.yaml"
    assert load_config().machine.name == "Ring"
    monkeypatch.setenv("XDG_CONFIG_DIRS", str(tmp_path / "none"))
    assert site_config_path() is None


def test_config_show_prints_each_value_with_its_source(files, capsys) -> None:
    site, user = files
    assert main(["config", "--show", "--config", str(user)]) == 0
    out = capsys.readouterr().out
    assert f"site     {site}" in out and f"user     {user}" in out
    line = next(x for x in out.splitlines() if x.startswith("control_system.epics.writes_enabled"))
    assert line.split()[1] == "false"
    assert "(site, locked; your true is ignored)" in line
    assert any(
        x.startswith("control_system.epics.timeout") and "(user)" in x for x in out.splitlines()
    )
    assert main(["config", "--json", "--config", str(user)]) == 0
    rows = {r["key"]: r for r in json.loads(capsys.readouterr().out)}
    assert rows["archiver.type"]["locked"] and rows["archiver.type"]["ignored_user_value"] == "none"
    assert rows["models.planner"]["source"] == "default"
