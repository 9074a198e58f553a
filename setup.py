"""Build configuration that pyproject.toml cannot express: the top-level ``resources/`` folder
of the checkout (the one place the shipped YAML files are edited) is installed as the package
``osprey_desktop.resources``, in wheels and in editable installs alike, so the program finds
its files with ``importlib.resources`` wherever pip, pipx or a venv put it.

Everything else (metadata, dependencies, entry points, tools) is in pyproject.toml.
"""

from setuptools import find_packages, setup

setup(
    packages=[
        *find_packages(include=["osprey_desktop", "osprey_desktop.*"]),
        "osprey_desktop.resources",
    ],
    package_dir={"osprey_desktop.resources": "resources"},
    package_data={"osprey_desktop.resources": ["*.yaml", "*.svg", "scenarios/*.yaml"]},
)
