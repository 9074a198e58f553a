"""A tree model over ``capability_context_data`` that updates in place.

Levels: context type -> context key -> fields -> nested lists and dicts. Like napari's
``qt_tree_model``, rows are created lazily (``fetchMore`` in batches, so a 10,000-point
series costs nothing until someone opens it) and a new state is merged as row inserts,
row removals and ``dataChanged`` — never a model reset — so the view keeps its expansion,
selection and scroll position while a turn adds entries.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from PySide6.QtCore import QAbstractItemModel, QModelIndex, QPersistentModelIndex, Qt

from osprey_desktop.ui.values import ALARM_COLOURS, format_value, worst_alarm

BATCH = 256
PATH_ROLE = Qt.ItemDataRole.UserRole + 1
VALUE_ROLE = Qt.ItemDataRole.UserRole + 2
DEPTH_ROLE = Qt.ItemDataRole.UserRole + 3
SEARCH_ROLE = Qt.ItemDataRole.UserRole + 4

ContextData = Mapping[str, Mapping[str, Mapping[str, Any]]]
KeyDescriber = Callable[[str, str, Any], str | None]
#: The name a row shows instead of its key (path from the type down), None: the key itself.
RowNamer = Callable[[tuple[Any, ...]], str | None]
AnyIndex = QModelIndex | QPersistentModelIndex


def _is_mapping(value: Any) -> bool:
    return isinstance(value, Mapping)


def _is_sequence(value: Any) -> bool:
    return isinstance(value, Sequence) and not isinstance(value, (str, bytes))


def _size(value: Any) -> int:
    if _is_mapping(value) or _is_sequence(value):
        return len(value)
    return 0


SEARCH_BUDGET = 4000
"""Items visited per entry when building its search text: names and values of a channel
table are found, a 10,000-point series costs no more than its first few thousand points."""


def searchable_text(key: Any, value: Any, budget: int = SEARCH_BUDGET) -> str:
    parts = [str(key)]
    stack = [value]
    while stack and budget > 0:
        item = stack.pop()
        budget -= 1
        if _is_mapping(item):
            for k, v in item.items():
                parts.append(str(k))
                stack.append(v)
        elif _is_sequence(item):
            stack.extend(reversed(list(item[:budget])))
        elif item is not None:
            parts.append(str(item))
    return "\n".join(parts).lower()


class _Node:
    """One row. ``children`` stays None until the view asks for it (lazy)."""

    __slots__ = (
        "parent",
        "key",
        "value",
        "row",
        "depth",
        "children",
        "limit",
        "_alarm",
        "_search",
    )

    def __init__(self, parent: _Node | None, key: Any, value: Any, row: int, depth: int) -> None:
        self.parent = parent
        self.key = key
        self.value = value
        self.row = row
        self.depth = depth
        self.children: list[_Node] | None = None
        self.limit = 0  # how many children the view has asked for so far
        self._alarm: str | None | bool = False  # False: not computed yet
        self._search: str | None = None

    @property
    def alarm(self) -> str | None:
        """Worst alarm in this entry (types and keys look three levels down, fields one)."""
        if self._alarm is False:
            self._alarm = worst_alarm(self.value, depth=3 if self.depth <= 2 else 1)
        return self._alarm  # type: ignore[return-value]

    def set_value(self, value: Any) -> None:
        self.value = value
        self._alarm = False
        self._search = None

    @property
    def search_text(self) -> str:
        """Lower-case keys and scalar values inside this entry, for the filter (capped)."""
        if self._search is None:
            self._search = searchable_text(self.key, self.value)
        return self._search

    def path(self) -> tuple[Any, ...]:
        keys: list[Any] = []
        node: _Node | None = self
        while node is not None and node.parent is not None:
            keys.append(node.key)
            node = node.parent
        return tuple(reversed(keys))

    def pending_keys(self, count: int) -> list[Any]:
        """The next ``count`` child keys of ``value`` that have no row yet."""
        have = {c.key for c in self.children or ()}
        if _is_mapping(self.value):
            out = []
            for k in self.value:
                if k not in have:
                    out.append(k)
                    if len(out) == count:
                        break
            return out
        start = len(self.children or ())
        return list(range(start, min(start + count, _size(self.value))))


class ContextTreeModel(QAbstractItemModel):
    """Two columns (name, value) over the three-level context dict."""

    HEADERS = ("Name", "Value")

    def __init__(self, describe_key: KeyDescriber | None = None, parent: Any = None) -> None:
        super().__init__(parent)
        self._root = _Node(None, None, {}, 0, 0)
        self._root.children = []
        self._root.limit = BATCH
        self._describe_key = describe_key
        self._name_row: RowNamer | None = None
        self._merging = False  # views call fetchMore from our own signals: not mid-change

    # ----------------------------------------------------------------- public API
    def set_context_data(self, data: ContextData | None) -> None:
        """Merge a new ``capability_context_data`` into the tree with minimal signals."""
        self._merging = True
        try:
            self._update(self._root, QModelIndex(), dict(data or {}))
        finally:
            self._merging = False

    def context_data(self) -> Mapping[str, Any]:
        return self._root.value

    def set_key_describer(self, describe_key: KeyDescriber | None) -> None:
        self._describe_key = describe_key

    def set_row_namer(self, name_row: RowNamer | None) -> None:
        """Show operator words for types and entries (the raw key stays in the tooltip)."""
        self._name_row = name_row
        if self._root.children:
            first, last = self._root.children[0], self._root.children[-1]
            self.dataChanged.emit(
                self.createIndex(first.row, 0, first), self.createIndex(last.row, 0, last)
            )

    def path(self, index: AnyIndex) -> tuple[Any, ...]:
        return self._node(index).path()

    def index_for_path(self, path: Sequence[Any]) -> QModelIndex:
        """The index of ``path``, loading rows on the way; invalid if it does not exist."""
        node, index = self._root, QModelIndex()
        for key in path:
            child = self._find_child(node, index, key)
            if child is None:
                return QModelIndex()
            node, index = child, self.createIndex(child.row, 0, child)
        return index

    def load_to_depth(self, depth: int) -> None:
        """Create every row down to ``depth`` (1 = types, 2 = keys, 3 = fields), e.g. to filter."""

        def walk(node: _Node, index: QModelIndex) -> None:
            if node.depth >= depth:
                return
            while not self._merging and self.canFetchMore(index):
                self.fetchMore(index)
            for child in node.children or ():
                walk(child, self.createIndex(child.row, 0, child))

        walk(self._root, QModelIndex())

    # ---------------------------------------------------------- model interface
    def index(self, row: int, column: int, parent: AnyIndex = QModelIndex()) -> QModelIndex:
        node = self._node(parent)
        if node.children is None or not (0 <= row < len(node.children)) or not 0 <= column < 2:
            return QModelIndex()
        return self.createIndex(row, column, node.children[row])

    def parent(self, index: AnyIndex = QModelIndex()) -> QModelIndex:  # type: ignore[override]
        if not index.isValid():
            return QModelIndex()
        parent = index.internalPointer().parent
        if parent is None or parent is self._root:
            return QModelIndex()
        return self.createIndex(parent.row, 0, parent)

    def rowCount(self, parent: AnyIndex = QModelIndex()) -> int:
        if parent.isValid() and parent.column() != 0:
            return 0
        return len(self._node(parent).children or ())

    def columnCount(self, parent: AnyIndex = QModelIndex()) -> int:
        return 2

    def hasChildren(self, parent: AnyIndex = QModelIndex()) -> bool:
        node = self._node(parent)
        if node is self._root:
            return bool(node.children)
        return parent.column() == 0 and _size(node.value) > 0

    def canFetchMore(self, parent: AnyIndex) -> bool:
        # Not gated on ``_merging``: a filter proxy asked mid-merge would cache "no children"
        # for a row whose rows are not loaded yet, and the view drop its expand arrow.
        node = self._node(parent)
        return len(node.children or ()) < _size(node.value)

    def fetchMore(self, parent: AnyIndex) -> None:
        if self._merging:
            return
        node = self._node(parent)
        if node.children is None:
            node.children = []
        node.limit = max(node.limit, len(node.children)) + BATCH
        self._merging = True
        try:
            self._append(node, parent, node.pending_keys(BATCH))
        finally:
            self._merging = False

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = 0) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return self.HEADERS[section]
        return None

    def flags(self, index: AnyIndex) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable

    def data(self, index: AnyIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        node: _Node = index.internalPointer()
        if role == Qt.ItemDataRole.DisplayRole:
            if index.column() == 0:
                return self._name(node)
            text = format_value(node.value)
            if node.depth == 1:  # a context type: count its entries, not "fields"
                n = len(node.value)
                text = f"{n} entr{'y' if n == 1 else 'ies'}"
            alarm = node.alarm
            return f"{text}  ⚠ {alarm}" if alarm else text
        if role == Qt.ItemDataRole.ToolTipRole:
            return self._tooltip(node)
        if role == Qt.ItemDataRole.ForegroundRole:
            alarm = node.alarm
            return ALARM_COLOURS[alarm] if alarm else None
        if role == PATH_ROLE:
            return node.path()
        if role == VALUE_ROLE:
            return node.value
        if role == DEPTH_ROLE:
            return node.depth
        if role == SEARCH_ROLE:
            if node.depth <= 2 and self._name_row is not None:  # found by what it shows too
                return f"{node.search_text}\n{self._name(node).lower()}"
            return node.search_text
        return None

    # ------------------------------------------------------------------ internals
    def _node(self, index: AnyIndex) -> _Node:
        return index.internalPointer() if index.isValid() else self._root

    def _name(self, node: _Node) -> str:
        if isinstance(node.key, int):
            return f"[{node.key}]"
        if node.depth <= 2 and self._name_row is not None:
            try:
                name = self._name_row(node.path())
            except Exception:  # noqa: BLE001 - a name that cannot be made: show the key
                name = None
            if name:
                return name
        return str(node.key)

    def _tooltip(self, node: _Node) -> str | None:
        if node.depth == 1:
            n = _size(node.value)
            return f"Context type {node.key}: {n} entr{'y' if n == 1 else 'ies'}"
        if node.depth == 2 and self._describe_key is not None:
            try:
                return self._describe_key(node.parent.key, node.key, node.value)
            except Exception as exc:  # a broken context class must not break the tree
                return f"{node.parent.key}.{node.key}: no summary ({exc})"
        text = str(node.value)
        return text if len(text) <= 2000 else text[:2000] + "…"

    def _find_child(self, node: _Node, index: QModelIndex, key: Any) -> _Node | None:
        while True:
            for child in node.children or ():
                if child.key == key:
                    return child
            if self._merging or not self.canFetchMore(index):
                return None
            self.fetchMore(index)

    def _append(self, node: _Node, index: QModelIndex, keys: list[Any]) -> None:
        if not keys:
            return
        assert node.children is not None
        first = len(node.children)
        self.beginInsertRows(index, first, first + len(keys) - 1)
        value = node.value
        node.children.extend(
            _Node(node, k, value[k], first + i, node.depth + 1) for i, k in enumerate(keys)
        )
        self.endInsertRows()

    def _remove_rows(self, node: _Node, index: QModelIndex, rows: list[int]) -> None:
        """Remove rows (ascending) in contiguous runs, last run first, then renumber."""
        assert node.children is not None
        runs: list[list[int]] = []
        for r in rows:
            if runs and runs[-1][1] == r - 1:
                runs[-1][1] = r
            else:
                runs.append([r, r])
        for first, last in reversed(runs):
            self.beginRemoveRows(index, first, last)
            del node.children[first : last + 1]
            self.endRemoveRows()
        for i, child in enumerate(node.children):
            child.row = i

    def _update(self, node: _Node, index: QModelIndex, new: Any) -> None:
        old = node.value
        if new is old:
            return
        old_text = format_value(old), node.alarm
        node.set_value(new)
        if node.children is not None:
            if _is_mapping(old) and _is_mapping(new):
                self._merge_mapping(node, index, new)
            elif _is_sequence(old) and _is_sequence(new):
                self._merge_sequence(node, index, new)
            else:
                self._remove_rows(node, index, list(range(len(node.children))))
                node.children, node.limit = None, 0
        if index.isValid() and old_text != (format_value(new), node.alarm):
            self.dataChanged.emit(index, index.siblingAtColumn(1))

    def _merge_mapping(self, node: _Node, index: QModelIndex, new: Mapping[str, Any]) -> None:
        children = node.children
        assert children is not None
        gone = [c.row for c in children if c.key not in new]
        if gone:
            self._remove_rows(node, index, gone)
        for child in children:
            value = new[child.key]
            if value is not child.value and value != child.value:
                self._update(child, self.createIndex(child.row, 0, child), value)
        room = max(node.limit, BATCH if node is self._root else 0) - len(children)
        if room > 0 and len(children) < len(new):
            self._append(node, index, node.pending_keys(room))

    def _merge_sequence(self, node: _Node, index: QModelIndex, new: Sequence[Any]) -> None:
        children = node.children
        assert children is not None
        if len(children) > len(new):
            self._remove_rows(node, index, list(range(len(new), len(children))))
        for child in children:
            value = new[child.key]
            if value is not child.value and value != child.value:
                self._update(child, self.createIndex(child.row, 0, child), value)
        room = node.limit - len(children)
        if room > 0 and len(children) < len(new):
            self._append(node, index, node.pending_keys(room))
