"""The shipped levels (``levels/*.tmx``): they load, are complete, and every resolver survives them.

The list of levels is taken when the tests are collected. An empty ``levels/`` folder is a
failure, not a pass: the game cannot start without its first level.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from helpers import resolver_params

from game import config as cfgmod
from game import resolvers
from game.sim.inputs import InputFrame, parse_script
from game.maps.level import Level, load_level, read_map
from game.resolvers.base import overlapping_tiles
from game.sim.world import World

ROOT = Path(__file__).resolve().parent.parent
LEVELS = sorted((ROOT / "levels").glob("*.tmx"))
NO_LEVELS = ROOT / "levels" / "<no levels found>"
PARAMS = LEVELS or [NO_LEVELS]
IDS = [p.name for p in PARAMS]


def config() -> cfgmod.Config:
    return cfgmod.load()  # the repository's config.toml if present, as the game uses


def load(path: Path) -> Level:
    if path == NO_LEVELS:
        pytest.fail("levels/ holds no .tmx file: the game ships no level")
    cfg = config()
    return load_level(path, (cfg.player.width, cfg.player.height))


def physics_for(level: Level) -> cfgmod.PhysicsConfig:
    return cfgmod.with_map_properties(config(), level.properties, level.path).physics


def test_there_are_levels():
    assert LEVELS, "levels/*.tmx: none found"


def test_default_level_of_the_config_exists():
    assert Path(cfgmod.Config().level).name in {p.name for p in LEVELS}
    assert Path(config().level).is_file()


@pytest.mark.parametrize("path", PARAMS, ids=IDS)
def test_level_loads_with_a_free_spawn(path):
    level = load(path)
    s = level.spawn
    assert overlapping_tiles(level.grid, s.x, s.y, s.w, s.h, s.y + s.h, True) == []
    for name in resolvers.names():
        slopes = resolvers.REGISTRY[name].supports_slopes
        assert overlapping_tiles(level.grid, s.x, s.y, s.w, s.h, s.y + s.h, slopes) == [], name
    assert 0 <= s.x and s.x + s.w <= level.grid.width_px
    assert 0 <= s.y and s.y + s.h <= level.grid.height_px


@pytest.mark.parametrize("path", PARAMS, ids=IDS)
def test_every_object_lies_inside_the_map(path):
    level = load(path)
    w, h = level.grid.width_px, level.grid.height_px
    outside = [o for o in read_map(path)[1].objects
               if not (0 <= o.x and o.x + o.w <= w and 0 <= o.top and o.top + o.h <= h)]
    assert not outside, f"objects outside the {w}x{h} px map: {outside}"


@pytest.mark.parametrize("path", PARAMS, ids=IDS)
def test_referenced_tilesets_and_images_exist(path):
    if path == NO_LEVELS:
        pytest.fail("no levels")
    root = ET.parse(path).getroot()
    missing = []
    for ts in root.iter("tileset"):
        src = ts.get("source")
        if src:
            tsx = path.parent / src
            if not tsx.is_file():
                missing.append(str(tsx))
                continue
            for image in ET.parse(tsx).getroot().iter("image"):
                if image.get("source") and not (tsx.parent / image.get("source")).is_file():
                    missing.append(f"{tsx.name}: {image.get('source')}")
    for image in root.iter("image"):  # embedded tilesets and image layers
        if image.get("source") and not (path.parent / image.get("source")).is_file():
            missing.append(image.get("source"))
    for obj in root.iter("object"):
        if obj.get("template") and not (path.parent / obj.get("template")).is_file():
            missing.append(obj.get("template"))
    assert not missing, f"missing files: {missing}"


@pytest.mark.parametrize("path", PARAMS, ids=IDS)
def test_level_has_a_goal(path):
    level = load(path)
    assert level.goals, "no object of type/class 'goal'"
    for g in level.goals:
        assert g.w > 0 and g.h > 0, "a goal must be a rectangle with a size"


@pytest.mark.parametrize("path", PARAMS, ids=IDS)
def test_next_level_names_an_existing_file(path):
    level = load(path)
    if level.next_level is not None:
        assert (path.parent / level.next_level).is_file(), level.next_level
        assert level.next_level.endswith(".tmx")


@pytest.mark.parametrize("path", PARAMS, ids=IDS)
def test_physics_map_properties_are_valid(path):
    physics_for(load(path))


# ----------------------------------------------------------------------------------------------
# Running the levels with every resolver
# ----------------------------------------------------------------------------------------------

def run_checked(level: Level, name: str, frames) -> list[tuple[float, float, bool]]:
    """Run ``frames`` with resolver ``name``; fail at the first tick the player overlaps a tile."""
    cfg = config()
    world = World(level, physics_for(level),
                         resolvers.create(name, cfg.resolver_options(name)))
    slopes = resolvers.REGISTRY[name].supports_slopes
    out = []
    for tick, frame in enumerate(frames):
        p = world.player
        bottom_before = p.y + p.h
        world.step(frame)
        if not p.respawning:
            bad = overlapping_tiles(level.grid, p.x, p.y, p.w, p.h, bottom_before, slopes)
            assert not bad, (f"{level.path.name} with {name}: tick {tick} the player at "
                             f"({p.x:.3f}, {p.y:.3f}) overlaps tiles {bad}")
        out.append((p.x, p.y, p.respawning))
    return out


@pytest.mark.parametrize("name", resolver_params())
@pytest.mark.parametrize("path", PARAMS, ids=IDS)
def test_idle_run_with_every_resolver(path, name):
    level = load(path)
    rec = run_checked(level, name, [InputFrame()] * 600)
    assert len(rec) == 600


def right_and_jumps(ticks: int) -> list[InputFrame]:
    lines = []
    for t in range(0, ticks, 30):
        lines += [f"{t} right+jump", f"{t + 20} right"]
    return list(parse_script(lines, "jumps").frames(ticks))


def right_only(ticks: int) -> list[InputFrame]:
    return list(parse_script(["0 right"], "right").frames(ticks))


@pytest.mark.parametrize("name", resolver_params())
@pytest.mark.parametrize("path", PARAMS, ids=IDS)
def test_scripted_run_with_every_resolver(path, name):
    level = load(path)
    run_checked(level, name, right_and_jumps(900))


def test_first_level_teaches_moving_and_jumping():
    if not LEVELS:
        pytest.fail("no levels")
    level = load(LEVELS[0])
    name = config().resolver
    walk = run_checked(level, name, right_only(900))
    hop = run_checked(level, name, right_and_jumps(900))
    walked = max(x for x, _y, dead in walk if not dead)
    hopped = max(x for x, _y, dead in hop if not dead)
    assert walked > level.spawn.x, "holding right does not move the player"
    assert hopped > walked, (f"jumping gets no further right ({hopped:.1f} px) than walking "
                             f"({walked:.1f} px) on {LEVELS[0].name}")
