"""A pyqtgraph ``PlotItem`` whose "Plot Options" form is made when it is first needed.

pyqtgraph builds that form (two dozen widgets in six groups, a menu, a widget group for its
state and two dozen connections) in every ``PlotItem``: about a third of a plot's making on
the window's loop, for a menu most plots never open (the time plot shows its own). Here the
plot starts with the form's values only, in plain Python objects that answer what pyqtgraph's
own methods ask of the form's widgets (``isChecked``, ``setChecked`` with its ``toggled``,
``value``, ``setValue`` with its ``valueChanged``, the parameter list): ``showGrid``,
``setLogMode``, ``setDownsampling``, ``setClipToView``, adding curves and the rest work as
before, through pyqtgraph's code. The real form is made, with those values and the same
connections, when the menu is asked for (a right click), when the state is saved or restored,
or when anything else of a widget is used.
"""

from __future__ import annotations

import inspect
import weakref
from collections.abc import Callable
from functools import cache
from typing import Any

import pyqtgraph as pg
from pyqtgraph import icons
from pyqtgraph.graphicsItems.ButtonItem import ButtonItem
from pyqtgraph.graphicsItems.PlotItem import plotConfigTemplate_generic
from pyqtgraph.WidgetGroup import WidgetGroup
from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import (
    QGraphicsGridLayout,
    QListWidgetItem,
    QMenu,
    QSizePolicy,
    QWidget,
    QWidgetAction,
)

from osprey_desktop.ui.plot_items import LazyMenuViewBox

# The form's values as pyqtgraph's template makes them (tests compare them with a real form).
CHECKS = {
    "averageGroup": False,
    "clipToViewCheck": False,
    "maxTracesCheck": False,
    "downsampleCheck": False,
    "forgetTracesCheck": False,
    "autoDownsampleCheck": True,
    "logXCheck": False,
    "logYCheck": False,
    "derivativeCheck": False,
    "phasemapCheck": False,
    "fftCheck": False,
    "subtractMeanCheck": False,
    "pointsGroup": True,
    "autoPointsCheck": True,
    "xGridCheck": False,
    "yGridCheck": False,
    "alphaGroup": True,
    "autoAlphaCheck": False,
}
RADIOS = {"subsampleRadio": False, "meanRadio": False, "peakRadio": True}  # one group
NUMBERS = {  # value, minimum, maximum
    "downsampleSpin": (1, 1, 100_000),
    "maxTracesSpin": (0, 0, 99),
    "gridAlphaSlider": (128, 0, 255),
    "alphaSlider": (1000, 0, 1000),
}
# pyqtgraph's menu: one submenu per group of the form, in this order
MENU_GROUPS = (
    ("Transforms", "transformGroup"),
    ("Downsample", "decimateGroup"),
    ("Average", "averageGroup"),
    ("Alpha", "alphaGroup"),
    ("Grid", "gridGroup"),
    ("Points", "pointsGroup"),
)
# (widget, signal, PlotItem's slot): what PlotItem.__init__ connects (pyqtgraph 0.14)
CONNECTIONS = (
    ("alphaGroup", "toggled", "updateAlpha"),
    ("alphaSlider", "valueChanged", "updateAlpha"),
    ("autoAlphaCheck", "toggled", "updateAlpha"),
    ("xGridCheck", "toggled", "updateGrid"),
    ("yGridCheck", "toggled", "updateGrid"),
    ("gridAlphaSlider", "valueChanged", "updateGrid"),
    ("fftCheck", "toggled", "updateSpectrumMode"),
    ("subtractMeanCheck", "toggled", "updateSubtractMeanMode"),
    ("logXCheck", "toggled", "updateLogMode"),
    ("logYCheck", "toggled", "updateLogMode"),
    ("derivativeCheck", "toggled", "updateDerivativeMode"),
    ("phasemapCheck", "toggled", "updatePhasemapMode"),
    ("downsampleSpin", "valueChanged", "updateDownsampling"),
    ("downsampleCheck", "toggled", "updateDownsampling"),
    ("autoDownsampleCheck", "toggled", "updateDownsampling"),
    ("subsampleRadio", "toggled", "updateDownsampling"),
    ("meanRadio", "toggled", "updateDownsampling"),
    ("clipToViewCheck", "toggled", "updateDownsampling"),
    ("avgParamList", "itemClicked", "avgParamListClicked"),
    ("averageGroup", "toggled", "avgToggled"),
    ("maxTracesCheck", "toggled", "_handle_max_traces_toggle"),
    ("forgetTracesCheck", "toggled", "updateDecimation"),
    ("maxTracesSpin", "valueChanged", "updateDecimation"),
)


@cache
def _takes_value(function: Callable[..., Any], bound: bool) -> bool:
    """Whether a slot takes the signal's value: Qt passes it only to a slot that has room."""
    try:
        parameters = list(inspect.signature(function).parameters.values())
    except (TypeError, ValueError):
        return True
    if bound:
        parameters = parameters[1:]
    positional = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    return any(
        p.kind in positional or p.kind is inspect.Parameter.VAR_POSITIONAL for p in parameters
    )


class _Signal:
    """A form widget's signal while the widget is not made: its slots, called on a change."""

    def __init__(self) -> None:
        self.slots: list[Callable[..., Any]] = []

    def connect(self, slot: Callable[..., Any]) -> None:
        self.slots.append(slot)

    def emit(self, value: Any) -> None:
        for slot in list(self.slots):
            function = getattr(slot, "__func__", slot)
            if _takes_value(function, function is not slot):
                slot(value)
            else:
                slot()


class _Field:
    """One widget of the form before it is made; anything beyond its value makes the form and
    is the real widget's."""

    signal_name = ""

    def __init__(self, form: OptionsValues, name: str) -> None:
        self._form = form
        self._name = name
        setattr(self, self.signal_name, _Signal())

    def _real(self) -> Any:
        real = self._form.real
        return getattr(real, self._name) if real is not None else None

    def __getattr__(self, attribute: str) -> Any:
        if attribute.startswith("_"):  # not a widget's: copy, pickle and the like ask these
            raise AttributeError(attribute)
        return getattr(getattr(self._form.make(), self._name), attribute)


class _Check(_Field):
    """A check box, a checkable group, or a radio button of an exclusive group."""

    signal_name = "toggled"

    def __init__(
        self, form: OptionsValues, name: str, checked: bool, group: list[_Check] | None = None
    ) -> None:
        super().__init__(form, name)
        self._checked = checked
        self._group = group

    def isChecked(self) -> bool:  # noqa: N802 - Qt's name
        real = self._real()
        return real.isChecked() if real is not None else self._checked

    def setChecked(self, checked: bool) -> None:  # noqa: N802 - Qt's name
        real = self._real()
        if real is not None:
            real.setChecked(checked)
            return
        checked = bool(checked)
        if checked == self._checked:
            return
        if self._group is not None and not checked:
            return  # as in Qt: the checked radio of a group is unchecked by checking another
        self._checked = checked
        for other in self._group or ():  # Qt unchecks the other first, then says this one
            if other is not self and other._checked:
                other._checked = False
                other.toggled.emit(False)
        self.toggled.emit(checked)


class _Number(_Field):
    """A spin box or a slider."""

    signal_name = "valueChanged"

    def __init__(
        self, form: OptionsValues, name: str, value: int, minimum: int, maximum: int
    ) -> None:
        super().__init__(form, name)
        self._number, self._minimum, self._maximum = value, minimum, maximum

    def value(self) -> int:
        real = self._real()
        return real.value() if real is not None else self._number

    def minimum(self) -> int:
        real = self._real()
        return real.minimum() if real is not None else self._minimum

    def maximum(self) -> int:
        real = self._real()
        return real.maximum() if real is not None else self._maximum

    def setValue(self, value: int) -> None:  # noqa: N802 - Qt's name
        real = self._real()
        if real is not None:
            real.setValue(value)
            return
        value = min(max(int(value), self._minimum), self._maximum)
        if value != self._number:
            self._number = value
            self.valueChanged.emit(value)


class _ParamList(_Field):
    """The list of curve parameters to average over."""

    signal_name = "itemClicked"

    def __init__(self, form: OptionsValues, name: str) -> None:
        super().__init__(form, name)
        self._items: list[QListWidgetItem] = []

    def clear(self) -> None:
        real = self._real()
        if real is not None:
            real.clear()
        self._items = []

    def count(self) -> int:
        real = self._real()
        return real.count() if real is not None else len(self._items)

    def item(self, row: int) -> QListWidgetItem | None:
        real = self._real()
        if real is not None:
            return real.item(row)
        return self._items[row] if 0 <= row < len(self._items) else None

    def addItem(self, item: QListWidgetItem | str) -> None:  # noqa: N802 - Qt's name
        real = self._real()
        if real is not None:
            real.addItem(item)
            return
        self._items.append(item if isinstance(item, QListWidgetItem) else QListWidgetItem(item))

    def findItems(self, text: str, flags: Qt.MatchFlag) -> list[QListWidgetItem]:  # noqa: N802
        if self._real() is None and flags == Qt.MatchFlag.MatchExactly:
            return [item for item in self._items if item.text() == text]
        return getattr(self._form.make(), self._name).findItems(text, flags)


class OptionsValues:
    """What ``PlotItem.ctrl`` holds until the form is made: its values, by widget name."""

    def __init__(self, make: Callable[[], Any]) -> None:
        self.make = make  # makes the real form (once) and returns it
        self.real: Any = None
        self.fields: dict[str, _Field] = {}
        for name, checked in CHECKS.items():
            self.fields[name] = _Check(self, name, checked)
        radios: list[_Check] = []
        for name, checked in RADIOS.items():
            radios.append(_Check(self, name, checked, radios))
            self.fields[name] = radios[-1]
        for name, (value, minimum, maximum) in NUMBERS.items():
            self.fields[name] = _Number(self, name, value, minimum, maximum)
        self.fields["avgParamList"] = _ParamList(self, "avgParamList")

    def __getattr__(self, name: str) -> Any:
        fields = self.__dict__.get("fields", {})
        if name in fields:
            return fields[name]
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(self.make(), name)  # a label, a layout, a group: the real form's

    def state(self) -> dict[str, Any]:
        """The values as pyqtgraph's ``stateGroup.state()`` names them."""
        out: dict[str, Any] = {}
        for name, field in self.fields.items():
            if isinstance(field, _Check):
                out[name] = field._checked
            elif isinstance(field, _Number):
                out[name] = field._number
        return out

    def copy_to(self, form: Any) -> None:
        """Give the made form these values without signals (their effects are in place), and
        these fields' connections."""
        for name, field in sorted(
            self.fields.items(), key=lambda f: isinstance(f[1], _Check) and f[1]._checked
        ):  # unchecked first: a radio is checked last, so its group ends as here
            widget = getattr(form, name)
            blocked = widget.blockSignals(True)
            if isinstance(field, _Check):
                widget.setChecked(field._checked)
            elif isinstance(field, _Number):
                widget.setValue(field._number)
            elif isinstance(field, _ParamList):
                for item in field._items:
                    widget.addItem(item)
                field._items = []
            widget.blockSignals(blocked)
            signal = getattr(widget, field.signal_name)
            for slot in getattr(field, field.signal_name).slots:
                signal.connect(slot)


class LazyFormPlotItem(pg.PlotItem):
    """``pg.PlotItem`` with the same arguments and behaviour, its options form made on first
    use (see the module); on a ``LazyMenuViewBox`` unless given a view box."""

    def __init__(
        self,
        parent: Any = None,
        name: str | None = None,
        labels: dict[str, Any] | None = None,
        title: str | None = None,
        viewBox: pg.ViewBox | None = None,  # noqa: N803 - pyqtgraph's name
        axisItems: dict[str, pg.AxisItem] | None = None,  # noqa: N803 - pyqtgraph's name
        enableMenu: bool = True,  # noqa: N803 - pyqtgraph's name
        **kwargs: Any,
    ) -> None:
        # PlotItem.__init__ (pyqtgraph 0.14) without the form: the class after PlotItem is
        # initialised here, and the rest is PlotItem's own, line for line
        super(pg.PlotItem, self).__init__(parent)
        self._form_made = False
        self._menu: QMenu | None = None
        self._state_group: WidgetGroup | None = None
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.autoBtn = ButtonItem(icons.getGraphPixmap("auto"), 14, self)
        self.autoBtn.mode = "auto"
        self.autoBtn.clicked.connect(self.autoBtnClicked)
        self.buttonsHidden = False
        self.mouseHovering = False
        self.layout = QGraphicsGridLayout()
        self.layout.setContentsMargins(1, 1, 1, 1)
        self.setLayout(self.layout)
        self.layout.setHorizontalSpacing(0)
        self.layout.setVerticalSpacing(0)
        if viewBox is None:
            viewBox = LazyMenuViewBox(parent=self)
            viewBox.setMenuEnabled(enableMenu)
        self.vb = viewBox
        self.vb.sigStateChanged.connect(self.viewStateChanged)
        self.setMenuEnabled(enableMenu, None)
        if name is not None:
            self.vb.register(name)
        self.vb.sigRangeChanged.connect(self.sigRangeChanged)
        self.vb.sigXRangeChanged.connect(self.sigXRangeChanged)
        self.vb.sigYRangeChanged.connect(self.sigYRangeChanged)
        self.vb.sigRangeChangedManually.connect(self.sigRangeChangedManually)
        self.layout.addItem(self.vb, 2, 1)
        self.alpha = 1.0
        self.autoAlpha = True
        self.spectrumMode = False
        self.legend = None
        self.axes = {}
        self.setAxisItems(axisItems)
        self.titleLabel = pg.LabelItem("", size="11pt", parent=self)
        self.layout.addItem(self.titleLabel, 0, 1)
        self.setTitle(None)
        for i in range(4):
            self.layout.setRowPreferredHeight(i, 0)
            self.layout.setRowMinimumHeight(i, 0)
            self.layout.setRowSpacing(i, 0)
            self.layout.setRowStretchFactor(i, 1)
        for i in range(3):
            self.layout.setColumnPreferredWidth(i, 0)
            self.layout.setColumnMinimumWidth(i, 0)
            self.layout.setColumnSpacing(i, 0)
            self.layout.setColumnStretchFactor(i, 1)
        self.layout.setRowStretchFactor(2, 100)
        self.layout.setColumnStretchFactor(1, 100)
        self.items = []
        self.curves = []
        self.itemMeta = weakref.WeakKeyDictionary()
        self.dataItems = []
        self.paramList = {}
        self.avgCurves = {}
        self.avgPen = pg.mkPen((0, 200, 0))
        self.avgShadowPen = pg.mkPen((0, 0, 0), width=4)
        self.ctrl: Any = OptionsValues(self.make_form)
        for widget, signal, slot in CONNECTIONS:
            getattr(getattr(self.ctrl, widget), signal).connect(getattr(self, slot))
        self.fileDialog = None

        if labels is None:
            labels = {}
        for label in list(self.axes.keys()):
            if label in kwargs:
                labels[label] = kwargs.pop(label)
        for key, value in labels.items():
            self.setLabel(key, *((value,) if isinstance(value, str) else value))
        if title is not None:
            self.setTitle(title)
        if kwargs:
            self.plot(**kwargs)

    @property
    def form_made(self) -> bool:
        """Whether pyqtgraph's options form exists yet."""
        return self._form_made

    def make_form(self) -> Any:
        """pyqtgraph's options form with the values and connections so far, and its menu (as
        ``PlotItem.__init__`` makes them); once. Returns the form (``ctrl``)."""
        if self._form_made:
            return self.ctrl
        values: OptionsValues = self.ctrl
        holder = QWidget()
        form = plotConfigTemplate_generic.Ui_Form()
        form.setupUi(holder)
        values.copy_to(form)
        translate = QCoreApplication.translate
        menu = QMenu(translate("PlotItem", "Plot Options"))
        group_state = WidgetGroup()
        for title, name in MENU_GROUPS:
            group = getattr(form, name)
            action = QWidgetAction(self)
            action.setDefaultWidget(group)
            menu.addMenu(translate("PlotItem", title)).addAction(action)
            group_state.autoAdd(group)
        self.ctrl = form
        values.real = form
        self._menu, self._state_group, self._form_made = menu, group_state, True
        return form

    # What PlotItem keeps of the form beside ``ctrl``: made with it, on first use.
    @property
    def ctrlMenu(self) -> QMenu | None:  # noqa: N802 - pyqtgraph's name
        self.make_form()
        return self._menu

    @ctrlMenu.setter
    def ctrlMenu(self, menu: QMenu | None) -> None:  # noqa: N802 - pyqtgraph's name
        self.make_form()
        self._menu = menu

    @property
    def stateGroup(self) -> WidgetGroup:  # noqa: N802 - pyqtgraph's name
        self.make_form()
        assert self._state_group is not None
        return self._state_group


def lazy_plot_widget(**kwargs: Any) -> pg.PlotWidget:
    """A ``pg.PlotWidget`` around a ``LazyFormPlotItem`` made with ``kwargs`` (``viewBox``,
    ``axisItems``, ...)."""
    return pg.PlotWidget(plotItem=LazyFormPlotItem(**kwargs))


__all__ = ["LazyFormPlotItem", "OptionsValues", "lazy_plot_widget"]
