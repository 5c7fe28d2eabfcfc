"""User-level mail defaults: one ``mail.toml`` in the platform's config directory
(``$XDG_CONFIG_HOME/pbem/mail.toml``, by default ``~/.config/pbem/mail.toml`` on Linux;
platformdirs elsewhere) under every game's own, so a player in five games writes the
address, key and inbox once.

The game's file wins key by key; a table (``[inbox]``, ``[send]``, ``[limits]``) given in
the game's file replaces the user's whole table, so two halves of different servers never
mix.  What belongs to one game (``players``, ``game_master``, ``state_dir``) is refused here.
Relative paths in this file are relative to its own folder.
"""

from __future__ import annotations

from pathlib import Path

from ...io.storage import read_toml
from ...model.errors import PbemError

FILE_NAME = "mail.toml"
MAX_BYTES = 64 * 1024
PER_GAME = ("players", "game_master", "state_dir")
#: (table or "", key) of every setting that names a path
PATHS = (("", "key"), ("inbox", "path"), ("inbox", "ca_file"), ("send", "ca_file"))


def user_config_path() -> Path:
    """Where the user-level defaults live on this platform."""
    import platformdirs

    return platformdirs.user_config_path("pbem", appauthor=False) / FILE_NAME


def load_user_defaults(path: Path | None = None, error=PbemError, known=()
                       ) -> tuple[dict, Path | None]:
    """The user's defaults (paths made absolute) and the file they came from, or ``({}, None)``
    when there is none.  A top-level key not in ``known`` is an error naming this file."""
    path = user_config_path() if path is None else path
    if not path.is_file():
        return {}, None
    data = read_toml(path, "user mail settings", MAX_BYTES, error)
    for key in PER_GAME:
        if key in data:
            raise error(f"{path}: {key} belongs in a game's own mail.toml, not in the "
                        "user-level defaults")
    for key in data:
        if known and key not in known:
            raise error(f"{path}: {key}: unknown setting")
    for table, key in PATHS:
        holder = data.get(table) if table else data
        if isinstance(holder, dict) and isinstance(holder.get(key), str):
            value = Path(holder[key]).expanduser()
            holder[key] = str(value if value.is_absolute() else path.parent / value)
    return data, path


def merged(defaults: dict, game: dict) -> dict:
    """The game's settings over the user's: key by key, whole tables replaced."""
    return {**defaults, **game}
