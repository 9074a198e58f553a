"""``python -m osprey_desktop``: the same command line as the ``osprey-desktop`` script."""

from osprey_desktop.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
