"""Names the rules share: sides, maps, regions, boxes and state variables."""

from __future__ import annotations

GERMAN = "german"
SOVIET = "soviet"
ANGLO_FRENCH = "anglo_french"
ALLIED_SIDES = frozenset({SOVIET, ANGLO_FRENCH})  # one side for victory and control [4.1]

WEST = "whatif1940/west"
EAST = "whatif1940/east"

# Regions as the built maps name them [3.12].
GREATER_GERMANY = "Greater Germany"
USSR = "USSR"
FORMER_POLAND = "Former Poland"
LITHUANIA = "Lithuania"
LATVIA = "Latvia"
ESTONIA = "Estonia"
FRANCE = "France"
BELGIUM = "Belgium"
HOLLAND = "Holland"
LUXEMBOURG = "Luxembourg"

# Nationalities (unit-type key "nation").
NAT_GERMAN = "german"
NAT_SOVIET = "soviet"
NAT_BRITISH = "british"
NAT_FRENCH = "french"
NAT_BELGIAN = "belgian"
NAT_DUTCH = "dutch"


def box(box_id: str) -> str:
    """The location of an off-map box."""
    return "box:" + box_id


DEAD = box("dead")
GERMAN_POOL = box("german_pool")
NEUTRAL_POOL = box("neutral_pool")
ALLIED_POOL = box("allied_pool")
SOVIET_POOL = box("soviet_pool")
BALTIC_SEA = box("baltic_sea")
GSRHB_ELIGIBLE = box("gsrhb_eligible")
SSWFHB_JUST_ARRIVED = box("sswfhb_just_arrived")
SAFHB = box("safhb")
SOVIET_REGULARS = box("soviet_regulars")


def trt_box(turn: int) -> str:
    """The Turn Record Track box of a game turn [3.2]."""
    return box(f"trt_{turn}")


MOSCOW = "4624"
LENINGRAD = "5917"

# State variables (GameState.vars).
V_SETUP_DONE = "setup_done"
V_CONTROL = "control"  # hex -> side, only where control differs from the start [3.12]
V_EVER_GERMAN = "ever_german"  # hexes not German at the start that have been since [3.12]
V_EAST_ORDER = "east_order"  # "move_fight" | "fight_move" [5.3]
V_PLOESTI = "ploesti_captured"  # [6.10]
V_ARDENNES_OPEN = "ardennes_open"  # [10.10]
V_HOLLAND = "holland"  # "neutral" | "violated" [3.6]
V_BELGIUM = "belgium"  # "neutral" | "frozen" | "allied" [3.6]
V_LUXEMBOURG = "luxembourg_entered"  # [3.7]
V_UNTRIED = "untried"  # piece id -> hidden name and values [2.12]
V_MOVING_PARENT = "moving_parent"  # the parent stack now moving [10.2, 10.5]
V_PIECE_IDS = "piece_ids"  # every counter at the start: unit conservation

MOVE_FIGHT = "move_fight"
FIGHT_MOVE = "fight_move"

# Piece attrs used during a phase.
A_MP_USED = "mp_used"
A_PHASE_HEX = "phase_hex"  # where the unit began the movement phase: its parent stack [10.4]
A_DONE = "done"  # finished moving this phase [10.2, 10.5]
A_MOVED = "moved"  # the UI dims moved counters
A_STEP = "step"  # 2 = reduced [2.11]
A_UNTRIED = "untried"

# Airpower [8.1-8.6]: aircraft piece ids that flew a mission this game turn (support,
# interdiction, superiority) and those suppressed by air superiority until the next turn.
V_AIR_USED = "air_used"
V_AIR_SUPPRESSED = "air_suppressed"

# Reinforcements, replacements, holding boxes and fronts [4.3, 5.5, 9.5-9.11, 12.1-12.8].
GSRHB_JUST_ARRIVED = box("gsrhb_just_arrived")
SSWFHB_ELIGIBLE = box("sswfhb_eligible")
SSWFHB_ROMANIA = box("sswfhb_romania")
SFEHB = box("sfehb")
SOVIET_REPLACEMENTS = box("soviet_replacements")
SOVIET_FORTS = box("soviet_forts")
V_IGNORE_RIVERS_T1 = "ignore_rivers_t1"  # EFST: Soviet defenders get no river benefit, turn 1 [5.5]
V_EFST = "efst_result"  # the East Front Surprise result, once per game [5.5]
V_GERMAN_WIN = "german_win"  # the Moscow Falls Table's winning text [4.3]
V_JAPAN = "japan_at_war"  # [12.5]
V_FINLAND = "finland_at_war"  # [12.6]
V_ROMANIA_WAR = "romania_war"  # Soviets have entered In Romania in the current war [12.4, 12.8]
V_FRONT = "front_step"  # what the current II.C / II.E / I.A step has done (a FrozenMap)
V_REPLACED = "replaced"  # replacement kinds used in the current replacement phase [9.9, 9.11]
V_FORTS_ALLOWED = "forts_allowed"  # forts still to build this II.E [9.8]
A_GSRHB_TURN = "gsrhb_turn"  # the game turn a German unit went into the GSRHB [12.1]
A_SSW_TURN = "ssw_turn"  # the game turn a Soviet unit last moved into an SSWFHB portion [12.7]

# Supply [6.7]: set on a unit found out of supply at the start of its movement (its MF is
# halved, rounded up, for the rest of the phase).
A_OOS_MOVE = "oos_move"
A_MA_DONE = "ma_done"  # made its one mobile assault this movement phase [10.15]

# Airpower, the airpower part [8.1-8.3, 8.7]: Luftwaffe units flown on air superiority in
# this I.A; the interdictors of the current movement phase (a FrozenMap: side = the units
# slowed, at = aircraft id -> hex); whether the 7th Flieger Corps has dropped (once per
# game); the airborne assault being resolved (a FrozenMap).
V_AIR_SUPERIORITY = "air_superiority"
V_INTERDICTION = "interdiction"
V_FLIEGER_DROPPED = "flieger_dropped"
V_AIRBORNE = "airborne_assault"
