"""Battle odds for players: the exact odds of every battle a set of orders would start
(shown by ``pbem check``) and the ``pbem odds`` calculator.  The numbers come from
``odds.battle_odds``, which runs the adjudicator's own combat rules."""

from __future__ import annotations

import time

from rich.console import Console
from rich.table import Table

from ..engine.combat import BattleSetup, BattleUnit
from ..model.errors import PbemError
from ..engine.combat.odds import BattleOdds, battle_odds, monte_carlo
from ..model.orders import Buy, OrderSet, RetreatCondition, SubmergePolicy
from ..present.report import format_units
from ..model.state import GameState


def _pct(p: float) -> str:
    return f"{100 * p:5.1f}%"


def _counts(units) -> dict[str, int]:
    counts: dict[str, int] = {}
    for u in units:
        counts[u.type.key] = counts.get(u.type.key, 0) + 1
    return counts


def _units_text(game, units) -> str:
    return format_units(game, _counts(units))


def _short_units(game, units) -> str:
    """"7 inf, 3 tank, 1 bmr": the order language's own abbreviations, for narrow tables."""
    short = lambda k: (game.ruleset.units[k].aliases or (k,))[0]  # noqa: E731
    return ", ".join(f"{n} {short(k)}" for k, n in _counts(units).items())


def _composition_text(game, composition) -> str:
    return format_units(game, dict(composition))


def success(setup: BattleSetup, odds: BattleOdds) -> float:
    """What counts as success for the attacker: taking a territory, clearing a sea zone."""
    return odds.attacker_wins if setup.is_sea else odds.captured


def odds_with_progress(setup: BattleSetup, sides: int, console: Console, label: str,
                       max_error: float | None = None) -> BattleOdds:
    """``battle_odds``, with a progress bar on a terminal once it has taken a second."""
    if not console.is_terminal:
        return battle_odds(setup, sides=sides, max_error=max_error)
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
    started = time.perf_counter()
    bar: list = []

    def progress(done: float) -> None:
        if not bar:
            if time.perf_counter() - started < 1.0:
                return
            shown = Progress(TextColumn("{task.description}"), BarColumn(), TimeElapsedColumn(),
                             console=console, transient=True)
            shown.start()
            bar.extend([shown, shown.add_task(label, total=1.0)])
        bar[0].update(bar[1], completed=done)

    try:
        return battle_odds(setup, sides=sides, max_error=max_error, progress=progress)
    finally:
        if bar:
            bar[0].stop()


def exactness(odds: BattleOdds) -> str:
    """How exact ``odds`` are, in a sentence."""
    if odds.max_error is None:
        if not odds.pruned:
            return "Exact."
        return (f"Exact: states below 1e-15 dropped, every probability within "
                f"{odds.pruned:.1e}.")
    return (f"Approximate (--max-error {odds.max_error:g}): every probability within "
            f"{odds.pruned:.1e} of the exact one.")


def render_planned_battles(game, state: GameState, orders: OrderSet, console: Console,
                           threshold: float = 0.5) -> list[tuple[BattleSetup, BattleOdds]]:
    """Print a table with the exact odds of each battle the combat moves start, and a
    warning for each attack whose chance of success is below ``threshold``."""
    from ..engine.turn import planned_battles
    setups = planned_battles(game, state, orders)
    if not setups:
        return []
    table = Table(title="Battles these orders start (exact odds, each as if fought first; "
                        "Held = the defender keeps the space)", title_justify="left")
    for col in ("Battle", "Attackers", "Defenders", "Success", "Held", "TUV swing", "Rounds"):
        table.add_column(col, justify="left" if col in {"Battle", "Attackers", "Defenders"} else "right")
    results = []
    for setup in setups:
        odds = odds_with_progress(setup, game.ruleset.dice_sides, console, f"Odds of {setup.space}")
        results.append((setup, odds))
        table.add_row(setup.space, _short_units(game, setup.attackers), _short_units(game, setup.defenders),
                      _pct(success(setup, odds)), _pct(odds.defender_wins + odds.stalemate),
                      f"{odds.tuv_swing:+.1f}", f"{odds.rounds:.2f}")
    console.print(table)
    for setup, odds in results:
        if success(setup, odds) < threshold:
            console.print(f"[yellow]warning:[/] the attack on {setup.space} succeeds only "
                          f"{100 * success(setup, odds):.1f}% of the time")
    return results


# -- pbem odds ----------------------------------------------------------------------------------

def _parse_units(game, text: str, power: str, start_uid: int, seaborne: bool = False):
    from ..io.parser import parse_orders
    orders = parse_orders(f"buy {text}", game)
    if not orders.buys:
        raise PbemError("give the units of each side, e.g. \"3 inf, 1 tank\"")
    buy: Buy = orders.buys[0]
    units, uid = [], start_uid
    for group in buy.units:
        for _ in range(group.count):
            units.append(BattleUnit(uid, game.ruleset.units[group.type], power, (), seaborne, None))
            uid += 1
    return tuple(units)


def _parse_retreat(game, text: str, space: str) -> tuple[RetreatCondition, ...]:
    from ..io.parser import parse_orders
    condition = text.strip()
    if not condition.casefold().startswith(("if ", "after ")):
        condition = "if " + condition
    orders = parse_orders(f"combat:\nbattle {space}: retreat {condition}", game)
    return orders.battles[0].retreat


def _parse_losses(game, text: str | None, space: str) -> tuple[str, ...]:
    if not text:
        return ()
    from ..io.parser import parse_orders
    return parse_orders(f"combat:\nbattle {space}: losses {text}", game).battles[0].loss_order


def _check_domains(attackers, defenders, is_sea: bool) -> None:
    """Refuse a battle the rules cannot produce (ships on land, armies at sea)."""
    from ..model.rules import Domain
    wrong = Domain.LAND if is_sea else Domain.SEA
    for side, units in (("attackers", attackers), ("defenders", defenders)):
        bad = sorted({u.type.name for u in units if u.type.domain == wrong})
        if bad:
            where = "a sea battle" if is_sea else "a land battle (use --sea for ships)"
            raise PbemError(f"{', '.join(bad)} cannot fight in {where} ({side})")
    landed = [u for u in attackers if u.seaborne and u.type.domain != Domain.LAND]
    if landed:
        raise PbemError("--from-sea lists land units unloaded from transports")


def odds_command(args, console: Console) -> int:
    from ..service.games import load_game
    game = load_game(args.ruleset)
    order = game.ruleset.turn_order
    attacker, defender = order[1], order[0]   # any two enemies: ownership does not change odds
    is_sea = bool(args.sea)
    space = next(t.key for t in game.map.territories.values() if t.is_sea == is_sea)
    attackers = _parse_units(game, args.attackers, attacker, 1)
    if args.from_sea:
        if is_sea:
            raise PbemError("--from-sea is for the land part of an amphibious assault")
        attackers += _parse_units(game, args.from_sea, attacker, 500, seaborne=True)
    defenders = _parse_units(game, args.defenders, defender, 1000)
    # Units never on the battle board (an AA gun) fire from beside it: the defender's support.
    guns = tuple(u for u in defenders if u.type.has("noncombatant"))
    defenders = tuple(u for u in defenders if not u.type.has("noncombatant"))
    ships = _parse_units(game, args.bombard, attacker, 2000) if getattr(args, "bombard", None) else ()
    if ships and (is_sea or not args.from_sea):
        raise PbemError("--bombard is for an amphibious assault (give --from-sea too)")
    if any(not u.type.has("bombard") for u in ships):
        raise PbemError("--bombard lists ships that can bombard (e.g. \"1 bb, 1 ca\")")
    if not attackers or not (defenders or guns):
        raise PbemError("both sides need at least one unit")
    _check_domains(attackers, defenders, is_sea)
    retreat = _parse_retreat(game, args.retreat, space) if args.retreat else ()
    setup = BattleSetup(battle_id="odds", space=space, is_sea=is_sea, attacker=attacker,
                        attackers=attackers, defenders=defenders, retreat=retreat,
                        retreat_options=("(retreat)",) if retreat else (),
                        attacker_loss_order=_parse_losses(game, args.attacker_losses, space),
                        defender_loss_order=_parse_losses(game, args.defender_losses, space),
                        attacker_subs=args.attacker_subs,
                        defender_submerge=SubmergePolicy(args.defender_submerge),
                        stages=game.ruleset.plan.battle_stages, support=(ships, guns),
                        unit_types=game.ruleset.units,
                        low_luck=bool(args.low_luck or game.ruleset.option("low_luck", False)))
    started = time.perf_counter()
    exact = odds_with_progress(setup, game.ruleset.dice_sides, console, "Odds",
                               max_error=args.max_error)
    elapsed = time.perf_counter() - started
    rows = [("exact" if args.max_error is None else "approximate", exact, elapsed)]
    if args.monte_carlo:
        started = time.perf_counter()
        rows.append((f"Monte Carlo ×{args.monte_carlo}", monte_carlo(setup, args.monte_carlo, seed=0),
                     time.perf_counter() - started))
    dice = ", Low Luck" if setup.low_luck else ""
    table = Table(title=f"{_units_text(game, attackers + ships)}  vs  {_units_text(game, defenders + guns)}"
                        f"  ({'sea' if is_sea else 'land'}{dice})", title_justify="left")
    table.add_column("")
    for label, _, _ in rows:
        table.add_column(label, justify="right")
    fields = [("Attacker wins", "attacker_wins"), ("Territory taken", "captured"),
              ("Defender wins", "defender_wins"), ("Both destroyed", "both_destroyed"),
              ("Attacker retreats", "attacker_retreats"), ("Stalemate", "stalemate")]
    for label, name in fields:
        if name == "captured" and is_sea:
            continue
        table.add_row(label, *(_pct(getattr(o, name)) for _, o, _ in rows))
    table.add_row("Attacker TUV lost", *(f"{o.attacker_tuv_lost:.2f}" for _, o, _ in rows))
    table.add_row("Defender TUV lost", *(f"{o.defender_tuv_lost:.2f}" for _, o, _ in rows))
    table.add_row("TUV swing", *(f"{o.tuv_swing:+.2f}" for _, o, _ in rows))
    table.add_row("Rounds", *(f"{o.rounds:.2f}" for _, o, _ in rows))
    table.add_row("Time", *(f"{t * 1000:.1f} ms" for _, _, t in rows))
    console.print(table)
    console.print(exactness(exact), highlight=False)
    survivors = Table(title="Most likely survivors", title_justify="left")
    survivors.add_column("Attacker left")
    survivors.add_column("", justify="right")
    survivors.add_column("Defender left")
    survivors.add_column("", justify="right")
    top_a = sorted(exact.attacker_survivors.items(), key=lambda kv: -kv[1])[:5]
    top_d = sorted(exact.defender_survivors.items(), key=lambda kv: -kv[1])[:5]
    for i in range(max(len(top_a), len(top_d))):
        cells = []
        for top in (top_a, top_d):
            if i < len(top):
                comp, p = top[i]
                cells += [_composition_text(game, comp), _pct(p)]
            else:
                cells += ["", ""]
        survivors.add_row(*cells)
    console.print(survivors)
    return 0
