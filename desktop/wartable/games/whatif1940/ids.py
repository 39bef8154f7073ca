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
