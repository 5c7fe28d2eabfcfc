"""Compiled code of the methods attrs and cattrs generate, kept between runs.

attrs writes the ``__init__``, ``__eq__``, ``__repr__``... of every class as Python source
and compiles it when the class is defined, and cattrs does the same for each structuring
function: about 400 ``compile`` calls, a third of a one-line command's time (issue 24).
``install()`` makes those two libraries compile through :func:`cached_compile`, which
returns the code object stored under a hash of the source, the file name and the mode
(the same arguments give the same code: ``compile`` is a pure function for a given Python
version, which names the cache file).  One part of attrs' source changes from run to run:
each ``__hash__`` starts from a per-class salt, ``hash`` of a string (randomised per
process); the key has their digits as zeros (keeping sign and length, hence every source
position) and a cached code object gets this run's salts put back, so it is exactly what
``compile`` would return (a test compares the bytes).  New code objects are saved
when the process ends.
Only ``pbem``'s command line installs it; nothing else changes."""

from __future__ import annotations

import atexit
import builtins
import hashlib
import importlib.util
import marshal
import re
import sys

from . import usercache

MAX_ENTRIES = 20_000        # more means someone generates classes endlessly: start over

_STATE: dict = {}


def _file_name() -> str:
    return f"code1-{sys.implementation.cache_tag}-{importlib.util.MAGIC_NUMBER.hex()}.marshal"


def _load() -> dict[bytes, bytes]:
    path = usercache.private_file(_file_name())
    _STATE["path"] = path
    if path is None:
        return {}
    try:
        with open(path, "rb") as f:
            data = marshal.loads(f.read())
    except (OSError, ValueError, EOFError, TypeError):
        return {}
    if not isinstance(data, dict) or len(data) > MAX_ENTRIES:
        return {}
    return data


# attrs' __hash__: "hash((" then, on the next line, the class's salt
_SALT = re.compile(r"(hash\(\(\n[ \t]+)(-?\d+),")


def cached_compile(source, filename, mode, *args, **kwargs):
    """``compile``, from the cache when the same source was compiled before."""
    if args or kwargs or not isinstance(source, str):
        return builtins.compile(source, filename, mode, *args, **kwargs)
    entries = _STATE.get("entries")
    if entries is None:
        entries = _STATE["entries"] = _load()
    salts = tuple(int(m.group(2)) for m in _SALT.finditer(source))
    plain = _SALT.sub(_zeroed, source) if salts else source
    key = hashlib.blake2b(f"{mode}\0{filename}\0{plain}".encode(), digest_size=20).digest()
    found = entries.get(key)
    if found is not None:
        try:
            old, code = marshal.loads(found)
            if len(old) == len(salts):
                return _resalted(code, dict(zip(old, salts))) if old != salts else code
        except (ValueError, EOFError, TypeError):
            pass
    code = builtins.compile(source, filename, mode)
    entries[key] = marshal.dumps((salts, code))
    _STATE["dirty"] = True
    return code


def _zeroed(match) -> str:
    """The salt with its digits as zeros: the key keeps its sign and length, so a code
    object from the cache has the same source positions as a fresh one."""
    return match.group(1) + re.sub(r"\d", "0", match.group(2)) + ","


def _resalted(code, salts: dict[int, int]):
    """``code`` with the salts of its ``__hash__`` functions replaced."""
    consts = []
    for c in code.co_consts:
        if isinstance(c, type(code)):
            c = _resalted(c, salts)
        elif code.co_name == "__hash__" and type(c) is int and c in salts:
            c = salts[c]
        consts.append(c)
    return code.replace(co_consts=tuple(consts))


def _save() -> None:
    path = _STATE.get("path")
    if not _STATE.get("dirty") or path is None:
        return
    entries = _STATE["entries"]
    if len(entries) > MAX_ENTRIES:
        return
    usercache.write_private(path, marshal.dumps(entries))


def adopt(module) -> None:
    """Make ``module`` (one that calls ``compile`` by its global name) use the cache, if
    ``install`` was called."""
    if _STATE.get("installed"):
        module.compile = cached_compile


def install() -> None:
    """Cache the code attrs generates from now on (cattrs: see ``adopt``)."""
    if _STATE.get("installed") or usercache.cache_dir() is None:
        return
    import attr._make
    _STATE["installed"] = True
    adopt(attr._make)
    if "cattrs.gen" in sys.modules:
        adopt(sys.modules["cattrs.gen"])
    atexit.register(_save)
