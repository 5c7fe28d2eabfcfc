"""The editions layer: the registry of Axis & Allies editions (``registry``) and the
built-in ones, registered on import."""

from .registry import Edition, get, names, prepare, register, unregister

register(Edition("aa1941", "Axis & Allies 1941", "aa1941"))
register(Edition("aa1942", "Axis & Allies Spring 1942", "aa1942"))

__all__ = ["Edition", "get", "names", "prepare", "register", "unregister"]
