"""Maps as Tiled 1.8 to 1.11 write them load the same: `type=` and `class=` both name objects."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from game.maps.level import load_level

DATA = Path(__file__).resolve().parent / "data"

CSV = "\n" + ",\n".join(
    ",".join("1" if r >= 4 else "0" for _ in range(10)) for r in range(6)) + "\n"

# How each Tiled version writes the parts that changed: the map header, and how an object's
# class is spelled (1.9 wrote class=, 1.10 went back to type= for objects; 1.11 adds attributes).
VERSIONS = {
    "1.8": ('version="1.8" tiledversion="1.8.2"', "type", ""),
    "1.9": ('version="1.9" tiledversion="1.9.2"', "class", ' class=""'),
    "1.10": ('version="1.10" tiledversion="1.10.2"', "type", ""),
    "1.11": ('version="1.10" tiledversion="1.11.2"', "type",
             ' parallaxoriginx="0" parallaxoriginy="0"'),
}


def write_map(folder: Path, version: str, spawn_attr: str | None = None) -> Path:
    header, attr, extra = VERSIONS[version]
    attr = spawn_attr or attr
    shutil.copy(DATA / "tiles4.png", folder / "tiles4.png")
    (folder / "t.tsx").write_text(f'''<?xml version="1.0" encoding="UTF-8"?>
<tileset {header} name="t" tilewidth="16" tileheight="16" tilecount="4" columns="4">
 <image source="tiles4.png" width="64" height="16"/>
 <tile id="0"><properties><property name="collision" value="solid"/></properties></tile>
</tileset>
''')
    path = folder / f"v{version}.tmx"
    path.write_text(f'''<?xml version="1.0" encoding="UTF-8"?>
<map {header} orientation="orthogonal" renderorder="right-down" width="10" height="6" tilewidth="16" tileheight="16" infinite="0"{extra} nextlayerid="3" nextobjectid="3">
 <tileset firstgid="1" source="t.tsx"/>
 <layer id="1" name="ground" width="10" height="6">
  <data encoding="csv">{CSV}</data>
 </layer>
 <objectgroup id="2" name="objects">
  <object id="1" name="start" {attr}="player" x="40" y="64"><point/></object>
  <object id="2" name="finish" {attr}="goal" x="120" y="32" width="16" height="32"/>
 </objectgroup>
</map>
''')
    return path


@pytest.mark.parametrize("version", VERSIONS)
def test_maps_of_each_tiled_version_load(version: str, tmp_path: Path):
    level = load_level(write_map(tmp_path, version), (12.0, 14.0))
    assert level.spawn_is_point
    assert (level.spawn.x, level.spawn.y, level.spawn.w, level.spawn.h) == (34.0, 50.0, 12.0, 14.0)
    assert [(g.x, g.y, g.w, g.h) for g in level.goals] == [(120.0, 32.0, 16.0, 32.0)]
    assert level.grid.kind(0, 4) == 1 and level.grid.kind(0, 3) == 0


@pytest.mark.parametrize("attr", ["type", "class"])
def test_class_works_like_type(attr: str, tmp_path: Path):
    level = load_level(write_map(tmp_path, "1.10", spawn_attr=attr))
    assert level.goals and level.spawn.x == 34.0
