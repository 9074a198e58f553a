"""Await a dialog without a nested event loop.

``QDialog.exec()`` inside a coroutine re-enters the qasync loop ("Cannot enter into task"),
so dialogs are shown with ``open()`` and their ``finished`` signal resolves a future.
"""

from __future__ import annotations

import asyncio

from PySide6.QtWidgets import QDialog


async def await_dialog(dialog: QDialog, modal: bool = True) -> int:
    """Show ``dialog`` (window-modal, or not) and return its result code once it closes."""
    loop = asyncio.get_running_loop()
    future: asyncio.Future[int] = loop.create_future()

    def done(result: int) -> None:
        if not future.done():
            future.set_result(int(result))

    dialog.finished.connect(done)
    if modal:
        dialog.open()
    else:
        dialog.setModal(False)
        dialog.show()
        dialog.raise_()
    try:
        return await future
    except asyncio.CancelledError:
        # The awaiting task was stopped (window closing, turn cancelled): close the dialog too.
        dialog.finished.disconnect(done)
        dialog.reject()
        raise
