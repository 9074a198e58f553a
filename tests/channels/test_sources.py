"""Channel lists read from a ChannelFinder directory and from an Archiver Appliance."""

from __future__ import annotations

import pytest

from osprey_desktop.channels import ChannelDatabaseError, load_channel_database
from osprey_desktop.channels.loading import get_channel_database, refresh_channel_database
from osprey_desktop.channels.sources import is_source, load_source
from tests.channels.services import Services, cf_channel, serve


def _directory() -> Services:
    return Services(
        channels=[
            cf_channel(
                "SR01:HCM1:Current:SP",
                ("orbit",),
                recordType="ao",
                recordDesc="horizontal corrector current",
                area="Storage Ring",
                EGU="A",
            ),
            cf_channel(
                "SR01:HCM1:Current:RB",
                recordType="ai",
                recordDesc="horizontal corrector current",
                area="Storage Ring",
                EGU="A",
            ),
            cf_channel("SR01:VGC1:Pressure", recordType="ai", recordDesc="ion gauge pressure"),
            cf_channel("SR01:OLD:Thing", recordType="ai", pvStatus="Inactive"),
            *[cf_channel(f"BR:BPM{n}:X", recordType="ai", area="Booster") for n in range(1, 6)],
        ]
    )


def test_a_channelfinder_list_is_read_page_by_page_with_its_properties_and_tags(
    monkeypatch,
) -> None:
    from osprey_desktop.channels.sources import channelfinder

    monkeypatch.setattr(channelfinder, "PAGE_SIZE", 3)
    services = _directory()
    with serve(services) as base:
        listing = load_source(f"channelfinder+{base}/ChannelFinder")
    pages = [q for p, q in services.requests if p.endswith("/resources/channels")]
    # 9 channels, 3 a page: read until a page comes back short (here the empty fourth)
    assert [q["~from"][0] for q in pages] == ["0", "3", "6", "9"]
    names = {r.name for r in listing.records}
    assert "SR01:OLD:Thing" not in names  # recsync's inactive PVs are gone from the IOC
    assert len(names) == 8
    by_name = {r.name: r for r in listing.records}
    setpoint = by_name["SR01:HCM1:Current:SP"]
    assert setpoint.writable and setpoint.role == "setpoint"
    assert setpoint.readback == "SR01:HCM1:Current:RB"
    assert setpoint.units == "A"
    assert setpoint.description == "Storage Ring | horizontal corrector current"
    assert "orbit" in setpoint.synonyms
    assert not by_name["SR01:VGC1:Pressure"].writable  # an input record is read-only
    assert listing.format == "channelfinder"


def test_channelfinder_search_parameters_in_the_url_are_passed_on() -> None:
    services = _directory()
    with serve(services) as base:
        listing = load_source(f"channelfinder+{base}/ChannelFinder?~name=BR:*")
    assert {r.name for r in listing.records} == {f"BR:BPM{n}:X" for n in range(1, 6)}


def test_an_appliance_list_names_every_archived_pv_described_by_its_metadata() -> None:
    services = Services(
        archived={
            "SR:DCCT:Current": {
                "info": {
                    "pvName": "SR:DCCT:Current",
                    "DBRType": "DBR_SCALAR_DOUBLE",
                    "units": "mA",
                    "precision": "2",
                    "lowerDisplayLimit": "0",
                    "upperDisplayLimit": "500",
                },
                "meta": {"DESC": "stored beam current", "EGU": "mA", "PREC": "2"},
            },
            "SR:RF:Freq": {"info": {"units": "MHz"}, "meta": {"DESC": "RF frequency"}},
        }
    )
    with serve(services) as base:
        database = load_channel_database(f"archiver+{base}")
    current = database.require("SR:DCCT:Current")
    assert current.description == "stored beam current"
    assert (current.units, current.precision) == ("mA", 2)
    assert current.limits.display == (0.0, 500.0)
    assert not current.writable  # an archive says nothing about writing
    assert database.require("SR:RF:Freq").units == "MHz"
    listed = [q for p, q in services.requests if p == "/mgmt/bpl/getAllPVs"]
    assert listed[0]["limit"] == ["-1"]  # every PV, not the Appliance's default 500
    assert database.search("beam current")[0].name == "SR:DCCT:Current"


def test_the_copy_is_used_until_refreshed_and_survives_a_service_that_is_down() -> None:
    services = _directory()
    with serve(services) as base:
        url = f"channelfinder+{base}/ChannelFinder"
        assert len(get_channel_database(url)) == 8
        services.channels.append(cf_channel("SR02:HCM1:Current:RB", recordType="ai"))
        asked = len(services.requests)
        assert len(load_channel_database(url)) == 8  # the copy: the service is not asked
        assert len(services.requests) == asked
        assert len(refresh_channel_database(url)) == 9  # asked again on demand
        assert len(get_channel_database(url)) == 9
        services.down = True
        assert len(load_channel_database(url, refresh=True)) == 9  # the copy stands in


def test_a_service_that_cannot_be_read_and_has_no_copy_says_why() -> None:
    services = _directory()
    services.down = True
    with serve(services) as base, pytest.raises(ChannelDatabaseError, match="HTTP 503"):
        load_channel_database(f"channelfinder+{base}/ChannelFinder")
    with pytest.raises(ChannelDatabaseError, match="names no host"):
        load_source("archiver+http:///nothing")


def test_only_the_two_schemes_name_a_service() -> None:
    assert is_source("channelfinder+https://cf.example.org/ChannelFinder")
    assert is_source("archiver+http://aa:17665")
    assert not is_source("/home/op/channels.json")
    assert not is_source("svn+ssh://host/list.csv")
    assert not is_source(None)


def test_the_configured_list_may_be_a_service() -> None:
    from osprey_desktop.config import build_config, set_config
    from osprey_desktop.connectors import get_configured_channel_database
    from osprey_desktop.connectors.factory import channel_database_path

    services = _directory()
    with serve(services) as base:
        url = f"channelfinder+{base}/ChannelFinder"
        set_config(build_config({"control_system": {"channel_database": url}}))
        try:
            assert channel_database_path() == url  # the URL as it is, not a file path
            database = get_configured_channel_database()
        finally:
            set_config(build_config({}))
    assert database.source == url
    assert "SR01:HCM1:Current:SP" in database
