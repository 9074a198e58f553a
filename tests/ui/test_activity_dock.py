"""The Activity dock over the durable records, the logbook entry's confirmation dialog, and a
logbook entry made from the real window."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QDialog

from osprey_desktop.logbook import LogbookEntry, SqliteLogbook
from osprey_desktop.logbook.activity import ActivityLog
from osprey_desktop.safety import AuditLog
from osprey_desktop.ui.activity_dock import ActivityDock, transcript_menu
from osprey_desktop.ui.logbook_dialog import LogbookEntryDialog

HCM01 = "SR01C:HCM01:Current:SP"


@pytest.fixture
def records(tmp_path):
    audit = AuditLog(tmp_path / "audit.sqlite")
    logbook = SqliteLogbook(tmp_path / "threads.sqlite")
    audit.record(channel=HCM01, outcome="intent", requested_value=1.5, thread_id="t1", when=100)
    audit.record(
        channel=HCM01,
        outcome="verified",
        requested_value=1.5,
        value_before=0.0,
        thread_id="t1",
        operator="ops",
        when=101,
    )
    audit.record(
        channel=HCM01,
        outcome="blocked",
        requested_value=9.0,
        thread_id="t2",
        message="9.0 A is above the maximum of 5.0 A",
        when=102,
    )
    audit.record(channel=HCM01, outcome="rejected", requested_value=2.0, thread_id="t3", when=103)
    logbook.record_event(
        kind="entry",
        what="logbook entry 1: Orbit corrected",
        outcome="local",
        operator="ops",
        thread_id="t1",
        entry_id=1,
        when=104,
    )
    return audit, logbook


@pytest.fixture
def refresh(qtbot, qasync_loop):
    """Refresh a dock and wait until its rows are read (on the qasync loop)."""

    def run(dock: ActivityDock) -> None:
        task = dock.refresh()
        qtbot.waitUntil(task.done, timeout=10_000)
        task.result()

    return run


def kinds(dock: ActivityDock) -> list[str]:
    return [row.kind for row in dock.shown_rows()]


def test_the_dock_lists_every_record_newest_first_and_filters_them(qtbot, refresh, records):
    dock = ActivityDock(ActivityLog(*records))
    qtbot.addWidget(dock)

    refresh(dock)

    assert kinds(dock) == ["logbook", "rejected", "refusal", "write"]  # the intent is no row
    assert "9.0 A is above the maximum" in dock.shown_rows()[2].what
    dock.kind.setCurrentIndex(dock.kind.findData("refusal"))
    assert kinds(dock) == ["refusal"]
    assert dock.note.text() == "1 of 4 rows match the filter."
    dock.kind.setCurrentIndex(0)
    qtbot.keyClicks(dock.search, "ops local")
    assert kinds(dock) == ["logbook"]


def test_new_records_are_inserted_at_the_top_without_a_reset(qtbot, refresh, records):
    audit, logbook = records
    dock = ActivityDock(ActivityLog(audit, logbook))
    qtbot.addWidget(dock)
    refresh(dock)
    resets: list[bool] = []
    dock.model.modelReset.connect(lambda: resets.append(True))

    logbook.record_event(
        kind="undo",
        what="undo of audit entry 2",
        outcome="verified",
        operator="ops",
        thread_id="t4",
        when=200,
    )
    with qtbot.waitSignal(dock.model.rowsInserted) as inserted:
        refresh(dock)

    assert inserted.args[1:] == [0, 0] and resets == []
    assert kinds(dock)[0] == "undo"


def test_columns_fit_their_rows_when_rows_change_not_on_every_resize(qtbot, refresh, records):
    """A header that measured its cells on every resize held the loop while a plot opened."""
    from PySide6.QtWidgets import QHeaderView

    dock = ActivityDock(ActivityLog(*records))
    qtbot.addWidget(dock)
    dock.resize(900, 300)
    dock.show()
    refresh(dock)
    header = dock.table.horizontalHeader()
    modes = [header.sectionResizeMode(c) for c in range(header.count())]
    assert QHeaderView.ResizeMode.ResizeToContents not in modes
    assert modes[3] == QHeaderView.ResizeMode.Stretch
    metrics = dock.table.fontMetrics()
    outcome = max(metrics.horizontalAdvance(row.outcome) for row in dock.shown_rows())
    assert header.sectionSize(4) >= outcome  # fitted to the rows read
    widths = [header.sectionSize(c) for c in (0, 1, 2, 4, 5)]

    dock.resize(600, 300)
    QApplication.processEvents()

    assert [header.sectionSize(c) for c in (0, 1, 2, 4, 5)] == widths


def test_the_list_survives_a_restart(qtbot, refresh, records):
    first = ActivityDock(ActivityLog(*records))
    qtbot.addWidget(first)
    refresh(first)
    first.close()

    again = ActivityDock(ActivityLog(*records))  # a new window over the same records
    qtbot.addWidget(again)
    refresh(again)

    assert again.shown_rows() == first.shown_rows()


def test_a_row_opens_its_thread(qtbot, refresh, records):
    dock = ActivityDock(ActivityLog(*records))
    qtbot.addWidget(dock)
    dock.show()
    refresh(dock)
    index = dock.proxy.index(2, 0)  # the refusal, on thread t2

    with qtbot.waitSignal(dock.thread_requested) as opened:
        dock.table.activated.emit(index)

    assert opened.args == ["t2"]


def test_the_dock_renders_and_fits_a_small_screen(qtbot, refresh, records):
    dock = ActivityDock(ActivityLog(*records))
    qtbot.addWidget(dock)
    refresh(dock)
    dock.resize(900, 300)
    dock.show()

    assert not dock.grab().isNull()
    hint = dock.minimumSizeHint()
    assert hint.width() <= 1280 and hint.height() <= 800


def _draft(tmp_path) -> tuple[SqliteLogbook, LogbookEntry, dict]:
    store = SqliteLogbook(tmp_path / "threads.sqlite")
    entry = store.add(LogbookEntry(title="Orbit", text="first words", logbook="operations"))
    payload = {
        "user_message": "**Publish this logbook entry to the local logbook?**",
        "resume_payload": {
            "approval_type": "logbook_entry",
            "entry_id": entry.id,
            "title": entry.title,
            "text": entry.text,
            "logbook": entry.logbook,
            "tags": [],
            "attachments": [{"filename": "orbit.png", "size": 4096}],
            "destination": "the local logbook",
        },
    }
    return store, entry, payload


def test_publish_saves_the_edits_and_a_screenshot_into_the_draft(qtbot, tmp_path):
    store, entry, payload = _draft(tmp_path)
    dialog = LogbookEntryDialog(payload, store, grace_ms=0, screenshot=lambda: b"\x89PNG shot")
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitUntil(dialog.is_armed)
    assert dialog.attachments.item(0).text() == "orbit.png (4 KB)"

    dialog.title_edit.setText("Orbit corrected in sector 3")
    dialog.text_edit.setPlainText("HCM01 raised by 1.5 A")
    dialog.tags_edit.setText("Orbit, Corrector")
    dialog.screenshot_box.setChecked(True)
    qtbot.mouseClick(dialog.approve_button, Qt.MouseButton.LeftButton)

    assert dialog.result() == QDialog.DialogCode.Accepted
    saved = store.get(entry.id)
    assert (saved.title, saved.text, saved.tags) == (
        "Orbit corrected in sector 3",
        "HCM01 raised by 1.5 A",
        ("Orbit", "Corrector"),
    )
    assert [a.filename for a in saved.attachments] == ["window.png"]


def test_an_entry_without_a_title_is_not_published(qtbot, tmp_path):
    store, entry, payload = _draft(tmp_path)
    dialog = LogbookEntryDialog(payload, store, grace_ms=0)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitUntil(dialog.is_armed)

    dialog.title_edit.clear()
    qtbot.mouseClick(dialog.approve_button, Qt.MouseButton.LeftButton)

    assert dialog.isVisible() and "needs a title" in dialog.problem.text()
    assert store.get(entry.id).title == "Orbit"
    qtbot.mouseClick(dialog.reject_button, Qt.MouseButton.LeftButton)
    assert dialog.result() == QDialog.DialogCode.Rejected


def test_log_this_from_the_window_confirms_and_shows_in_the_activity(qtbot, windows):
    window = windows.open(use_real_graph=True)
    opened: list = []
    window.approvals.dialog_opened.connect(opened.append)

    menus = [a.text().replace("&", "") for a in window.menuBar().actions()]
    assert menus[-2:] == ["Logbook", "Help"]
    window.log_this_action.trigger()
    qtbot.waitUntil(lambda: bool(opened), timeout=20_000)
    dialog = opened[0]
    assert isinstance(dialog, LogbookEntryDialog)
    qtbot.waitUntil(dialog.is_armed, timeout=5_000)
    dialog.text_edit.setPlainText("Shift handover: machine stable")
    qtbot.mouseClick(dialog.approve_button, Qt.MouseButton.LeftButton)
    windows.wait_idle(window, timeout=20_000)

    qtbot.waitUntil(lambda: "logbook" in kinds(window.activity), timeout=10_000)
    store = SqliteLogbook(windows.db_path)
    (entry,) = store.entries()
    assert entry.status == "local" and entry.text == "Shift handover: machine stable"
    assert "Logbook entry 1 made" in window.chat.transcript.toPlainText()
    with qtbot.waitSignal(window.controller.thread_changed) as switched:
        window.open_link("osprey-desktop://thread/t-elsewhere")  # as in a history answer
    assert switched.args == ["t-elsewhere"]
    menu = transcript_menu(window.chat.transcript, window.log_this_action)
    assert menu.actions()[-1] is window.log_this_action  # also on an answer's context menu
    menu.deleteLater()
    QApplication.processEvents()


def test_an_entry_that_was_not_published_is_retried_from_the_dock(
    qtbot, refresh, run_async, tmp_path, configure, monkeypatch
):
    from osprey_desktop.logbook import publish
    from tests.logbook.conftest import start_olog

    server = start_olog()
    try:
        monkeypatch.setenv("OLOG_USERNAME", "ops")
        monkeypatch.setenv("OLOG_PASSWORD", "wrong")
        config = configure({"logbook": {"type": "olog", "olog": {"url": server.url}}})
        store = SqliteLogbook(tmp_path / "threads.sqlite")
        draft = store.add(LogbookEntry(title="Vacuum", text="gauge 4 spiked", logbook="ops"))
        run_async(publish(store, draft.id, config))  # refused: 401
        dock = ActivityDock(ActivityLog(AuditLog(tmp_path / "audit.sqlite"), store))
        qtbot.addWidget(dock)
        dock.show()
        refresh(dock)
        assert not dock.retry_button.isEnabled()

        dock.table.setCurrentIndex(dock.proxy.index(0, 0))  # the not-published entry
        assert dock.retry_button.isEnabled()
        monkeypatch.setenv("OLOG_PASSWORD", "secret")
        qtbot.mouseClick(dock.retry_button, Qt.MouseButton.LeftButton)

        qtbot.waitUntil(lambda: len(dock.shown_rows()) == 2, timeout=10_000)
        assert "published (Olog 101)" in dock.note.text()
        assert store.get(draft.id).status == "published"
        assert [r.outcome for r in dock.shown_rows()] == ["published", "not_published"]
    finally:
        server.stop()
