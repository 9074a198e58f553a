"""The shipped data files (default configuration, channel list, limits, vocabulary).

Installed as ``osprey_desktop.resources`` (see setup.py) and found with ``importlib.resources``
through ``osprey_desktop.config.resources_dir()``; this folder is where they are edited.
"""
