"""The ETO steps (issue 22): the kit's assisted step with the revisions the app enforces on
top: the Africa and Middle East caps on moves and placements [General (10)] and the attack
verb (differential with every multiplier, no attack below 0, the CRT, the second die on a 6
[General (2)], the fortress lapsing on occupation [General (8)(D)])."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from wartable.core.errors import IllegalAction
from wartable.core.frozen import FrozenMap
from wartable.engine.actions import Action, Event, Outcome
from wartable.engine.assisted import PLACE, apply_verb, assisted_move
from wartable.engine.kitsteps import AssistedStep
from wartable.engine.rules import Game
from wartable.games.eto_bailey import revisions as rv
from wartable.model.sequence import Position
from wartable.model.state import GameState, Piece

ATTACK = "attack"  # args: attackers (piece ids), hex, dice (optional: (die,) or (die, second))
PLACE_UNIT = "place_unit"  # args: type, location, sp, nation: a reinforcement [General (10)]


def crt_grid(game: Game) -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]:
    t = game.definition.tables["crt_grid"]
    assert isinstance(t, Mapping)
    return tuple(t["columns"]), tuple(tuple(r) for r in t["rows"])


def crt_loss(game: Game, die: int, diff: int) -> int:
    cols, rows = crt_grid(game)
    col = max(i for i, c in enumerate(cols) if c <= diff)
    return int(rows[die - 1][col])


def _dice(state: GameState, given: Any, n: int) -> tuple[tuple[int, ...], GameState]:
    if given is not None:
        if not isinstance(given, tuple) or len(given) < n or not all(
                isinstance(d, int) and 1 <= d <= 6 for d in given):
            raise IllegalAction("Type the dice from 1 to 6.")
        return tuple(given), state
    rolled, rng = state.rng.roll_many(n, 6)
    return rolled, replace(state, rng=rng)


def attack(game: Game, state: GameState, side: str, attackers: tuple[str, ...], hex_: str,
           dice: Any = None) -> Outcome:
    if not attackers or any(a not in state.pieces or state.pieces[a].side != side
                            for a in attackers):
        raise IllegalAction("Choose your attacking units.")
    defenders = [p for p in state.pieces_at(hex_) if p.side != side]
    if not defenders:
        raise IllegalAction("There is no enemy unit in that hex.")
    o = rv.odds(game, state, attackers, hex_)
    if o.refused:
        raise IllegalAction(o.refused)
    rolled, state = _dice(state, dice, 1)
    die = rolled[0]
    loss = crt_loss(game, die, o.differential)
    why = "; ".join(o.reasons) or "no multiplier"
    events = [Event("combat", f"Attack on {hex_}: {o.attack} against {o.defence} ({why}), "
                    f"differential {o.differential}, die {die}: defender loses {loss} SP",
                    side, "CRT", data=FrozenMap(hex=hex_, die=die, loss=loss,
                                               differential=o.differential))]
    state = _take_losses(state, tuple(p.id for p in defenders), loss)
    attacker_loss, may_stay = 0, False
    if die == 6:  # General (2): a second die of another colour
        if dice is not None and len(dice) >= 2:
            second = dice[1]
        else:
            r2, state = _dice(state, None, 1)
            second = r2[0]
        attacker_loss, may_stay = rv.second_die(second)
        events.append(Event("combat", f"Second die {second}: " + (
            "attacker loses 1 SP; the defender may decline to retreat" if may_stay else
            "attacker loses 1 SP" if attacker_loss else "no effect") + " [General (2)]",
            side, "General (2)", data=FrozenMap(second=second, attacker_loss=attacker_loss,
                                                may_decline=may_stay)))
        state = _take_losses(state, attackers, attacker_loss)
    survivors = [p for p in state.pieces_at(hex_) if p.side != side]
    if not survivors:  # the hex is empty: the attacker advances; a fortress lapses
        movers = [a for a in attackers if a in state.pieces]
        for a in movers[:2]:
            state = state.with_piece(replace(state.pieces[a], location=hex_))
        if movers:
            state = rv.occupy(state, hex_)
            if hex_ in rv.FORTRESSES:
                events.append(Event("combat", f"{hex_} is no longer a fortress [General (8)(D)]",
                                    side, "General (8)(D)"))
    return Outcome(state, tuple(events))


def _take_losses(state: GameState, ids: tuple[str, ...], loss: int) -> GameState:
    """Losses in SP, from the largest unit first (ours: the owner may choose otherwise)."""
    for pid in sorted(ids, key=lambda i: -rv.sp_of(state.pieces[i])):
        if loss <= 0:
            break
        p = state.pieces[pid]
        sp = rv.sp_of(p)
        take = min(sp, loss)
        loss -= take
        if take == sp:
            state = state.without_piece(pid)
        else:
            state = state.with_piece(replace(p, attrs=p.attrs.set("sp", sp - take).set(
                "factors", f"{sp - take}-{_movement(p)}")))
    return state


def _movement(p: Piece) -> str:
    """The counter's factor line shows its SP and movement (e.g. "3-5")."""
    f = p.attrs.get("factors")
    return f.split("-")[-1] if isinstance(f, str) and "-" in f else "5"


class EtoAssisted(AssistedStep):
    def apply(self, game: Game, state: GameState, pos: Position, action: Action) -> Outcome | None:
        if action.verb == "move":
            raw = action.args.get("pieces", action.args.get("piece"))
            ids = raw if isinstance(raw, tuple) else (raw,)
            to = action.args.get("to")
            if isinstance(to, str):
                by_nation: dict[str, int] = {}
                for pid in ids:
                    p = state.pieces.get(pid) if isinstance(pid, str) else None
                    if p is not None and rv.area_of(game, p.location) != rv.area_of(game, to):
                        n = str(p.attrs.get("nation", ""))
                        by_nation[n] = by_nation.get(n, 0) + rv.sp_of(p)
                for n, sp in by_nation.items():
                    why = rv.cap_refusal(game, state, n, sp, to, moving_from="elsewhere")
                    if why:
                        raise IllegalAction(why)
            return assisted_move(game, state, action)
        if action.verb == PLACE_UNIT:
            loc, n_sp, nat = (action.args.get(k) for k in ("location", "sp", "nation"))
            if not isinstance(loc, str) or not isinstance(n_sp, int) or not isinstance(nat, str):
                raise IllegalAction("Name the place, the SP and the nation.")
            why = rv.cap_refusal(game, state, nat, n_sp, loc)
            if why:
                raise IllegalAction(why)
            return apply_verb(game, state, Action.make(
                PLACE, action.side, type=action.args.get("type"), location=loc,
                attrs=FrozenMap(sp=n_sp, nation=nat, factors=f"{n_sp}-5")))
        if action.verb == ATTACK:
            raw = action.args.get("attackers")
            ids = raw if isinstance(raw, tuple) else (raw,)
            hex_ = action.args.get("hex")
            if not isinstance(hex_, str) or not all(isinstance(i, str) for i in ids):
                raise IllegalAction("Choose the attackers and the defending hex.")
            return attack(game, state, action.side, ids, hex_, action.args.get("dice"))
        return None
