"""What a write is predicted to do to the beam, before it is approved (no Qt here).

``ring_model.RingModel`` is the linear optics of the simulated ring (its corrector response
matrix and the tune shift per quadrupole ampere); ``effect.predict_write_effect`` turns the
operations of a channel-write approval into the predicted orbit change, or says why there
is no prediction (no model configured, or no write the model knows).
"""

from osprey_desktop.prediction.effect import (
    NO_MODEL_REASON,
    PlaneChange,
    PredictedEffect,
    predict_write_effect,
)
from osprey_desktop.prediction.ring_model import RingModel

__all__ = [
    "NO_MODEL_REASON",
    "PlaneChange",
    "PredictedEffect",
    "RingModel",
    "predict_write_effect",
]
