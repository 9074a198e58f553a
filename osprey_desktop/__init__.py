"""Osprey Desktop: the control-room assistant built on the Osprey agent design."""

__version__ = "0.1.0"
