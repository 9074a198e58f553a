"""Window size and dock layout: fitted to the screen, remembered across runs.

A fixed size cut the right edge off on a 1280-pixel screen, so a first start takes a share of
the screen's available area (capped, centred). On close the geometry and dock layout go to
``QSettings`` (organization ``osprey-desktop``); the next start uses them only when they still
fit the screen the window lands on: a layout saved on a large monitor is not forced onto a
laptop.
"""

from __future__ import annotations

from PySide6.QtCore import QByteArray, QRect, QSettings, QSize
from PySide6.QtGui import QGuiApplication, QScreen
from PySide6.QtWidgets import QMainWindow

SETTINGS_ORGANIZATION = "osprey-desktop"
SETTINGS_APPLICATION = "desktop-window"
SCREEN_SHARE = 0.9
MAX_SIZE = QSize(1760, 1100)  # beyond this a wider window only spreads the chat thinner
STATE_VERSION = 1  # bump when the dock set changes so an old layout is ignored
GEOMETRY_KEY = "main_window/geometry"
STATE_KEY = "main_window/state"
FRAME_KEY = "main_window/frame"  # the outer rectangle at close (normal one if maximized)


def window_settings() -> QSettings:
    return QSettings(SETTINGS_ORGANIZATION, SETTINGS_APPLICATION)


def fitted_rect(available: QRect, share: float = SCREEN_SHARE, maximum: QSize = MAX_SIZE) -> QRect:
    """A rectangle of ``share`` of ``available`` (at most ``maximum``), centred in it."""
    width = min(int(available.width() * share), maximum.width())
    height = min(int(available.height() * share), maximum.height())
    rect = QRect(0, 0, width, height)
    rect.moveCenter(available.center())
    return rect


def _screen_for(window: QMainWindow) -> QScreen:
    screen = QGuiApplication.screenAt(window.geometry().center())
    return screen or window.screen() or QGuiApplication.primaryScreen()


def fit_to_screen(window: QMainWindow) -> QRect:
    """Give ``window`` its first-start size on the screen it is on; returns the rectangle."""
    rect = fitted_rect(_screen_for(window).availableGeometry())
    window.setGeometry(rect)
    return rect


def fits_screen(frame: QRect) -> bool:
    """True when ``frame`` (a window's outer rectangle) lies inside one screen's free area."""
    screen = QGuiApplication.screenAt(frame.center())
    return screen is not None and screen.availableGeometry().contains(frame)


def restore_layout(window: QMainWindow, settings: QSettings | None = None) -> bool:
    """Restore the saved geometry and docks if they fit this screen, else fit the screen.

    Call before ``show()`` and after every dock is added. Returns True when restored. The
    check uses the rectangle saved at close, not what ``restoreGeometry`` makes of it: Qt
    squeezes an oversized geometry onto the screen, which would keep a layout meant for a
    bigger one.
    """
    settings = settings or window_settings()
    geometry, state = settings.value(GEOMETRY_KEY), settings.value(STATE_KEY)
    frame = settings.value(FRAME_KEY)
    if (
        isinstance(geometry, QByteArray)
        and isinstance(frame, QRect)
        and fits_screen(frame)
        and window.restoreGeometry(geometry)
    ):
        if isinstance(state, QByteArray):
            window.restoreState(state, STATE_VERSION)
        return True
    fit_to_screen(window)
    return False


def save_layout(window: QMainWindow, settings: QSettings | None = None) -> None:
    settings = settings or window_settings()
    settings.setValue(GEOMETRY_KEY, window.saveGeometry())
    settings.setValue(STATE_KEY, window.saveState(STATE_VERSION))
    maximized = window.isMaximized() or window.isFullScreen()
    settings.setValue(FRAME_KEY, window.normalGeometry() if maximized else window.frameGeometry())
    settings.sync()
