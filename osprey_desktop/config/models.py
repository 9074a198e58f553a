"""Pydantic models mirroring ``resources/config.yaml`` key for key.

Every section forbids unknown keys, so a misspelt key fails loudly instead of being ignored.
Fields have no defaults here: the shipped ``resources/config.yaml`` is the single source of the
default values, and a user file is deep-merged over it before validation.
"""

from __future__ import annotations

from typing import Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    NonNegativeFloat,
    NonNegativeInt,
    PositiveFloat,
    PositiveInt,
    ValidationInfo,
    field_validator,
)
from pydantic_core import PydanticCustomError

OrchestrationMode = Literal["plan_first", "react"]
ApprovalMode = Literal["disabled", "selective", "all_capabilities"]


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class MachineConfig(_Section):
    #: The facility's name for its machine; null shows only the control system (a default
    #: name would claim "simulated" while connected to EPICS).
    name: str | None
    timezone: str | None
    #: When the facility's shifts start ("07:00", "15:00", "23:00"); None: "the last shift" is
    #: asked about, never guessed.
    shifts: tuple[str, ...] | None = None

    @field_validator("shifts")
    @classmethod
    def _clock_times(cls, value: tuple[str, ...] | None) -> tuple[str, ...] | None:
        """Clock times "HH:MM", each day's shifts in any order; checked at load."""
        if value is None:
            return None
        for clock in value:
            hour, _, minute = str(clock).partition(":")
            if not (hour.isdigit() and minute.isdigit() and int(hour) < 24 and int(minute) < 60):
                raise PydanticCustomError(
                    "shift_clock",
                    "shift starts are clock times such as '07:00', '15:00', '23:00'",
                )
        if not value:
            raise PydanticCustomError("shift_clock", "give at least one shift start, or null")
        return tuple(str(c) for c in value)

    @field_validator("timezone")
    @classmethod
    def _known_zone(cls, value: str | None) -> str | None:
        """An IANA zone this computer knows; checked at load so a typo never reaches a plot."""
        if value is None:
            return None
        try:
            ZoneInfo(value)
        except (ZoneInfoNotFoundError, ValueError, OSError):
            raise PydanticCustomError(
                "unknown_timezone",
                "unknown time zone; use an IANA name such as 'Europe/Berlin' or 'UTC', or null "
                "for this computer's zone",
            ) from None
        return value


class AgentControlConfig(_Section):
    orchestration_mode: OrchestrationMode
    planning_mode_enabled: bool
    task_extraction_bypass_enabled: bool
    capability_selection_bypass_enabled: bool


class LimitsConfig(_Section):
    max_reclassifications: NonNegativeInt
    max_planning_attempts: int = Field(ge=1)
    max_step_retries: NonNegativeInt
    max_execution_time_seconds: PositiveFloat
    max_concurrent_classifications: int = Field(ge=1)
    max_react_iterations: int = Field(ge=1)
    graph_recursion_limit: int = Field(ge=1)
    retry_backoff_seconds: NonNegativeFloat


class ExecutionControlConfig(_Section):
    agent_control: AgentControlConfig
    limits: LimitsConfig


class CapabilityApprovalConfig(_Section):
    enabled: bool


class ApprovalConfig(_Section):
    global_mode: ApprovalMode
    capabilities: dict[str, CapabilityApprovalConfig]
    #: A write approval older than this is not carried out: the channels are read again and
    #: the operator is asked again with the fresh values.
    expiry_minutes: PositiveFloat = 15.0
    #: A console carrying out a write refreshes its claim this often; another console treats
    #: the write as abandoned only after 4 missed heartbeats.
    heartbeat_seconds: PositiveFloat = 5.0
    #: The most channels one write request may change: all of them are listed in one
    #: approval. Above it the request is asked to be narrowed (a mass write is a real
    #: operation, "all vertical correctors to zero", but not an unbounded one).
    max_channels_per_write: PositiveInt = 48


class ChatModelConfig(_Section):
    base_url: str
    model: str
    api_key_env: str | None
    temperature: float = Field(ge=0.0, le=2.0)
    max_retries: NonNegativeInt
    timeout_seconds: PositiveFloat
    #: How a structured answer is asked for: json_schema (response_format), json_object,
    #: tool_call, or text (the JSON taken from a plain reply; any endpoint).
    structured_output: Literal["json_schema", "json_object", "tool_call", "text"] = "json_schema"
    #: The built-in planner stands in while the endpoint is down or too slow (the answer says so).
    fallback_to_builtin: bool = True


class ModelsConfig(_Section):
    planner: Literal["builtin", "chat_model"]
    chat_model: ChatModelConfig


class SimConfig(_Section):
    #: Writes armed on the simulated ring (its own switch: never carried over to EPICS).
    writes_enabled: bool
    #: A scenario of resources/scenarios (or a scenario file's path) the ring replays.
    scenario: str | None = None

    @field_validator("scenario")
    @classmethod
    def _scenario_exists(cls, value: str | None) -> str | None:
        """An unknown scenario is a configuration error, said when the file is read."""
        if not value:
            return None
        from pathlib import Path

        from osprey_desktop.config.paths import resources_dir

        folder = Path(resources_dir()) / "scenarios"
        if (folder / f"{value}.yaml").is_file() or Path(value).expanduser().is_file():
            return value
        shipped = ", ".join(sorted(p.stem for p in folder.glob("*.yaml"))) or "none"
        raise PydanticCustomError(
            "unknown_scenario",
            "no scenario '{name}' (shipped: {shipped}; or the path of a scenario file)",
            {"name": value, "shipped": shipped},
        )


class EpicsConfig(_Section):
    timeout: PositiveFloat
    #: The protocol of a channel name without ``ca://`` or ``pva://`` (PyDM's prefixes).
    default_protocol: Literal["ca", "pva"] = "ca"
    #: Writes armed on the live control system; off unless the facility's file says so.
    writes_enabled: bool


class TangoConfig(_Section):
    """Tango (``control_system.type: tango``, or ``tango://`` names beside EPICS)."""

    #: Seconds for one read or write (PyTango's client timeout).
    timeout: PositiveFloat = 3.0
    #: Writes armed on the Tango system; off unless the facility's file says so.
    writes_enabled: bool = False


class ControlSystemConfig(_Section):
    type: Literal["sim", "epics", "tango"]
    #: No write is planned or sent, whatever is armed (also ``--read-only``).
    read_only: bool = False
    #: The former single switch: ``false`` disarms every system; ``true`` arms only the
    #: simulated ring (a live system is armed by its own section's ``writes_enabled``).
    writes_enabled: bool | None
    channel_database: str | None
    limits_database: str | None
    allow_unlisted_writes: bool
    write_verification: Literal["none", "callback", "readback"]
    verification_tolerance: NonNegativeFloat
    sim: SimConfig
    epics: EpicsConfig
    tango: TangoConfig = Field(default_factory=TangoConfig)

    @field_validator("writes_enabled")
    @classmethod
    def _single_switch_never_arms_a_live_system(
        cls, value: bool | None, info: ValidationInfo
    ) -> bool | None:
        """A file once written for the ring must not arm the machine when its type changes."""
        kind = info.data.get("type")
        if value is True and kind is not None and kind != "sim":
            raise PydanticCustomError(
                "single_write_switch",
                "writes are armed per control system and 'true' here would arm '{kind}'; "
                "set control_system.{kind}.writes_enabled: true instead (and remove this key)",
                {"kind": kind},
            )
        return value

    @property
    def effective_writes_enabled(self) -> bool:
        """Whether writes are armed on the configured system, by that system's own switch.

        ``read_only`` is separate (it refuses with its own reason, see the write policy).
        """
        if self.writes_enabled is not None:
            return self.writes_enabled
        section = getattr(self, self.type, None)
        return getattr(section, "writes_enabled", False) is True  # unknown system: disarmed


class ArchiverApplianceConfig(_Section):
    #: The retrieval URL (appliances.xml's data_retrieval_url); ``/retrieval`` is optional.
    url: str
    #: null: the archViewer.html of the server that ``url`` names.
    viewer_url: str | None
    timeout: PositiveFloat

    @property
    def effective_viewer_url(self) -> str:
        """``viewer_url``, else archViewer.html on the server of ``url`` (the connector's rule,
        ``connectors.archiver_appliance.viewer_url_for``; a test keeps the two equal)."""
        if self.viewer_url is not None:
            return self.viewer_url
        base = self.url.strip().rstrip("/")
        base = base.removesuffix("/data/getData.json").removesuffix("/data/getData.raw")
        base = base if base.endswith("/retrieval") else base + "/retrieval"
        return base + "/ui/viewer/archViewer.html"


ArchiverType = Literal["sim", "archiver_appliance", "none"]


class ArchiverConfig(_Section):
    #: null: ``sim`` with the simulated ring, ``none`` with EPICS (never simulated history
    #: for a real machine).
    type: ArchiverType | None
    archiver_appliance: ArchiverApplianceConfig

    def effective_type(self, control_system_type: str) -> ArchiverType:
        """The archiver to use with this control system (``type`` null picks by it)."""
        if self.type is not None:
            return self.type
        return "sim" if control_system_type == "sim" else "none"


class LauncherConfig(_Section):
    display_name: str
    program: str
    args: list[str]


class FilePathsConfig(_Section):
    data_dir: str | None
    checkpoint_db: str | None
    audit_db: str | None
    agent_data_dir: str | None


class RegistryConfig(_Section):
    modules: list[str] = Field(default_factory=list)


class ChannelFindingConfig(_Section):
    #: A facility's words for its channels, added to resources/channel_vocabulary.yaml:
    #: ``{abbreviations: {term: [phrase, ...]}, synonyms: {word: [word, ...]}}``.
    vocabulary: dict[str, dict[str, list[str]]] = Field(default_factory=dict)
    #: The area a request means when it names none and a kind of device exists in several
    #: (the first segment of a PV name, e.g. SR); null: the area with the most devices.
    default_area: str | None = None
    #: Which devices serve which sector when the list's names do not say (``{2: [IG03,
    #: IG04]}``): "the vacuum in sector 2" then means those; without it such a request asks.
    sectors: dict[int, list[str]] = Field(default_factory=dict)


class OlogConfig(_Section):
    """An Olog service (Phoebus logbook) that entries are published to (``logbook.type: olog``)."""

    url: str | None = None  # e.g. https://olog.example.org:8181/Olog
    logbook: str = "Operations"
    tags: list[str] = Field(default_factory=list)
    username_env: str = "OLOG_USERNAME"  # credentials come from the environment (or keyring)
    password_env: str = "OLOG_PASSWORD"
    timeout_seconds: PositiveFloat = 10.0
    verify_tls: bool = True


class LogbookConfig(_Section):
    """Where logbook entries go: ``local`` (the conversation database) or ``olog``."""

    type: Literal["local", "olog"] = "local"
    logbook: str = "operations"
    tags: list[str] = Field(default_factory=list)
    olog: OlogConfig = Field(default_factory=OlogConfig)


class PredictionConfig(_Section):
    """The model that predicts a write's effect in the approval dialog. ``null``: the
    simulated ring uses its own optics and EPICS has none; ``ring_model``: the simulated
    ring's optics also on EPICS (e.g. the demo IOC); ``none``: never predict."""

    model: Literal["ring_model", "none"] | None = None
    seed: NonNegativeInt = 0  # the ring model's seed (the simulated ring's is 0)


class AppConfig(_Section):
    """The whole validated configuration of one Osprey Desktop process."""

    machine: MachineConfig
    execution_control: ExecutionControlConfig
    approval: ApprovalConfig
    models: ModelsConfig
    control_system: ControlSystemConfig
    archiver: ArchiverConfig
    launchers: dict[str, LauncherConfig]
    file_paths: FilePathsConfig
    registry: RegistryConfig = Field(default_factory=lambda: RegistryConfig(modules=[]))
    channel_finding: ChannelFindingConfig = Field(default_factory=ChannelFindingConfig)
    logbook: LogbookConfig = Field(default_factory=LogbookConfig)
    prediction: PredictionConfig = Field(default_factory=PredictionConfig)
