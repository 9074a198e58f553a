"""``--read-only`` of ``run``, ``ask`` and ``approve``; ``main()`` applies it to the config."""

from __future__ import annotations

import argparse


def add_read_only_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--read-only",
        action="store_true",
        help="refuse every write: none is planned or sent, also on a thread whose approval "
        "was asked before (the same as control_system.read_only: true)",
    )
