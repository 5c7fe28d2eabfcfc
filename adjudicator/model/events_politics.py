"""Global 1940's politics (``engine/politics.py``) and neutrals (``engine/neutrals.py``):
declarations of war, powers entering the war, neutral armies raised, neutrals turned
or joined.  In the model, not in those plug-ins, so that any process decodes them."""

from __future__ import annotations

from typing import ClassVar

import attrs

from .event_base import Event


@attrs.frozen(repr=False)
class WarDeclared(Event):
    """``power`` declared war on ``enemy`` (``how``: provoked or unprovoked, digest §4.2)."""

    kind: ClassVar[str] = "war_declared"
    power: str
    enemy: str
    how: str
    step: str = "combat_move"


@attrs.frozen(repr=False)
class AtWar(Event):
    """``power`` and ``enemy`` are at war because of ``by``'s declaration (the UK and ANZAC
    go to war with Japan together [L493, L548, L580])."""

    kind: ClassVar[str] = "at_war"
    power: str
    enemy: str
    by: str


@attrs.frozen(repr=False)
class DeclarationDeferred(Event):
    """The USA's declaration on ``enemy`` waits for the start of its Collect Income (its
    3rd turn, no provocation [L516])."""

    kind: ClassVar[str] = "declaration_deferred"
    power: str
    enemy: str


@attrs.frozen(repr=False)
class FactoriesUpgraded(Event):
    """``power`` entered the war: its minor factories in ``territories`` are majors now,
    free of charge, usable at once [L429]."""

    kind: ClassVar[str] = "factories_upgraded"
    power: str
    territories: tuple[str, ...]


@attrs.frozen(repr=False)
class NeutralArmyRaised(Event):
    """``territory`` was attacked: the ``nation``'s printed army (``units``) is placed."""

    kind: ClassVar[str] = "neutral_army_raised"
    territory: str
    nation: str
    units: dict[str, int]


@attrs.frozen(repr=False)
class NeutralsTurned(Event):
    """Every remaining territory of ``nation`` now sides with ``side`` (``by`` attacked a
    strict neutral [L359])."""

    kind: ClassVar[str] = "neutrals_turned"
    nation: str
    side: str
    by: str


@attrs.frozen(repr=False)
class NeutralJoined(Event):
    """``power`` took the friendly neutral ``territory``; ``units`` are its army, now
    ``power``'s [L343]."""

    kind: ClassVar[str] = "neutral_joined"
    territory: str
    power: str
    units: dict[str, int]


@attrs.frozen(repr=False)
class MongoliaJoined(Event):
    """The Soviet-Mongolian pact [L433]: ``territory`` and its army join the USSR."""

    kind: ClassVar[str] = "mongolia_joined"
    territory: str
    power: str
    units: dict[str, int]
