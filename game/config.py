"""Configuration: TOML read with ``tomllib`` into frozen dataclasses, checked once at load.

Layers, lowest first: the defaults below, the remembered settings (the window only; see
game/runs/settings.py: they fill only keys the config file does not write), one config file
(``config.toml`` beside ``main.py``, or the file given with ``--config``; it overrides only the
keys it names), the level's map properties (``[physics]`` keys only), then the command line.

Every field states its unit and its range in its metadata; ``config.toml`` repeats both in a
comment. The ranges are generous for any level but bound the work a tick can ask for (see
:class:`PhysicsConfig`).

Note on resolver options: TOML cannot hold both a top-level string ``resolver = "axis"`` and tables
``[resolver.<name>]`` (the key would be both a string and a table), so the options of each resolver
live in ``[resolvers.<name>]``.
"""

from __future__ import annotations

import dataclasses
import difflib
import math
import os
import re
import tomllib
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from game import resolvers
from game.errors import UserError, quoted, read_bounded

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_CONFIG = ROOT / "config.toml"

# A real config is a few KB; 64 KB is far more than one needs and keeps tomllib's work (and the
# tables it builds, several hundred bytes per key part) to a few tens of MB at the very worst.
CONFIG_LIMIT = 64_000  # bytes
# tomllib's time and memory grow with the square of the parts of one dotted key (``a.b.c = 1``,
# ``[a.b.c]``): 10,000 parts take seconds and 400 MB. This config's keys have at most 3 parts.
MAX_LINE_DOTS = 32


def _f(default: Any, unit: str, lo: float | None = None, hi: float | None = None,
       lo_open: bool = False) -> Any:
    """A config field: default, unit, and the allowed range (``lo_open``: strictly above lo)."""
    return field(default=default, metadata={"unit": unit, "lo": lo, "hi": hi, "lo_open": lo_open})


# Upper bounds of speeds and accelerations. A level made for a 12x14 px player on 16 px tiles
# uses speeds of a few hundred px/s (the defaults: 130 to run, 410 to jump) and accelerations of
# one or two thousand px/s^2; even a fast, small-tiled or zoomed-out level stays well inside these.
#
# Why speed bounds matter: the shared mover cuts a tick's motion into sub-steps no longer than
# half a tile (and half the body), but never shorter than 0.5 px. A body moves at most
# max(run_speed, jump_speed, max_fall_speed) / tick_rate in one tick: the horizontal speed only
# approaches run_speed, the vertical one lies between -jump_speed and max_fall_speed. At the
# slowest tick rate (10 Hz) that is 5,000 / 10 = 500 px, so at most 500 / 0.5 = 1,000 sub-steps a
# tick on 1 px tiles (84 for the 12x14 player on 16 px tiles). Accelerations (gravity too) only
# change velocity, which these caps bound; their own cap keeps the numbers sane: reaching run_speed
# within one tick at 60 Hz takes run_speed * 60, 7,800 px/s^2 for the default run_speed.
MAX_SPEED = 5_000.0  # px/s
MAX_ACCEL = 100_000.0  # px/s^2

# Lower bounds: the least that still plays. A value "above 0" let gravity = 1e-300 in, and then a
# body moves so little in a tick (at 1000 Hz, 0.5 * gravity / 1000^2 px from rest) that the
# resolvers stop seeing the floor under it: it never stands (measured: axis and overlap stand
# from about 10 px/s^2 at 1000 Hz). The bounds below keep a margin of ten or more over that and
# still leave room for slow, floaty levels: at 100 px/s^2 the default jump lasts 8 s.
MIN_GRAVITY = 100.0  # px/s^2
MIN_FALL_SPEED = 50.0  # px/s: a tile of 16 px in a third of a second
MIN_ACCEL = 100.0  # px/s^2, each of the four run accelerations: the default run_speed in 1.3 s
# One tick at the slowest tick rate: a shorter drop-through can end before the body has left the
# one-way tile's top, and the drop does nothing.
MIN_DROP_TIME = 0.1  # s


@dataclass(frozen=True)
class PhysicsConfig:
    """The player's physics. Every value has a lower bound that still plays (see MIN_GRAVITY and
    the lines beside it); those that may be 0 mean "none of it" at 0 and nothing breaks on the
    way there: no running or jumping (``run_speed``, ``jump_speed``), no coyote time or jump
    buffer, an instant respawn, a full jump cut, floating in water (``water_gravity``)."""

    tick_rate: float = _f(60.0, "Hz", 10.0, 1000.0)
    gravity: float = _f(1500.0, "px/s^2", MIN_GRAVITY, MAX_ACCEL)
    max_fall_speed: float = _f(480.0, "px/s", MIN_FALL_SPEED, MAX_SPEED)
    run_speed: float = _f(130.0, "px/s", 0.0, MAX_SPEED)
    ground_accel: float = _f(1400.0, "px/s^2", MIN_ACCEL, MAX_ACCEL)
    ground_decel: float = _f(1800.0, "px/s^2", MIN_ACCEL, MAX_ACCEL)
    air_accel: float = _f(1000.0, "px/s^2", MIN_ACCEL, MAX_ACCEL)
    air_decel: float = _f(600.0, "px/s^2", MIN_ACCEL, MAX_ACCEL)
    jump_speed: float = _f(410.0, "px/s", 0.0, MAX_SPEED)
    jump_cut: float = _f(0.45, "fraction of upward speed kept on early release", 0.0, 1.0)
    coyote_time: float = _f(0.1, "s", 0.0, 2.0)
    jump_buffer: float = _f(0.1, "s", 0.0, 2.0)
    drop_through_time: float = _f(0.2, "s", MIN_DROP_TIME, 2.0)
    respawn_delay: float = _f(1.0, "s", 0.0, 60.0)
    # Water tiles (game/maps/tiles.py): inside water these scale gravity, the fall speed cap and the
    # run speed; jump is a swim stroke, and leaving the surface with jump held hops out.
    water_gravity: float = _f(0.3, "fraction of gravity in water", 0.0, 1.0)
    # at 0.05 a body still sinks to the floor of a pool at the slowest max_fall_speed (2.5 px/s)
    water_max_fall: float = _f(0.3, "fraction of max_fall_speed in water", 0.05, 1.0)
    water_run: float = _f(0.6, "fraction of run_speed in water", 0.0, 1.0)
    swim_stroke: float = _f(150.0, "px/s", 0.0, MAX_SPEED)
    water_hop: float = _f(330.0, "px/s", 0.0, MAX_SPEED)
    stomp_speed: float = _f(300.0, "px/s", 0.0, MAX_SPEED)  # the bounce off a stomped walker
    # Ladders (a tile whose collision is "ladder"): on one, gravity is off and the player climbs.
    climb_speed: float = _f(80.0, "px/s", 0.0, MAX_SPEED)
    climb_side_speed: float = _f(50.0, "px/s", 0.0, MAX_SPEED)  # sideways while on a ladder

    @property
    def dt(self) -> float:
        return 1.0 / self.tick_rate


# The mover and the resolvers look at the tiles the body covers, every sub-step: a 256 px body
# covers 17x17 tiles of 16 px. A hitbox 16 tiles tall is already a giant.
MAX_PLAYER_SIZE = 256.0  # px


@dataclass(frozen=True)
class PlayerConfig:
    width: float = _f(12.0, "px", 1.0, MAX_PLAYER_SIZE)
    height: float = _f(14.0, "px", 1.0, MAX_PLAYER_SIZE)


@dataclass(frozen=True)
class DisplayConfig:
    width: int = _f(1280, "px", 320, 7680)
    height: int = _f(720, "px", 180, 4320)
    scale: int = _f(0, "whole-number pixel scale; 0 picks the whole scale that shows nearest 240 "
                    "px of map height (a crisp fractional one where none shows 180 to 300 px); "
                    "divided by a map's physics scale (bigger tiles: as many shown)", 0, 16)
    vsync: bool = _f(True, "on/off")
    fullscreen: bool = _f(False, "on/off")
    debug: bool = _f(False, "on/off: draw probed tiles and contacts")
    max_frame_time: float = _f(0.25, "s: a longer frame is clamped", 0.01, 1.0)
    max_ticks_per_frame: int = _f(8, "ticks", 1, 100)
    hot_reload: bool = _f(True, "on/off: reload the level when its file changes")
    screen_shake: bool = _f(True, "on/off: a stomp shakes the view for a moment")


@dataclass(frozen=True)
class CameraConfig:
    """Platform snapping (see game/sim/camera.py); both dead zones 0 lock the camera on the player."""

    dead_zone_up: int = _f(64, "px: how far above the height it last stood the player may rise "
                           "before the camera follows", 0, 4320)
    dead_zone_down: int = _f(32, "px: how far below that height the player may drop before the "
                             "camera follows", 0, 4320)
    snap_speed: float = _f(240.0, "px/s: how fast the camera glides to the player's height while "
                           "they stand", 0.0, 100000.0)
    look_ahead: int = _f(40, "px: how far ahead of a running player the view looks (0: centred)",
                         0, 2000)
    look_speed: float = _f(120.0, "px/s: how fast the view shifts to look ahead", 0.0, 100000.0)


@dataclass(frozen=True)
class AudioConfig:
    """Sound effects (see game/view/sound.py); with no audio device the game plays silently."""

    volume: float = _f(0.6, "fraction of full volume, 0 to 1", 0.0, 1.0)
    muted: bool = _f(False, "on/off: start with the sound off (M toggles)")


@dataclass(frozen=True)
class GamepadConfig:
    """Game controllers (see game/view/pad.py)."""

    dead_zone: float = _f(0.35, "fraction of the left stick's full tilt ignored around its "
                          "centre, 0 to 0.95", 0.0, 0.95)


@dataclass(frozen=True)
class SpearConfig:
    """The thrown spear (see game/sim/spear.py)."""

    speed: float = _f(380.0, "px/s: how fast it leaves the hand", 0.0, MAX_SPEED, lo_open=True)
    gravity: float = _f(700.0, "px/s^2 pulling it down in flight", 0.0, MAX_ACCEL)
    lift: float = _f(60.0, "px/s upward at the throw", 0.0, MAX_SPEED)
    stick_angle: float = _f(45.0, "degrees: at most this far from head-on it sticks, else it "
                            "slides along the surface", 0.0, 90.0)
    stuck_time: float = _f(3.0, "s stuck before it falls away", 0.0, 60.0, lo_open=True)
    slide_decel: float = _f(900.0, "px/s^2 slowing it while it slides on a floor", 0.0, MAX_ACCEL)
    max_spears: int = _f(3, "spears at once (a new throw takes the oldest)", 1, 16)


@dataclass(frozen=True)
class MapConfig:
    """What a map made for another engine does not say the game's way, said for it (see
    docs/levels.md, "Bringing your own map"): the command line's options of the same names win
    over these, and these over the map's own properties of the same names."""

    solid_layers: tuple[str, ...] = _f((), "names of the tile or object layers that are solid")
    one_way_layers: tuple[str, ...] = _f((), "names of the layers that are one-way platforms")
    solid_property: str = _f("", "the tile property that means solid: a name (true: solid) or "
                             "name=value")
    one_way_property: str = _f("", "the tile property that means one-way: a name or name=value")
    start_object: str = _f("", "the name or class of the object the player starts at")


@dataclass(frozen=True)
class Config:
    resolver: str = _f("axis", "name from --list-resolvers")
    level: str = _f("levels/01_first_steps.tmx", "path, relative to the config file")
    physics: PhysicsConfig = field(default_factory=PhysicsConfig)
    player: PlayerConfig = field(default_factory=PlayerConfig)
    display: DisplayConfig = field(default_factory=DisplayConfig)
    camera: CameraConfig = field(default_factory=CameraConfig)
    audio: AudioConfig = field(default_factory=AudioConfig)
    gamepad: GamepadConfig = field(default_factory=GamepadConfig)
    spear: SpearConfig = field(default_factory=SpearConfig)
    map: MapConfig = field(default_factory=MapConfig)
    # resolver name -> its Options dataclass instance; absent names use their defaults
    resolvers: Mapping[str, Any] = field(default_factory=dict)

    def resolver_options(self, name: str) -> Any:
        opts = self.resolvers.get(name)
        return opts if opts is not None else resolvers.REGISTRY[name].Options()


SECTIONS = {"physics": PhysicsConfig, "player": PlayerConfig, "display": DisplayConfig,
            "camera": CameraConfig, "audio": AudioConfig, "gamepad": GamepadConfig,
            "spear": SpearConfig, "map": MapConfig}


# ----------------------------------------------------------------------------------------------
# Checking values
# ----------------------------------------------------------------------------------------------

def _type_name(tp: Any) -> str:
    return {float: "a number", int: "a whole number", bool: "true or false", str: "a string",
            tuple: "an array of strings"}[tp]


def shown(value: Any) -> str:
    """A value from a user's file as an error line shows it: cut if long, and an array or a table
    by its kind (its repr could be megabytes, or nested too deeply to write out)."""
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, list):
        return "an array"
    return quoted(value)


def shown_key(key: str) -> str:
    """A key name from a user's file: as written if short and printable, else quoted and cut."""
    return key if len(key) <= 40 and key.isprintable() and key.strip() == key else quoted(key)


def range_text(f: dataclasses.Field) -> str:
    """The field's range in words: 'from 10 to 1000', 'above 0 and at most 5000'..."""
    meta = f.metadata
    lo, hi, lo_open = meta.get("lo"), meta.get("hi"), meta.get("lo_open")
    low = (f"above {lo:g}" if lo_open else f"at least {lo:g}") if lo is not None else ""
    if hi is None:
        return low
    if lo is None:
        return f"at most {hi:g}"
    return f"above {lo:g} and at most {hi:g}" if lo_open else f"from {lo:g} to {hi:g}"


def check_value(f: dataclasses.Field, value: Any, key: str, where: str | os.PathLike) -> Any:
    """``value`` converted to the field's type and range, or a UserError naming ``key``."""
    tp = {"float": float, "int": int, "bool": bool, "str": str,
          "tuple[str, ...]": tuple}.get(f.type, f.type)
    ok = (isinstance(value, bool) if tp is bool
          else isinstance(value, str) if tp is str
          else isinstance(value, list) and all(isinstance(v, str) for v in value) if tp is tuple
          else isinstance(value, int) and not isinstance(value, bool) if tp is int
          else isinstance(value, (int, float)) and not isinstance(value, bool))
    if not ok:
        raise UserError(where, f"{key} must be {_type_name(tp)}, not {shown(value)}")
    if tp is tuple:
        return tuple(value)
    if tp is float:
        try:
            value = float(value)
        except OverflowError:  # an integer too large for a float
            value = math.inf if value > 0 else -math.inf
        if not math.isfinite(value):
            raise UserError(where, f"{key} must be a finite number, not {shown(value)}")
    meta = f.metadata
    lo, hi = meta.get("lo"), meta.get("hi")
    if ((lo is not None and (value < lo or (meta.get("lo_open") and value == lo)))
            or (hi is not None and value > hi)):
        raise UserError(where, f"{key} must be {range_text(f)} ({meta['unit']}), "
                        f"not {shown(value)}")
    return value


def build(cls: type, table: Mapping[str, Any], prefix: str, where: str | os.PathLike,
          base: Any = None) -> Any:
    """A frozen dataclass from a TOML table, over ``base``; unknown keys are errors."""
    known = {f.name: f for f in fields(cls)}
    changes = {}
    for key, value in table.items():
        name = f"{prefix}{key}"
        if key not in known:
            choices = ", ".join(known) or "none"
            raise UserError(where, f"unknown key {prefix}{shown_key(key)} (known keys: {choices})")
        changes[key] = check_value(known[key], value, name, where)
    return replace(base if base is not None else cls(), **changes)


# ----------------------------------------------------------------------------------------------
# Loading
# ----------------------------------------------------------------------------------------------

_LONE_DOT = re.compile(r"(?<!\.)\.(?!\.)")  # a dot that could part a key ('..' cannot)


def read_toml(path: Path) -> dict[str, Any]:
    """The TOML document in ``path``, read within bounds of size, key depth and nesting."""
    data = read_bounded(path, CONFIG_LIMIT, "config file", "check the path or leave --config out")
    try:  # a byte order mark (Windows' Notepad writes one) is read past, as JSON maps' are
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise UserError(path, f"is not UTF-8 text (byte {exc.start:,} cannot be read); save the "
                        "config file as UTF-8") from None
    # A key's parts are on one line (TOML ends lines only at \n), so counting the dots of each
    # line bounds them before tomllib starts; a comment or a string with a few dots is fine.
    for number, line in enumerate(text.split("\n"), 1):
        dots = len(_LONE_DOT.findall(line))
        if dots > MAX_LINE_DOTS:
            raise UserError(path, f"line {number:,} has {dots:,} dots; a key of this config has "
                            f"at most 3 dotted parts, and a line may have {MAX_LINE_DOTS} dots at "
                            "most (check that this is the right file)")
    try:
        return tomllib.loads(text)
    except RecursionError:
        raise UserError(path, "arrays or inline tables are nested too deeply; no key of this "
                        "config needs nesting at all") from None
    except tomllib.TOMLDecodeError as exc:
        raise UserError(path, f"not valid TOML: {exc}{toml_hint(text, str(exc))}") from None
    except ValueError:  # Python refuses to read a whole number of more than 4,300 digits
        raise UserError(path, "a whole number has thousands of digits; no key of this config "
                        "needs one") from None


_SINGULAR_TABLE = re.compile(r"\s*\[\s*resolver\s*\.")  # a [resolver.<name>] header


def toml_hint(text: str, message: str) -> str:
    """What to change for a TOML syntax error, when the text shows a likely cause: a table
    header ``[resolver.<name>]`` (TOML cannot have it beside ``resolver = "..."``), or a value
    TOML cannot read (``vsync = yes``, ``resolver = sweep``). Comments do not count: the
    shipped file's own comments name ``[resolver.<name>]``."""
    if any(_SINGULAR_TABLE.match(line) for line in text.split("\n")):
        return "; resolver options go in [resolvers.<name>] tables, not [resolver.<name>]"
    if message.startswith("Invalid value"):
        return ('; a value is a number, true or false, or text in quotes (resolver = "sweep", '
                "vsync = true)")
    return ""


def from_table(data: Mapping[str, Any], where: str | os.PathLike,
               base: Config | None = None, base_dir: Path | None = None) -> Config:
    """Apply a parsed TOML document over ``base`` (the defaults if None)."""
    cfg = base if base is not None else Config()
    changes: dict[str, Any] = {}
    for key, value in data.items():
        if key in SECTIONS:
            if not isinstance(value, dict):
                raise UserError(where, f"{key} must be a table: write it as [{key}]")
            changes[key] = build(SECTIONS[key], value, f"[{key}] ", where, getattr(cfg, key))
        elif key == "resolvers":
            changes[key] = _resolver_tables(value, where, cfg.resolvers)
        elif key == "resolver" and isinstance(value, dict):
            raise UserError(where, "[resolver.<name>] is not a table here; resolver options go "
                            "in [resolvers.<name>] tables, and resolver = \"<name>\" picks one")
        elif key in ("resolver", "level"):
            f = next(f for f in fields(Config) if f.name == key)
            changes[key] = check_value(f, value, key, where)
        else:
            known = ("resolver, level, [physics], [player], [display], [camera], [audio], "
                     "[gamepad], [spear], [map], [resolvers.<name>]")
            raise UserError(where, f"unknown key {shown_key(key)} (known: {known})")
    if "resolver" in changes:
        changes["resolver"] = check_resolver(changes["resolver"], where)
    if "level" in changes and base_dir is not None:
        changes["level"] = str(base_dir / changes["level"])
    return replace(cfg, **changes)


def _resolver_tables(value: Any, where: str | os.PathLike,
                     current: Mapping[str, Any]) -> Mapping[str, Any]:
    if not isinstance(value, dict):
        raise UserError(where, "resolvers must hold tables: write [resolvers.<name>]")
    out = dict(current)
    for name, table in value.items():
        if name not in resolvers.REGISTRY:
            guess = did_you_mean(name, resolvers.names(), "[resolvers.{}]")
            raise UserError(where, f"unknown resolver in [resolvers.{shown_key(name)}]{guess} "
                            "(choose one of: " + ", ".join(resolvers.names()) + ")")
        if not isinstance(table, dict):
            raise UserError(where, f"resolvers.{name} must be a table: write [resolvers.{name}]")
        cls = resolvers.REGISTRY[name].Options
        out[name] = build(cls, table, f"[resolvers.{name}] ", where, current.get(name))
    return out


def check_resolver(name: str, where: str | os.PathLike, what: str = "resolver") -> str:
    """The registered resolver ``name`` stands for, in any case (``Axis`` is ``axis``); else a
    UserError listing them, with the nearest name when one is close (a typo)."""
    known = resolvers.names()
    wanted = name.strip().lower()
    found = next((n for n in known if n.lower() == wanted), None)
    if found is not None:
        return found
    raise UserError(where, f"unknown {what} {quoted(name)}{did_you_mean(wanted, known)} "
                    "(choose one of: " + ", ".join(known) + ")")


def did_you_mean(word: str, choices: list[str], shown: str = "{}") -> str:
    """``; did you mean X?`` (or ``X or Y``, when two are as close) for a near miss of one of
    ``choices``, each written as ``shown`` formats it; empty when none is close."""
    close = difflib.get_close_matches(word.lower(), choices, n=2, cutoff=0.6)
    return f"; did you mean {' or '.join(shown.format(c) for c in close)}?" if close else ""


def load(path: str | os.PathLike | None = None) -> Config:
    """Defaults, then the config file: ``path``, or ``config.toml`` beside main.py if present."""
    return load_with_table(path)[0]


def load_with_table(path: str | os.PathLike | None = None) -> tuple[Config, dict[str, Any]]:
    """As ``load``, and the file's TOML table as read (empty without a file): what it writes out
    (game.runs.settings lets those keys win over the saved settings). The file is read once."""
    cfg = replace(Config(), level=str(ROOT / Config().level))
    if path is None:
        if not DEFAULT_CONFIG.exists():
            return cfg, {}
        path = DEFAULT_CONFIG
    p = Path(path)
    table = read_toml(p)
    return from_table(table, p, cfg, p.resolve().parent), table


def with_map_properties(cfg: Config, props: Mapping[str, Any], where: str | os.PathLike) -> Config:
    """Map custom properties named like [physics] keys override them for that level."""
    known = {f.name: f for f in fields(PhysicsConfig)}
    for k in props:
        # Other custom properties are the author's business, but a near miss of a physics key
        # is almost surely a typo that would silently leave the default in force.
        close = difflib.get_close_matches(k, known, n=1, cutoff=0.85) if k not in known else []
        if close:
            raise UserError(where, f"map property {shown_key(k)} is not a [physics] key; did "
                            f"you mean {close[0]}? (rename it in Map > Map Properties)")
    changes = {k: check_value(known[k], v, f"map property {k}", where)
               for k, v in props.items() if k in known}
    return replace(cfg, physics=replace(cfg.physics, **changes)) if changes else cfg


def scaled_physics(physics: PhysicsConfig, factor: float,
                   keep: Collection[str] = ()) -> PhysicsConfig:
    """``physics`` with every length-based value (its unit starts with px: speeds,
    accelerations, gravity) times ``factor``, except the keys in ``keep`` (those a map sets
    itself). Times and fractions stay. A map with 32 px tiles then jumps as many tiles as one
    with 16 px tiles (game.maps.level.TUNED_TILE_PX)."""
    return _scaled_lengths(physics, factor, keep)


def scaled_camera(camera: CameraConfig, factor: float) -> CameraConfig:
    """``camera`` with its lengths (dead zones, look-ahead) and speeds times ``factor``: on a
    map whose physics are scaled (``Level.physics_scale``) the camera keeps the same feel, as
    many tiles of dead zone and look-ahead as on a shipped level."""
    return _scaled_lengths(camera, factor)


def _scaled_lengths(cfg, factor: float, keep: Collection[str] = ()):
    """``cfg`` (a config dataclass) with each field whose unit starts with px times ``factor``
    (at most its upper bound; whole numbers stay whole)."""
    if factor == 1.0:
        return cfg
    changes = {}
    for f in fields(cfg):
        if f.metadata.get("unit", "").startswith("px") and f.name not in keep:
            value = min(getattr(cfg, f.name) * factor, f.metadata["hi"])
            changes[f.name] = round(value) if isinstance(getattr(cfg, f.name), int) else value
    return replace(cfg, **changes)


def describe_fields(cls: type) -> list[tuple[str, Any, str]]:
    """(name, default, unit) of each field: used to check that config.toml documents them all."""
    return [(f.name, getattr(cls(), f.name), f.metadata.get("unit", "")) for f in fields(cls)]
