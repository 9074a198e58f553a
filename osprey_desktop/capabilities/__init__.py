"""Capabilities: the framework's respond and clarify, and the control-room set.

Import the modules directly; the registry loads them (see ``osprey_desktop.registry``).
"""
