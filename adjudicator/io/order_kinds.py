"""Order kinds: for each statement an edition may accept, how a parsed line becomes an order
and how an order is written back as canonical text.

A kind is registered here under the name editions list in ``[turn] orders``; its grammar
is ``grammar/kinds/<kind>.lark`` (a rule of the same name); its rules are in the engine.
``build(b, line, tree)`` receives the parser's builder ``b`` (``io.parser._Builder``), which
resolves names, reads unit groups and collects the orders.
"""

from __future__ import annotations

from collections.abc import Callable

import attrs
from lark import Token, Tree

from ..model.orders import (
    BattleDirective, Bomb, Bombard, Buy, Comparison, Concede, DefenceOrder, Load, Move, Nmr,
    Order, Phase, Place, Repair, RetreatCondition, StandingChoice, SubmergePolicy, Unload,
)
from ..model.orders import Convert, InterceptOrder, KamikazeOrder, MiddleEastOrder, ScrambleOrder

PURCHASE, COMBAT, NONCOMBAT, PLACE, STANDING = "purchase", "combat", "noncombat", "place", "standing"

UNIT_LINE = frozenset({"INT", "A", "WORD", "_ARROW", "_COMMA", "_LPAR", "_RPAR", "EMPTY",
                       "_COLON", "$END"})


@attrs.frozen
class OrderSyntax:
    """How one order kind is read and written.  ``verbs``: the terminals that start its
    lines; ``words``: its verb spellings (for "did you mean"); ``context``: the terminals
    that make sense on its lines (for error messages); ``section``: where the canonical
    text writes it."""

    kind: str
    verbs: tuple[str, ...]
    words: tuple[str, ...]
    example: str
    context: frozenset[str]
    section: str
    build: Callable
    write: Callable
    grammar: str = ""       # the kind's grammar fragment, for a kind outside grammar/kinds/


KINDS: dict[str, OrderSyntax] = {}


def kind(name: str, verbs, words, example, context, section, grammar: str = ""):
    """Register an order kind: ``kind(...)(build)(write)``.  A kind defined outside the
    package (an edition's plug-in) gives its ``grammar`` fragment here (a rule named
    ``name`` and its terminals); the package's own kinds are in ``grammar/kinds/``."""
    def wrap(build):
        def register(write):
            KINDS[name] = OrderSyntax(name, tuple(verbs), tuple(words), example,
                                      frozenset(context), section, build, write, grammar)
            return write
        return register
    return wrap


def tokens_of(tree: Tree) -> list[Token]:
    return [c for c in tree.children if isinstance(c, Token)]


# ---- writing helpers -------------------------------------------------------------------------

def unit_text(key: str, count: int, names) -> str:
    return names.unit_name(key, count) if names else key


def groups_text(groups, names) -> str:
    parts = []
    for group in groups:
        text = f"{group.count} {unit_text(group.type, group.count, names)}"
        if group.cargo is not None:
            inner = groups_text(group.cargo, names) if group.cargo else "empty"
            text += f" ({inner})"
        parts.append(text)
    return ", ".join(parts)


def losses_text(loss_order: tuple[str, ...], names) -> str:
    return "losses " + ", ".join(unit_text(k, 1, names) for k in loss_order)


# ---- buy, repair, place ----------------------------------------------------------------------

MONEY_WORDS = frozenset({"ipc", "ipcs", "pu", "pus"})     # grammar/core.lark MONEY


def is_cost(line, path: Tree) -> bool:
    """Whether what follows a '-' is a cost note ("24", "24 IPC"), not a place."""
    if len(path.children) != 1:
        return False
    tokens = path.children[0].children
    return tokens[0].type == "INT" and all(t.value.casefold() in MONEY_WORDS for t in tokens[1:])


def build_buy(b, line, tree: Tree) -> None:
    groups = next(c for c in tree.children if isinstance(c, Tree) and c.data == "groups")
    path = next((c for c in tree.children if isinstance(c, Tree) and c.data == "path"), None)
    if path is not None and not is_cost(line, path):
        b.error(line, path.meta.column, "a purchase goes nowhere: 'buy' takes units only "
                                        f"(example: '{KINDS['buy'].example}')")
        return
    buy_groups(b, line, groups)


def buy_groups(b, line, groups: Tree) -> None:
    """A purchase of ``groups`` (a cost note after them is the player's own arithmetic)."""
    units = [b.unit_only(line, g, what="buy") for g in groups.children]
    if None not in units:
        bought = tuple(u for u in units if u.count)          # "0 tank" buys nothing
        if bought:
            b.add(Buy(bought, line.number))


@kind("buy", ["BUY"], ["buy", "purchase"], "buy 3 inf, 1 tank", UNIT_LINE, PURCHASE)(build_buy)
def write_buy(order: Buy, names) -> str:
    return f"buy {groups_text(order.units, names)}"


def build_repair(b, line, tree: Tree) -> None:
    number = next(t for t in tokens_of(tree) if t.type == "INT")
    points = b.number(line, number)
    space = b.resolve(line, "space", tree.children[-1].children)
    if points is not None and space is not None:
        b.add(Repair(space, points, line.number))


@kind("repair", ["REPAIR"], ["repair"], "repair 3 Germany", {"INT", "WORD", "$END"}, PURCHASE)(build_repair)
def write_repair(order: Repair, names) -> str:
    return f"repair {order.points} {order.space}"


def build_place(b, line, tree: Tree) -> None:
    place_groups(b, line, tree.children[-1])


def place_groups(b, line, groups: Tree) -> None:
    """Placements of ``groups``, each followed by its space ("2 inf Germany, 1 tank
    Italy"), or all in the space after the last."""
    for units, place in b.segments(line, groups, "place") or ():
        if units:
            b.add(Place(units, place, line.number))


@kind("place", ["PLACE"], ["place", "mobilize"], "place 3 inf Germany", UNIT_LINE, PLACE)(build_place)
def write_place(order: Place, names) -> str:
    return f"place {groups_text(order.units, names)} {order.space}"


# ---- movement --------------------------------------------------------------------------------

def build_movement(verb: str):
    def build(b, line, tree: Tree) -> None:
        verb_token, groups, path_tree = tree.children
        movement(b, line, verb, verb_token.column, groups, path_tree, b.section)
    return build


def movement(b, line, verb: str, column: int, groups: Tree, path_tree: Tree | None,
             phase: Phase | None, origin: str | None = None, target: str | None = None) -> None:
    """Move, load or unload ``groups`` along ``path_tree`` in ``phase``.  Each group may
    name its own start ("3 inf Karelia, 1 tank Caucasus -> West Russia": one move from
    each); ``origin``: the start written before the units ("Karelia: 3 inf -> ...");
    ``target`` instead of a path: the one space they move to ("Attack WR with ...")."""
    if phase not in (Phase.COMBAT, Phase.NONCOMBAT):
        where = (f"under '{phase.value}:'" if phase is not None
                 else "before any 'combat:' or 'noncombat:' line")
        b.error(line, column, f"'{verb}' {where}: put moves under 'combat:' or 'noncombat:'")
    if origin is None:
        segments = b.segments(line, groups, verb)
    else:
        units = [b.unit_only(line, g, what=verb) for g in groups.children]
        segments = None if None in units else [(tuple(units), origin)]
    rest = [target] if path_tree is None else \
        [b.resolve(line, "space", name.children) for name in path_tree.children]
    if verb in ("load", "unload") and len(rest) > 1:
        b.error(line, path_tree.children[1].children[0].column,
                f"'{verb}' takes a single '->' (example: '{KINDS[verb].example}')")
        return
    if segments is None or None in rest or phase not in (Phase.COMBAT, Phase.NONCOMBAT):
        return
    if origin is not None:
        segments = [(tuple(u for u in units if u.count), start) for units, start in segments]
    if not all(units for units, _start in segments):
        b.error(line, column, f"this '{verb}' moves no units (every count is 0)")
        return
    for units, start in segments:
        if verb == "move":
            b.add(Move(phase, units, (start, *rest), line.number))
        elif verb == "load":
            b.add(Load(phase, units, start, rest[0], line.number))
        else:
            b.add(Unload(phase, units, start, rest[0], line.number))


@kind("move", ["MOVE"], ["move"], "move 2 inf Karelia -> Archangel", UNIT_LINE, "phase")(build_movement("move"))
def write_move(order: Move, names) -> str:
    return f"move {groups_text(order.units, names)} " + " -> ".join(order.path)


@kind("load", ["LOAD"], ["load"], "load 1 inf, 1 tank Germany -> SZ 5", UNIT_LINE, "phase")(build_movement("load"))
def write_load(order: Load, names) -> str:
    return f"load {groups_text(order.units, names)} {order.origin} -> {order.zone}"


@kind("unload", ["UNLOAD"], ["unload"], "unload 1 inf SZ 6 -> Norway Finland", UNIT_LINE, "phase")(build_movement("unload"))
def write_unload(order: Unload, names) -> str:
    return f"unload {groups_text(order.units, names)} {order.zone} -> {order.target}"


# ---- battle directives -----------------------------------------------------------------------

CMP = {"<": Comparison.LT, "<=": Comparison.LE, "≤": Comparison.LE, ">": Comparison.GT,
       ">=": Comparison.GE, "≥": Comparison.GE, "==": Comparison.EQ, "=": Comparison.EQ}
BATTLE_LINE = frozenset({"WORD", "INT", "_COLON", "_SEMICOLON", "_COMMA", "RETREAT", "LOSSES",
                         "SUBS", "TO", "IF", "OR", "AFTER", "ROUND", "SIDE", "MEASURE", "CMP",
                         "FIRE", "SUBMERGE", "$END"})


def _retreat(b, line, clause: Tree) -> list[RetreatCondition]:
    destination = None
    conditions = []
    for child in clause.children:
        if not isinstance(child, Tree):
            continue
        if child.data == "name":
            destination = b.resolve(line, "space", child.children)
        elif child.data == "compare_condition":
            fields = {t.type: t for t in tokens_of(child)}
            side = "attackers" if fields["SIDE"].value.casefold().startswith("att") else "defenders"
            measure = "tuv" if "MEASURE" in fields and \
                fields["MEASURE"].value.casefold() != "units" else "units"
            threshold = b.number(line, fields["INT"], minimum=0)
            if threshold is not None:
                conditions.append(dict(side=side, comparison=CMP[fields["CMP"].value],
                                       threshold=threshold, measure=measure))
        elif child.data == "round_condition":
            number = next(t for t in tokens_of(child) if t.type == "INT")
            value = b.number(line, number, what="the round number")
            if value is not None:
                conditions.append(dict(after_round=value))
    return [RetreatCondition(destination=destination, **c) for c in conditions]


def losses(b, line, clause: Tree) -> tuple[str, ...]:
    keys = []
    for name in clause.children[1:]:
        key = b.resolve(line, "unit", name.children)
        if key is not None:
            keys.append(key)
    return tuple(keys)


def build_battle(b, line, tree: Tree) -> None:
    space = b.resolve(line, "space", tree.children[1].children)
    retreat: list[RetreatCondition] | None = None
    loss: tuple[str, ...] | None = None
    subs: str | None = None
    for clause in tree.children[2:]:
        if clause.data == "retreat":
            retreat = (retreat or []) + _retreat(b, line, clause)
        elif clause.data == "losses":
            loss = losses(b, line, clause)
        elif clause.data == "subs":
            subs = clause.children[1].value.casefold()
    if space is None:
        return

    def update(old: BattleDirective | None) -> BattleDirective:
        old = old or BattleDirective(space, line=line.number)
        return attrs.evolve(old, retreat=tuple(retreat) if retreat is not None else old.retreat,
                            loss_order=loss if loss is not None else old.loss_order,
                            subs=subs if subs is not None else old.subs)
    b.merge("battle", space, update, line.number)


def condition_text(cond: RetreatCondition) -> str:
    if cond.side is not None and cond.after_round is None:
        if cond.comparison is None or cond.threshold is None:
            raise ValueError(f"incomplete retreat condition: {cond!r}")
        measure = " tuv" if cond.measure == "tuv" else ""
        return f"if {cond.side}{measure} {Comparison(cond.comparison).value} {cond.threshold}"
    if cond.after_round is not None and cond.side is None:
        return f"after round {cond.after_round}"
    raise ValueError(f"retreat condition cannot be written as text: {cond!r}")


def retreat_text(conditions: tuple[RetreatCondition, ...]) -> list[str]:
    clauses: list[str] = []
    runs: list[list[RetreatCondition]] = []
    for cond in conditions:
        if runs and runs[-1][0].destination == cond.destination:
            runs[-1].append(cond)
        else:
            runs.append([cond])
    for run in runs:
        head = "retreat" if run[0].destination is None else f"retreat to {run[0].destination}"
        clauses.append(head + " " + " or ".join(condition_text(c) for c in run))
    return clauses


@kind("battle", ["BATTLE"], ["battle"],
      "battle Karelia: retreat to West Russia if attackers < 3; losses inf, tank",
      BATTLE_LINE, COMBAT)(build_battle)
def write_battle(order: BattleDirective, names) -> str:
    clauses = retreat_text(order.retreat)
    if order.loss_order:
        clauses.append(losses_text(order.loss_order, names))
    if order.subs:
        clauses.append(f"subs {order.subs}")
    return f"battle {order.space}: " + "; ".join(clauses)


def build_bomb(b, line, tree: Tree) -> None:
    space = b.resolve_place(line, tree.children[1].children)      # "SBR on UK with 1 bmr"
    groups = tree.children[-1]
    units = [b.unit_only(line, g, what="bomb") for g in groups.children]
    if space is not None and None not in units:
        b.add(Bomb(space, tuple(units), line.number))


@kind("bomb", ["BOMB"], ["bomb", "raid"], "bomb Germany with 2 bmr",
      UNIT_LINE | {"WITH"}, COMBAT)(build_bomb)
def write_bomb(order: Bomb, names) -> str:
    return f"bomb {order.space} with {groups_text(order.units, names)}"


def build_bombard(b, line, tree: Tree) -> None:
    space = b.resolve(line, "space", tree.children[1].children)
    units: list = []
    if isinstance(tree.children[-1], Tree) and tree.children[-1].data == "groups":
        units = [b.unit_only(line, g, what="bombard") for g in tree.children[-1].children]
    if space is not None and None not in units:
        b.add(Bombard(space, tuple(units), line.number))


@kind("bombard", ["BOMBARD"], ["bombard"], "bombard Western Europe with 1 bb, 1 ca",
      UNIT_LINE | {"WITH"}, COMBAT)(build_bombard)
def write_bombard(order: Bombard, names) -> str:
    tail = f" with {groups_text(order.units, names)}" if order.units else ""
    return f"bombard {order.target}{tail}"


# ---- standing defence orders -----------------------------------------------------------------

def build_defend(b, line, tree: Tree) -> None:
    target = tree.children[1]
    first = target.children[0]
    space: str | None = None
    known = True
    if isinstance(first, Tree):            # otherwise: all / everywhere / *
        space = b.resolve(line, "space", first.children)
        known = space is not None
    loss: tuple[str, ...] | None = None
    policy: SubmergePolicy | None = None
    landing: tuple[str, ...] | None = None
    for clause in tree.children[2:]:
        if clause.data == "losses":
            loss = losses(b, line, clause)
        elif clause.data == "defend_landing":
            found = [b.resolve(line, "space", n.children) for n in clause.children[1:]]
            known = known and None not in found
            landing = tuple(found)
        else:
            policy = SubmergePolicy(clause.children[1].value.casefold())
    if not known:
        return

    def update(old: DefenceOrder | None) -> DefenceOrder:
        old = old or DefenceOrder(space, line=line.number)
        return attrs.evolve(old, loss_order=loss if loss is not None else old.loss_order,
                            submerge=policy if policy is not None else old.submerge,
                            landing=landing if landing is not None else old.landing)
    b.merge("defend", space, update, line.number)


@kind("defend", ["DEFEND"], ["defend"], "defend all: losses inf, tank; submerge losing",
      {"WORD", "INT", "_COLON", "_SEMICOLON", "_COMMA", "LOSSES", "SUBMERGE", "POLICY", "ALL",
       "STAR", "LANDS", "$END"}, STANDING)(build_defend)
def write_defend(order: DefenceOrder, names) -> str:
    clauses = []
    if order.loss_order:
        clauses.append(losses_text(order.loss_order, names))
    if order.submerge is not None:
        clauses.append(f"submerge {SubmergePolicy(order.submerge).value}")
    if order.landing:
        clauses.append("land " + ", ".join(order.landing))
    target = "all" if order.space is None else order.space
    return f"defend {target}: " + "; ".join(clauses)


def _build_space_choice(b, line, tree: Tree, name: str, cls) -> None:
    """``<verb> <space|all>: <value>``: a standing choice ``cls`` of kind ``name``."""
    where = tree.children[1]
    space = None
    if [t.value.casefold() for t in where.children] not in (["all"], ["everywhere"]):
        space = b.resolve(line, "space", where.children)
        if space is None:
            return
    value = " ".join(t.value for t in tree.children[2].children).casefold()
    b.merge(name, space, lambda old: cls(name, space, value, line.number))


def space_choice_grammar(name: str) -> str:
    """The grammar of ``<name> <space|all>: <value>``."""
    return f"""
{name}: {name.upper()} name _COLON name
{name.upper()}.2: /{name}\\b/i
"""


def space_choice_kind(name: str, cls, example: str) -> None:
    """Register the standing order kind ``<name> <space|all>: <value>`` (a ``cls``)."""
    def build(b, line, tree: Tree) -> None:
        _build_space_choice(b, line, tree, name, cls)

    def write(order: StandingChoice, names) -> str:
        return f"{name} {'all' if order.space is None else order.space}: {order.value}"

    kind(name, [name.upper()], [name], example, {"WORD", "INT", "_COLON", "$END"}, STANDING,
         grammar=space_choice_grammar(name))(build)(write)


space_choice_kind("intercept", InterceptOrder, "intercept all: no")       # Europe 1999 [L601]
space_choice_kind("scramble", ScrambleOrder, "scramble all: yes")         # Global 1940 [L794]
space_choice_kind("kamikaze", KamikazeOrder, "kamikaze all: 2")           # Global 1940 [L820]


def build_middle_east(b, line, tree: Tree) -> None:
    powers = []
    for where in tree.children[1:]:
        if isinstance(where, Tree):
            power = b.resolve(line, "power", where.children)
            if power is None:
                return
            powers.append(power)
    value = " ".join(powers)
    b.merge("middle_east", None, lambda old: MiddleEastOrder("middle_east", None, value, line.number))


MIDDLE_EAST_GRAMMAR = """
middle_east: MIDDLE_EAST _COLON name (_COMMA name)*
MIDDLE_EAST.2: /middle[ \\t]+east\\b/i
"""


@kind("middle_east", ["MIDDLE_EAST"], ["middle east"], "middle east: usa, uk",
      {"WORD", "INT", "_COLON", "_COMMA", "$END"}, STANDING, grammar=MIDDLE_EAST_GRAMMAR)(build_middle_east)
def write_middle_east(order: StandingChoice, names) -> str:
    return "middle east: " + ", ".join(order.value.split())


def build_convert(b, line, tree: Tree) -> None:
    if b.section != Phase.NONCOMBAT:
        b.error(line, tree.children[0].column, "'convert' belongs under 'noncombat:'")
        return
    units, space = b.units_and_place(line, tree.children[-1], "convert")
    if units is not None and space is not None:
        b.add(Convert(units, space, line.number))


CONVERT_GRAMMAR = """
convert: CONVERT _COLON? groups
CONVERT.2: /convert\\b/i
"""


@kind("convert", ["CONVERT"], ["convert"], "convert 1 inf Moscow", UNIT_LINE, NONCOMBAT,
      grammar=CONVERT_GRAMMAR)(build_convert)
def write_convert(order: Convert, names) -> str:
    return f"convert {groups_text(order.units, names)} {order.space}"


# ---- statements about the whole turn ---------------------------------------------------------

def build_nmr(b, line, tree: Tree) -> None:
    stamp = next((t.value for t in tokens_of(tree) if t.type == "NMR_DEADLINE"), "")
    b.add(Nmr(stamp, line.number))


@kind("nmr", ["NMR"], ["nmr"], "nmr 2025-03-04T12:00Z", {"NMR_DEADLINE", "$END"}, PURCHASE)(build_nmr)
def write_nmr(order: Nmr, names) -> str:
    return f"nmr {order.deadline}" if order.deadline else "nmr"


def build_concede(b, line, tree: Tree) -> None:
    b.add(Concede(line.number))


@kind("concede", ["CONCEDE"], ["concede"], "concede", {"$END"}, STANDING)(build_concede)
def write_concede(order: Concede, names) -> str:
    return "concede"


def section_of(order: Order) -> str:
    section = KINDS[order.kind].section
    return order.phase.value if section == "phase" else section
