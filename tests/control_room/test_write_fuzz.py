"""A few hundred generated requests and answers through the Gateway: no write without an
approval of exactly its channel and value, and no derived write (copy, restore, condition)
whose approved facts changed while it waited (``tests/support/write_fuzz.py`` explains the rules;
``bench/write_fuzz.py`` runs the same at 10,000 requests)."""

from __future__ import annotations

import pytest

from osprey_desktop.connectors.sim_machine import SimMachine
from tests.support.write_fuzz import run_write_fuzz

pytestmark = [pytest.mark.timeout(300), pytest.mark.slow]


async def test_generated_requests_never_write_without_a_matching_approval(
    connectors, machine: SimMachine
):
    report = await run_write_fuzz(requests=300, seed=20261124, machine=machine)

    print("\n".join(report.lines()))
    assert report.unmatched_writes == 0
    assert report.stale_fact_writes == 0
    assert report.second_answers_accepted == 0
    # the fuzz must really exercise the write path, or the zero above means nothing
    assert report.approvals_shown >= 40 and report.approved >= 10 and report.puts >= 10
    assert report.forged_resumes >= 5 and report.second_answers_refused >= 3
    assert report.derived_shown >= 20 and report.facts_changed_while_waiting >= 10
    for kind in ("copy", "archive", "condition"):  # each kind of derived write, facts moved
        assert report.derived_by_kind[kind] >= 3 and report.changed_by_kind[kind] >= 2, kind
    assert report.blocked_rows_shown >= 1 and report.blocked_puts == 0
