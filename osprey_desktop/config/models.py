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
    field_validator,
)
from pydantic_core import PydanticCustomError

OrchestrationMode = Literal["plan_first", "react"]
ApprovalMode = Literal["disabled", "selective", "all_capabilities"]


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class MachineConfig(_Section):
    name: str
    timezone: str | None

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


class ChatModelConfig(_Section):
    base_url: str
    model: str
    api_key_env: str | None
    temperature: float = Field(ge=0.0, le=2.0)
    max_retries: NonNegativeInt
    timeout_seconds: PositiveFloat


class ModelsConfig(_Section):
    planner: Literal["builtin", "chat_model"]
    chat_model: ChatModelConfig


class EpicsConfig(_Section):
    timeout: PositiveFloat


class ControlSystemConfig(_Section):
    type: Literal["sim", "epics"]
    writes_enabled: bool | None
    channel_database: str | None
    limits_database: str | None
    allow_unlisted_writes: bool
    write_verification: Literal["none", "callback", "readback"]
    verification_tolerance: NonNegativeFloat
    epics: EpicsConfig

    @property
    def effective_writes_enabled(self) -> bool:
        """Writes are on for the simulated machine and off for real EPICS unless set."""
        if self.writes_enabled is not None:
            return self.writes_enabled
        return self.type == "sim"


class ArchiverApplianceConfig(_Section):
    url: str
    viewer_url: str
    timeout: PositiveFloat


class ArchiverConfig(_Section):
    type: Literal["sim", "archiver_appliance"]
    archiver_appliance: ArchiverApplianceConfig


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
