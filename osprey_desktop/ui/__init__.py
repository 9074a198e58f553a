"""The Osprey Desktop window: PySide6 widgets driven by one controller over the agent session.

Only this package imports Qt; the core stays plain Python (see docs/architecture.md).
"""
