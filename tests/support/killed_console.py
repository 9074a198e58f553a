"""A console that answers an approval yes, starts sending and is gone before it records an
outcome: what a ``kill -9`` mid-put leaves in the approval ledger (state ``sending``, no outcome).

Run as ``python -c KILLED_CONSOLE DB APPROVAL_ID THREAD`` by the thread-view test and the
threads screenshot, so both show the very state ``osprey-desktop threads`` calls in doubt.
"""

KILLED_CONSOLE = """
import asyncio, os, sys, time
from osprey_desktop.config import get_config
from osprey_desktop.session import AgentSession

async def main(db, approval_id, thread):
    async with AgentSession.open(get_config(), db) as session:
        ledger = session.ledger
        record = await ledger.get(approval_id)
        await ledger.claim_answer(approval_id, thread, record.kind, True)
        await ledger.transition(approval_id, ["approved"], "executing", take_ownership=True)
        await ledger.transition(approval_id, ["executing"], "sending", sent_at=time.time())
        os._exit(0)  # no outcome, no clean close: as a kill -9 mid-put leaves it

asyncio.run(main(*sys.argv[1:]))
"""
