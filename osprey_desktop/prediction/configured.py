"""The ring model this configuration has, if any.

On the simulated ring the model is the simulator's own optics. On EPICS a model is used only
when the facility configures one (``prediction.model: ring_model``, e.g. for the demo IOC that
serves the simulated ring); otherwise there is none, and the approval dialog says so.
"""

from __future__ import annotations

import functools
import logging
from typing import Any

from osprey_desktop.prediction.effect import NO_MODEL_REASON
from osprey_desktop.prediction.ring_model import RingModel

log = logging.getLogger(__name__)


@functools.lru_cache(maxsize=4)
def _model_for_file(path: str, seed: int) -> RingModel:
    from osprey_desktop.channels.loading import get_channel_database

    return RingModel.from_records(get_channel_database(path), seed)


def configured_model(config: Any) -> tuple[RingModel | None, str]:
    """(model, "") or (None, why there is none) for this configuration."""
    from osprey_desktop.connectors.factory import channel_database_path

    section = getattr(config, "prediction", None)
    chosen = getattr(section, "model", None)
    seed = int(getattr(section, "seed", 0) or 0)
    system = config.control_system.type
    if chosen is None and system != "sim":
        return None, NO_MODEL_REASON
    if chosen == "none":
        return None, NO_MODEL_REASON
    try:
        return _model_for_file(str(channel_database_path(config)), seed), ""
    except Exception as exc:  # a list the model cannot be laid out from: say so, never crash
        log.warning("no ring model: %s", exc)
        return None, f"The ring model could not be built from the channel list ({exc})."


__all__ = ["configured_model"]
