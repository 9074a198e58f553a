"""Await a dialog without a nested event loop.

``QDialog.exec()`` inside a coroutine re-enters the qasync loop ("Cannot enter into task"),
so dialogs are shown with ``open()`` (or ``show()``) and their ``finished`` signal resolves a
future. Showing happens at once, not when a task first runs, so a caller can rely on the
dialog being on screen as soon as the call returns.
"""

from __future__ import annotations

import asyncio
import contextlib

from PySide6.QtWidgets import QDialog


def show_dialog(dialog: QDialog, modal: bool = True) -> asyncio.Future[int]:
    """Show ``dialog`` now; the future resolves to its result code when it closes.

    Cancelling the future (or a task awaiting it) closes the dialog as rejected.
    """
    future: asyncio.Future[int] = asyncio.get_event_loop().create_future()

    def done(result: int) -> None:
        if not future.done():
            future.set_result(int(result))

    def on_future_done(fut: asyncio.Future[int]) -> None:
        if fut.cancelled():
            # ``done`` ignores it (the future is finished); the dialog may be gone already.
            with contextlib.suppress(RuntimeError):
                dialog.reject()

    dialog.finished.connect(done)
    future.add_done_callback(on_future_done)
    if modal:
        dialog.open()
    else:
        dialog.setModal(False)
        dialog.show()
        dialog.raise_()
    return future


async def await_dialog(dialog: QDialog, modal: bool = True) -> int:
    """Show ``dialog`` (window-modal, or not) and return its result code once it closes."""
    return await show_dialog(dialog, modal)
