"""Reading, expanding, merging and validating the YAML configuration files.

Order: ``resources/config.yaml``, then the site file (``$OSPREY_DESKTOP_SITE_CONFIG`` or
``/etc/xdg/osprey-desktop/config.yaml``), then one user file (explicit path,
``$OSPREY_DESKTOP_CONFIG``, or ``<platform config folder>/osprey-desktop/config.yaml``),
deep-merged: mappings merge key by key, every other value (lists included) replaces the one
below. ``${NAME}`` and ``${NAME:-fallback}`` in string values expand from the environment
before validation.

The site file may **lock** keys (``locked: [control_system.epics.writes_enabled, archiver]``):
a locked key, and every key under it, keeps the site's value (or the shipped default); a user
file's value there is ignored, logged as a warning and shown by ``osprey-desktop config
--show``. ``load_config_layers`` returns the merged configuration with where each value came
from.
"""

from __future__ import annotations

import difflib
import logging
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ValidationError

from osprey_desktop.config.errors import ConfigError
from osprey_desktop.config.models import AppConfig
from osprey_desktop.config.paths import (
    CONFIG_ENV_VAR,
    SITE_CONFIG_ENV_VAR,
    default_config_path,
    site_config_path,
    user_config_path,
)

_log = logging.getLogger(__name__)
#: The site file's own key: the dotted keys a user file may not change.
LOCKED_KEY = "locked"

_ENV_REFERENCE = re.compile(r"\$\{(?P<name>[A-Za-z_][A-Za-z0-9_]*)(?::-(?P<fallback>[^}]*))?\}")


class _StrictLoader(yaml.SafeLoader):
    """SafeLoader that refuses a key written twice in one mapping (YAML keeps the last)."""


def _construct_mapping(loader: _StrictLoader, node: yaml.MappingNode) -> dict[Any, Any]:
    loader.flatten_mapping(node)
    seen: set[Any] = set()
    for key_node, _ in node.value:
        key = loader.construct_object(key_node)
        if key in seen:
            raise yaml.constructor.ConstructorError(
                None, None, f"key '{key}' appears twice in the same mapping", key_node.start_mark
            )
        seen.add(key)
    return loader.construct_mapping(node)


_StrictLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


def read_yaml_file(path: Path, *, why: str | None = None) -> dict[str, Any]:
    """Parse one config file into a dict; ``why`` says who named it, for the not-found hint."""
    if not path.exists():
        hint = f" (check {why})" if why else ""
        raise ConfigError(f"file not found{hint}", file=path)
    if path.is_dir():
        raise ConfigError("this is a folder; name a YAML file instead", file=path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"cannot read the file: {exc}", file=path) from None
    try:
        data = yaml.load(text, Loader=_StrictLoader)  # noqa: S506 - a SafeLoader subclass
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        problem = getattr(exc, "problem", None) or str(exc)
        line = mark.line + 1 if mark is not None else None
        column = f"column {mark.column + 1}: " if mark is not None else ""
        raise ConfigError(f"invalid YAML, {column}{problem}", file=path, line=line) from None
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise ConfigError(
            f"the top level must be a mapping of keys, not a {type(data).__name__}", file=path
        )
    return data


def expand_env(data: Any, *, file: Path | str | None = None, key: str = "") -> Any:
    """Replace ``${NAME}`` / ``${NAME:-fallback}`` in every string value, recursively.

    Like the shell, the fallback is used when the variable is unset or empty. A variable that
    is unset and has no fallback is an error naming it, so a secret is never silently blank.
    """
    if isinstance(data, dict):
        return {
            k: expand_env(v, file=file, key=f"{key}.{k}" if key else str(k))
            for k, v in data.items()
        }
    if isinstance(data, list):
        return [expand_env(v, file=file, key=f"{key}[{i}]") for i, v in enumerate(data)]
    if not isinstance(data, str) or "${" not in data:
        return data

    def substitute(match: re.Match[str]) -> str:
        name, fallback = match.group("name"), match.group("fallback")
        value = os.environ.get(name)
        if value:
            return value
        if fallback is not None:
            return fallback
        if value is not None:  # set but empty, and no fallback: empty is what was asked for
            return value
        raise ConfigError(
            f"environment variable {name} is not set; set it or write ${{{name}:-fallback}}",
            file=file,
            key=key or None,
        )

    return _ENV_REFERENCE.sub(substitute, data)


def deep_merge(base: Mapping[str, Any], override: Mapping[str, Any]) -> dict[str, Any]:
    """A new dict: ``override`` merged into ``base``; nested mappings merge, the rest replaces."""
    merged = dict(base)
    for key, value in override.items():
        current = merged.get(key)
        if isinstance(current, Mapping) and isinstance(value, Mapping):
            merged[key] = deep_merge(current, value)
        else:
            merged[key] = value
    return merged


def _dotted(loc: tuple[int | str, ...]) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def _contains(data: Any, loc: tuple[int | str, ...]) -> bool:
    for part in loc:
        in_dict = isinstance(data, dict) and part in data
        in_list = isinstance(data, list) and isinstance(part, int) and part < len(data)
        if in_dict or in_list:
            data = data[part]
        else:
            return False
    return True


def _model_at(loc: tuple[int | str, ...]) -> type[BaseModel] | None:
    """The model class that owns the mapping at ``loc`` (for known-key hints)."""
    model: Any = AppConfig
    for part in loc:
        if not (isinstance(model, type) and issubclass(model, BaseModel)):
            return None
        field = model.model_fields.get(str(part))
        if field is None:
            return None
        annotation = field.annotation
        args = getattr(annotation, "__args__", ())
        if getattr(annotation, "__origin__", None) is dict and len(args) == 2:
            model = args[1]
            continue
        model = annotation
    return model if isinstance(model, type) and issubclass(model, BaseModel) else None


def _describe(error: Mapping[str, Any]) -> str:
    loc = tuple(error["loc"])
    if error["type"] == "extra_forbidden":
        owner = _model_at(loc[:-1])
        known = sorted(owner.model_fields) if owner else []
        close = difflib.get_close_matches(str(loc[-1]), known, n=1)
        hint = f"; did you mean '{close[0]}'?" if close else ""
        listing = f" (known keys here: {', '.join(known)})" if known and not close else ""
        return f"unknown key{hint}{listing}"
    if error["type"] == "missing":
        return "required key is missing"
    shown = repr(error.get("input"))
    if len(shown) > 60:
        shown = shown[:57] + "..."
    return f"{error['msg']} (got {shown})"


def validate_config(
    merged: Mapping[str, Any],
    *,
    user_data: Mapping[str, Any] | None = None,
    user_file: Path | str | None = None,
    default_file: Path | str | None = None,
    site_data: Mapping[str, Any] | None = None,
    site_file: Path | str | None = None,
) -> AppConfig:
    """Validate a merged dict; a failure names the file that supplied the bad key."""
    try:
        return AppConfig.model_validate(dict(merged))
    except ValidationError as exc:
        errors = exc.errors()
        first = errors[0]
        loc = tuple(first["loc"])
        owner_loc = loc[:-1] if first["type"] == "missing" else loc
        blame = user_file if user_data is not None and _contains(user_data, owner_loc) else None
        if blame is None and site_data is not None and _contains(site_data, owner_loc):
            blame = site_file
        more = f" (and {len(errors) - 1} more problem{'s' if len(errors) > 2 else ''})"
        raise ConfigError(
            _describe(first) + (more if len(errors) > 1 else ""),
            file=blame or default_file,
            key=_dotted(loc) or None,
        ) from None


def _read_defaults() -> tuple[Path, dict[str, Any]]:
    path = default_config_path()
    return path, expand_env(read_yaml_file(path, why="the installation"), file=path)


def _user_file(path: str | Path | None) -> tuple[Path | None, str | None]:
    if path is not None and str(path) != "":
        return Path(path).expanduser(), "the path given with --config"
    from_env = os.environ.get(CONFIG_ENV_VAR)
    if from_env:
        return Path(from_env).expanduser(), CONFIG_ENV_VAR
    candidate = user_config_path()
    return (candidate, None) if candidate.is_file() else (None, None)


@dataclass(frozen=True)
class ConfigLayers:
    """The merged configuration and where each of its values came from."""

    config: AppConfig
    #: dotted key -> "default", "site" or "user" (leaves of the merged configuration)
    sources: dict[str, str]
    files: dict[str, Path]  # "default"/"site"/"user" -> the file read
    locked: tuple[str, ...]  # the site's locked keys
    #: (dotted key, the user's value) a lock kept out
    overridden: tuple[tuple[str, Any], ...] = ()

    def source_of(self, key: str) -> str:
        """ "default", "site" or "user" for a dotted key (its nearest set ancestor's)."""
        parts = key.split(".")
        for end in range(len(parts), 0, -1):
            found = self.sources.get(".".join(parts[:end]))
            if found is not None:
                return found
        return "default"

    def is_locked(self, key: str) -> bool:
        return any(_under(key, lock) for lock in self.locked)


def _under(key: str, lock: str) -> bool:
    return key == lock or key.startswith(lock + ".")


def _site_locks(site_file: Path, data: dict[str, Any]) -> tuple[str, ...]:
    raw = data.pop(LOCKED_KEY, None)
    if raw is None:
        return ()
    if isinstance(raw, str):
        raw = [raw]
    if not isinstance(raw, list) or not all(isinstance(k, str) and k.strip() for k in raw):
        raise ConfigError(
            "'locked' must be a list of dotted keys, e.g. [control_system.epics.writes_enabled]",
            file=site_file,
            key=LOCKED_KEY,
        )
    locks = tuple(k.strip() for k in raw)
    for lock in locks:
        if not _known_key(lock):
            raise ConfigError(
                f"'{lock}' is not a configuration key, so it cannot be locked",
                file=site_file,
                key=LOCKED_KEY,
            )
    return locks


def _known_key(dotted: str) -> bool:
    parts = tuple(dotted.split("."))
    owner = _model_at(parts[:-1])
    if owner is None:
        return False
    return parts[-1] in owner.model_fields


def _without_locked(
    data: Mapping[str, Any], locks: tuple[str, ...], prefix: str = ""
) -> tuple[dict[str, Any], list[tuple[str, Any]]]:
    """``data`` without the locked keys, and the (key, value) pairs taken out."""
    kept: dict[str, Any] = {}
    dropped: list[tuple[str, Any]] = []
    for key, value in data.items():
        dotted = f"{prefix}{key}"
        if any(_under(dotted, lock) for lock in locks):
            dropped.append((dotted, value))
        elif isinstance(value, Mapping) and any(lock.startswith(dotted + ".") for lock in locks):
            inner, gone = _without_locked(value, locks, dotted + ".")
            kept[key] = inner
            dropped.extend(gone)
        else:
            kept[key] = value
    return kept, dropped


def _leaves(data: Mapping[str, Any], prefix: str = "") -> list[str]:
    out: list[str] = []
    for key, value in data.items():
        dotted = f"{prefix}{key}"
        if isinstance(value, Mapping) and value:
            out.extend(_leaves(value, dotted + "."))
        else:
            out.append(dotted)
    return out


def load_config_layers(
    path: str | Path | None = None, site: str | Path | None = None
) -> ConfigLayers:
    """The shipped defaults, the site file and the user file merged, with their sources.

    ``site``: a site file to read instead of the usual places (tests).
    """
    default_path, defaults = _read_defaults()
    files: dict[str, Path] = {"default": default_path}
    sources = dict.fromkeys(_leaves(defaults), "default")
    merged: dict[str, Any] = defaults
    site_path = Path(site).expanduser() if site is not None else site_config_path()
    site_data: dict[str, Any] | None = None
    locks: tuple[str, ...] = ()
    if site_path is not None:
        why = SITE_CONFIG_ENV_VAR if os.environ.get(SITE_CONFIG_ENV_VAR) else None
        site_data = expand_env(read_yaml_file(site_path, why=why), file=site_path)
        locks = _site_locks(site_path, site_data)
        files["site"] = site_path
        merged = deep_merge(merged, site_data)
        sources.update(dict.fromkeys(_leaves(site_data), "site"))
    user_path, why = _user_file(path)
    user_data: dict[str, Any] | None = None
    overridden: list[tuple[str, Any]] = []
    if user_path is not None:
        raw_user = expand_env(read_yaml_file(user_path, why=why), file=user_path)
        if LOCKED_KEY in raw_user:
            raise ConfigError(
                "only the site file may lock keys; remove 'locked' from this file",
                file=user_path,
                key=LOCKED_KEY,
            )
        user_data, overridden = _without_locked(raw_user, locks)
        for key, value in overridden:
            _log.warning(
                "%s sets %s to %r, but the site file %s locks it: the site's value holds",
                user_path,
                key,
                value,
                site_path,
            )
        files["user"] = user_path
        merged = deep_merge(merged, user_data)
        sources.update(dict.fromkeys(_leaves(user_data), "user"))
    config = validate_config(
        merged,
        user_data=user_data,
        user_file=user_path,
        default_file=default_path,
        site_data=site_data,
        site_file=site_path,
    )
    return ConfigLayers(config, sources, files, locks, tuple(overridden))


def load_config(path: str | Path | None = None) -> AppConfig:
    """Defaults, site file and user file merged; raises ConfigError with one-line text."""
    return load_config_layers(path).config


def build_config(overrides: Mapping[str, Any] | None = None) -> AppConfig:
    """The shipped defaults with ``overrides`` merged in, ignoring any user file (for tests)."""
    default_path, defaults = _read_defaults()
    data = expand_env(dict(overrides or {}), file="<overrides>")
    return validate_config(
        deep_merge(defaults, data),
        user_data=data,
        user_file="<overrides>",
        default_file=default_path,
    )
