"""Investigations over the archive: statistics, comparisons, correlations, events, alarms.

Plain numpy, no language model: every result is a deterministic computation over archived
samples and carries its ``Provenance`` (channels, window, samples, method, what was not
checked), so an answer can say where each number came from. Capabilities and the window use
it; it never imports them.
"""

from osprey_desktop.investigate.alarms import AlarmRow, alarm_rows, read_alarms, severity_rank
from osprey_desktop.investigate.changes import ChangeRanking, DeviationRow, what_changed
from osprey_desktop.investigate.correlation import Correlation, common_time_base, correlate
from osprey_desktop.investigate.events import Event, find_events
from osprey_desktop.investigate.provenance import Provenance
from osprey_desktop.investigate.series import Signal, signals_of
from osprey_desktop.investigate.statistics import Comparison, Statistics, compare, statistics

__all__ = [
    "AlarmRow",
    "ChangeRanking",
    "Comparison",
    "Correlation",
    "DeviationRow",
    "Event",
    "Provenance",
    "Signal",
    "Statistics",
    "alarm_rows",
    "common_time_base",
    "compare",
    "correlate",
    "find_events",
    "read_alarms",
    "severity_rank",
    "signals_of",
    "statistics",
    "what_changed",
]
