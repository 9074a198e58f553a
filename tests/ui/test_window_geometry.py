"""The window fits the screen it opens on and remembers its layout across runs."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QRect, QSettings, QSize, Qt
from PySide6.QtWidgets import QToolButton

from osprey_desktop.ui.window_geometry import (
    GEOMETRY_KEY,
    SETTINGS_APPLICATION,
    SETTINGS_ORGANIZATION,
    fitted_rect,
)

pytestmark = pytest.mark.gui


@pytest.fixture
def bare_windows(qtbot, qasync_loop, configure):
    """Main windows without a session: enough for size and layout."""
    from osprey_desktop.ui.controller import SessionController
    from osprey_desktop.ui.main_window import MainWindow

    opened = []

    def open_window():
        window = MainWindow(SessionController(), configure())
        window.show()
        qtbot.waitExposed(window)
        opened.append(window)
        return window

    yield open_window
    for window in opened:
        close(window)
        window.deleteLater()


def close(window) -> None:
    """Close as the app does once the turn is stopped (this saves the layout)."""
    window._quitting = True
    window.close()


def available():
    from PySide6.QtGui import QGuiApplication

    return QGuiApplication.primaryScreen().availableGeometry()


def test_first_start_fills_most_of_a_small_screen_centred():
    rect = fitted_rect(QRect(0, 0, 1280, 1024))
    assert rect.size() == QSize(1152, 921)
    assert rect.center() == QRect(0, 0, 1280, 1024).center()


def test_first_start_on_a_large_screen_is_capped():
    rect = fitted_rect(QRect(1920, 0, 3840, 2160))
    assert rect.width() <= 1760 and rect.height() <= 1100
    assert QRect(1920, 0, 3840, 2160).contains(rect)


def test_window_fits_the_available_screen_with_its_right_edge_visible(bare_windows):
    window = bare_windows()
    assert available().contains(window.frameGeometry())
    assert window.width() >= 0.85 * available().width()
    inside = window.rect()
    copy_button = next(
        b
        for b in window.context_browser.findChildren(QToolButton)
        if b.defaultAction() is window.context_browser.copy_action
    )
    for widget in (copy_button, window.status.thread_label):
        assert widget.isVisible()
        top_left = widget.mapTo(window, widget.rect().topLeft())
        assert inside.contains(QRect(top_left, widget.size())), widget


def test_layout_is_saved_on_close_and_restored_next_start(bare_windows, window_settings_folder):
    window = bare_windows()
    window.setGeometry(QRect(40, 30, 640, 520))
    window.plan_viewer.hide()
    close(window)
    settings = QSettings(SETTINGS_ORGANIZATION, SETTINGS_APPLICATION)
    assert settings.value(GEOMETRY_KEY) is not None
    assert str(window_settings_folder) in settings.fileName()

    again = bare_windows()
    assert again.geometry().size() == QSize(640, 520)
    assert not again.plan_viewer.isVisible()
    assert again.context_browser.isVisible()


def test_saved_layout_bigger_than_this_screen_is_not_restored(bare_windows):
    window = bare_windows()
    screen = available()
    window.setWindowState(Qt.WindowState.WindowNoState)
    window.setGeometry(QRect(0, 0, screen.width() + 600, screen.height() + 400))
    window.plan_viewer.hide()
    close(window)

    again = bare_windows()
    assert screen.contains(again.frameGeometry())
    assert again.plan_viewer.isVisible()  # the old dock layout came with the old size
