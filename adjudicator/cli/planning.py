"""Battle odds for players: the exact odds of every battle a set of orders would start
(shown by ``pbem check``) and the ``pbem odds`` calculator.  The numbers come from
``odds.battle_odds``, which runs the adjudicator's own combat rules."""

from __future__ import annotations

import time

import attrs

from rich import box
from rich.console import Console
from rich.table import Table

from ..engine.combat import BattleSetup
from ..model.errors import PbemError
from ..engine.combat.odds import BattleOdds, battle_odds, monte_carlo
from ..model.orders import OrderSet, SubmergePolicy
from ..model.rules import Domain
from ..model.state import GameState
from ..present.check_view import (
    OUTCOME_COLUMNS, OUTCOME_LEGEND, estimate_notes, outcome_shares, percentages,
)
from ..present.wording import format_units


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


def odds_with_progress(setup: BattleSetup, sides: int, label: str,
                       max_error: float | None = None, no_color: bool | None = None) -> BattleOdds:
    """``battle_odds``, with a progress bar on a terminal's stderr once it takes a while."""
    from .progress import ProgressBar
    with ProgressBar(f"{label} (% of the probability settled)", 100, no_color=no_color) as bar:
        return battle_odds(setup, sides=sides, max_error=max_error,
                           progress=lambda done: bar.update(int(100 * done)))


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
                           threshold: float = 0.5,
                           exact: bool = False) -> list[tuple[BattleSetup, BattleOdds]]:
    """Print a table with the odds of each battle the combat moves start (exact, or an
    estimate where the exact odds would take over a second, unless ``exact``), and a
    warning for each attack whose chance of success is below ``threshold`` (0..1)."""
    from ..engine.turn import planned_battles
    from ..service.quick_odds import check_odds
    from .progress import ProgressBar
    results = []
    for setup in planned_battles(game, state, orders):
        with ProgressBar(f"Odds of {setup.space} (% of the probability settled)", 100) as bar:
            results.append((setup, check_odds(setup, game.ruleset.dice_sides, exact=exact,
                                              progress=lambda done: bar.update(int(100 * done)))))
    render_battle_table(game, results, console, threshold)
    for line in estimate_notes(results):
        console.print(line, highlight=False, soft_wrap=True)
    return results


def render_battle_table(game, results, console: Console, threshold: float = 0.5) -> None:
    """The table and warnings of ``render_planned_battles`` for computed ``results``."""
    if not results:
        return
    table = Table(title="Battles these orders start", title_justify="left", box=box.SIMPLE_HEAD,
                  caption=OUTCOME_LEGEND[0].upper() + OUTCOME_LEGEND[1:] + ".",
                  caption_justify="left")
    for col in ("Battle", "Attackers", "Defenders"):
        table.add_column(col, ratio=1)
    for col in (*OUTCOME_COLUMNS, "Swing"):                   # figures never wrap
        table.add_column(col, justify="right", no_wrap=True, min_width=len(col))
    for setup, odds in results:
        shares = outcome_shares(setup.is_sea, odds)
        table.add_row(setup.space, _short_units(game, setup.attackers), _short_units(game, setup.defenders),
                      *percentages(shares.values()), f"{odds.tuv_swing:+.1f}")
    console.print(table)
    for setup, odds in results:
        if success(setup, odds) < threshold:
            console.print(f"[yellow]warning:[/] the attack on {setup.space} succeeds only "
                          f"{100 * success(setup, odds):.1f}% of the time "
                          f"(--warn-below {100 * threshold:g}%)")


# -- pbem odds ----------------------------------------------------------------------------------

def _check_domains(attackers, defenders, is_sea: bool) -> None:
    """Refuse a battle the rules cannot produce (ships on land, armies at sea)."""
    wrong = Domain.LAND if is_sea else Domain.SEA
    for side, units in (("attackers", attackers), ("defenders", defenders)):
        bad = sorted({u.type.name for u in units if u.type.domain == wrong})
        if bad:
            where = "a sea battle" if is_sea else "a land battle (use --sea for ships)"
            raise PbemError(f"{', '.join(bad)} cannot fight in {where} ({side})")
    landed = [u for u in attackers if u.seaborne and u.type.domain != Domain.LAND]
    if landed:
        raise PbemError("--from-sea lists land units unloaded from transports")
    if any(u.airborne and u.type.domain != Domain.LAND for u in attackers):
        raise PbemError("--paratroopers lists land units that came by air (e.g. \"2 inf\")")


def _with_technologies(units, techs: tuple[str, ...]):
    """``units`` as an owner holding ``techs`` has them (``engine.technology``: the same
    types the turn's battles use)."""
    if not techs:
        return units
    from ..engine.technology import effective_type
    return tuple(attrs.evolve(u, type=effective_type(u.type, techs)) for u in units)


def _last_uid(units) -> int:
    """The uid after which the next side's units are numbered (every unit its own uid)."""
    return max((u.uid for u in units), default=0)


def odds_setup(game, args, notes: list[str]) -> BattleSetup:
    """The battle ``pbem odds`` was asked about."""
    from .odds_input import battle_units, loss_order, retreat_conditions, technologies
    order = game.ruleset.turn_order
    attacker, defender = order[1], order[0]   # any two enemies: ownership does not change odds
    is_sea = bool(args.sea)
    space = next(t.key for t in game.map.territories.values() if t.is_sea == is_sea)
    attackers = battle_units(game, args.attackers, "the attackers", attacker, 0, notes=notes)
    if args.from_sea:
        if is_sea:
            raise PbemError("--from-sea is for the land part of an amphibious assault")
        attackers += battle_units(game, args.from_sea, "--from-sea", attacker,
                                  _last_uid(attackers), seaborne=True)
    if getattr(args, "paratroopers", None):
        if is_sea:
            raise PbemError("--paratroopers is for a land battle")
        attackers += battle_units(game, args.paratroopers, "--paratroopers", attacker,
                                  _last_uid(attackers), airborne=True)
    defenders = battle_units(game, args.defenders, "the defenders", defender,
                             _last_uid(attackers), defending=True)
    # AA guns fire from beside the board (the defender's support), as in a game: those never
    # on it (1942's noncombatant gun) and those also on it (Global 1940's gun, defence 0).
    guns = tuple(u for u in defenders if u.type.has("noncombatant") or u.type.has("aa_fire"))
    defenders = tuple(u for u in defenders if not u.type.has("noncombatant"))
    ships = (battle_units(game, args.bombard, "--bombard", attacker,
                          _last_uid((*attackers, *defenders, *guns)))
             if getattr(args, "bombard", None) else ())
    if ships and (is_sea or not args.from_sea):
        raise PbemError("--bombard is for an amphibious assault (give --from-sea too)")
    if any(not u.type.has("bombard") for u in ships):
        raise PbemError("--bombard lists ships that can bombard (e.g. \"1 bb, 1 ca\")")
    if not attackers or not (defenders or guns):
        raise PbemError("both sides need at least one unit")
    for side, option in (("attacker", "attacker_tech"), ("defender", "defender_tech")):
        techs = technologies(game, getattr(args, option, None), "--" + option.replace("_", "-"))
        if techs:
            notes.append(f"the {side} holds {', '.join(t.replace('_', ' ') for t in techs)}")
            if side == "attacker":
                attackers, ships = _with_technologies(attackers, techs), _with_technologies(ships, techs)
            else:
                defenders, guns = _with_technologies(defenders, techs), _with_technologies(guns, techs)
    _check_domains(attackers, defenders, is_sea)
    retreat = retreat_conditions(game, args.retreat, space) if args.retreat else ()
    return BattleSetup(battle_id="odds", space=space, is_sea=is_sea, attacker=attacker,
                       attackers=attackers, defenders=defenders, retreat=retreat,
                       retreat_options=("(retreat)",) if retreat else (),
                       attacker_loss_order=loss_order(game, args.attacker_losses, space,
                                                      "--attacker-losses"),
                       defender_loss_order=loss_order(game, args.defender_losses, space,
                                                      "--defender-losses"),
                       attacker_subs=args.attacker_subs,
                       defender_submerge=SubmergePolicy(args.defender_submerge),
                       stages=game.ruleset.plan.battle_stages, support=(ships, guns),
                       unit_types=game.ruleset.units,
                       low_luck=bool(getattr(args, "low_luck", False)
                                     or game.ruleset.option("low_luck", False)),
                       defender_default=game.ruleset.option("default_losses", "cheapest"))


def _monte_carlo(setup: BattleSetup, runs: int, sides: int, no_color) -> BattleOdds:
    from .progress import ProgressBar
    with ProgressBar(f"Monte Carlo, {runs} battles", runs, no_color=no_color) as bar:
        return monte_carlo(setup, runs, seed=0, sides=sides, progress=bar.update)


def odds_command(args, console: Console) -> int:
    from ..service.games import load_game
    game = load_game(args.ruleset)
    notes: list[str] = []
    setup = odds_setup(game, args, notes)
    started = time.perf_counter()
    max_error = getattr(args, "max_error", None)
    exact = odds_with_progress(setup, game.ruleset.dice_sides, "Exact odds", max_error=max_error,
                               no_color=getattr(args, "no_color", None))
    elapsed = time.perf_counter() - started
    rows = [("exact" if max_error is None else "approximate", exact, elapsed)]
    if args.monte_carlo:
        started = time.perf_counter()
        rows.append((f"Monte Carlo ×{args.monte_carlo}",
                     _monte_carlo(setup, args.monte_carlo, game.ruleset.dice_sides,
                                  getattr(args, "no_color", None)),
                     time.perf_counter() - started))
    if getattr(args, "json", False):
        from .json_output import emit, odds_json
        emit(odds_json(game, setup, exact, rows[1][1] if args.monte_carlo else None, notes))
        return 0
    attackers, defenders = setup.attackers, setup.defenders
    ships, guns = setup.support
    console.print(f"[bold]{_units_text(game, attackers + ships)}[/]  vs  "
                  f"[bold]{_units_text(game, defenders + tuple(g for g in guns if g not in defenders))}[/]  "
                  f"({'sea' if setup.is_sea else 'land'} battle"
                  f"{', Low Luck dice' if setup.low_luck else ''})", soft_wrap=True)
    for note in notes:
        console.print(f"[yellow]note:[/] {note}", soft_wrap=True)
    table = Table()
    table.add_column("")
    for label, _, _ in rows:
        table.add_column(label, justify="right")
    fields = [("Attacker wins", "attacker_wins"), ("Territory taken", "captured"),
              ("Defender wins", "defender_wins"), ("Both destroyed", "both_destroyed"),
              ("Attacker retreats", "attacker_retreats"), ("Stalemate", "stalemate")]
    for label, name in fields:
        if name == "captured" and setup.is_sea:
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
