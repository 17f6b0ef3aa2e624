"""Write tests/data/formats/: level 1 ("First Steps") in every other form Tiled saves a map in,
for tests that each form loads (and plays, and draws) as the .tmx does.

    uv run python tools/make_format_maps.py

* ``01_first_steps.tmj``, ``05_features.tmj``: the levels as JSON maps, exported by Tiled itself
  (``tiled --export-map json``); needs Debian's ``tiled`` (QT_QPA_PLATFORM=offscreen is set here);
* ``terrain.tsj``: the terrain tileset as a JSON tileset, exported by Tiled
  (``tiled --export-tileset json``);
* ``tsj_tileset.tmx`` / ``tsj_tileset.tmj``: level 1 using ``terrain.tsj`` (TMX and JSON);
* ``templates.tmx``: level 1 with its spawn, goal and a walker placed from templates
  (``spawn.tx``, ``goal.tj`` as JSON, ``walker.tx`` a tile template), each instance overriding
  something; ``templates_detached.tmx`` is what Tiled makes of it with ``--detach-templates``;
* ``infinite.tmx``: level 1 as an infinite map, its tiles in 16x16 chunks with the map's origin
  32 tiles right of and 16 tiles below its left/top edge (so chunks sit at negative positions),
  CSV and base64-zlib layers mixed;
* ``zstd.tmx``: level 1 with every tile layer base64-zstd compressed;
* ``art.tmx`` (with ``art_tiles.png``, ``art_sky.png``): what a map shows beyond its cells: an
  animated tile, tile objects (flipped, stretched, turned, animated), an image layer repeated
  along x, parallax layers, a tinted translucent group, a tileset's transparent colour, a
  background colour.
"""

from __future__ import annotations

import base64
import json
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
import zlib
from pathlib import Path

import zstandard

ROOT = Path(__file__).resolve().parent.parent
LEVELS = ROOT / "levels"
OUT = ROOT / "tests" / "data" / "formats"
CHUNK = 16
SHIFT = (32, 16)  # tiles: where level 1's top-left lands in the infinite map's coordinates


def tiled(*args: str) -> None:
    exe = shutil.which("tiled")
    if exe is None:
        sys.exit("needs Debian's tiled (apt-get install tiled) for the JSON exports")
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    subprocess.run([exe, *args], check=True, env=env, cwd=OUT, capture_output=True)


def level_one() -> str:
    return (LEVELS / "01_first_steps.tmx").read_text("utf-8")


def layer_cells(text: str) -> list[int]:
    return [int(v) for v in text.replace("\n", "").split(",") if v.strip()]


def with_tsj(text: str) -> str:
    """Level 1's text for a map in tests/data/formats using terrain.tsj there."""
    return rebased(text).replace('source="../../../levels/terrain.tsx"', 'source="terrain.tsj"')


def rebased(text: str) -> str:
    """Level 1's text for a map in tests/data/formats (tileset paths from there)."""
    return text.replace('source="terrain.tsx"', 'source="../../../levels/terrain.tsx"').replace(
        'value="02_every_tile.tmx"', 'value="../../../levels/02_every_tile.tmx"')


def zstd_map(text: str) -> str:
    def pack(m: re.Match) -> str:
        cells = layer_cells(m.group(1))
        raw = b"".join(c.to_bytes(4, "little") for c in cells)
        packed = base64.b64encode(zstandard.ZstdCompressor().compress(raw)).decode()
        return f'<data encoding="base64" compression="zstd">\n   {packed}\n  </data>'
    return re.sub(r'<data encoding="csv">(.*?)</data>', pack, text, flags=re.S)


def infinite_map(text: str) -> str:
    root = ET.fromstring(text)
    cols, rows = int(root.get("width")), int(root.get("height"))
    sx, sy = SHIFT
    root.set("infinite", "1")
    for i, layer in enumerate(root.iter("layer")):
        data = layer.find("data")
        cells = layer_cells(data.text)
        zlib_layer = i % 2 == 1  # every other layer base64-zlib, to read both in chunks
        data.attrib.clear()
        data.set("encoding", "base64" if zlib_layer else "csv")
        if zlib_layer:
            data.set("compression", "zlib")
        data.text = "\n"
        # chunks on Tiled's 16x16 grid, in map coordinates where level 1 starts at (-sx, -sy)
        for cy in range(-sy, rows - sy, CHUNK):
            for cx in range(-sx, cols - sx, CHUNK):
                chunk = [cells[(y + sy) * cols + x + sx]
                         if 0 <= x + sx < cols and 0 <= y + sy < rows else 0
                         for y in range(cy, cy + CHUNK) for x in range(cx, cx + CHUNK)]
                if not any(chunk):
                    continue
                el = ET.SubElement(data, "chunk", x=str(cx), y=str(cy), width=str(CHUNK),
                                   height=str(CHUNK))
                if zlib_layer:
                    raw = b"".join(c.to_bytes(4, "little") for c in chunk)
                    el.text = base64.b64encode(zlib.compress(raw)).decode()
                else:
                    el.text = "\n" + ",\n".join(",".join(map(str, chunk[r:r + CHUNK]))
                                                for r in range(0, len(chunk), CHUNK)) + "\n"
        layer.set("width", str(cols))
        layer.set("height", str(rows))
    tw, th = int(root.get("tilewidth")), int(root.get("tileheight"))
    for obj in root.iter("object"):
        obj.set("x", str(float(obj.get("x")) - sx * tw).removesuffix(".0"))
        obj.set("y", str(float(obj.get("y")) - sy * th).removesuffix(".0"))
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, "unicode") + "\n"


SPAWN_TX = """<?xml version="1.0" encoding="UTF-8"?>
<template>
 <object name="spawn" type="player">
  <point/>
 </object>
</template>
"""
WALKER_TX = """<?xml version="1.0" encoding="UTF-8"?>
<template>
 <tileset firstgid="1" source="../../../levels/terrain.tsx"/>
 <object name="walker" type="walker" gid="%d" width="16" height="16">
  <properties>
   <property name="speed" type="float" value="30"/>
   <property name="direction" value="left"/>
  </properties>
 </object>
</template>
"""
GOAL_TJ = {"type": "template",
           "object": {"name": "goal", "type": "goal", "width": 16, "height": 48, "rotation": 0,
                      "visible": True, "x": 0, "y": 0}}


def templated(text: str) -> str:
    text = rebased(text)
    text = re.sub(r'<object id="1" name="spawn" type="player" x="72" y="224">\s*<point/>\s*'
                  r'</object>', '<object id="1" template="spawn.tx" x="72" y="224"/>', text)
    # the goal: its size overridden (16x32 px, as level 1 has it; the template says 16x48)
    text = text.replace('<object id="2" name="goal" type="goal" x="1200" y="48" width="16" '
                        'height="32"/>',
                        '<object id="2" template="goal.tj" x="1200" y="48" width="16" '
                        'height="32"/>\n'
                        '  <object id="3" template="walker.tx" x="752" y="224">\n'
                        '   <properties>\n'
                        '    <property name="speed" type="float" value="25"/>\n'
                        '   </properties>\n'
                        '  </object>')
    assert text.count("template=") == 3, "level 1 changed: update tools/make_format_maps.py"
    return text.replace('nextobjectid="3"', 'nextobjectid="4"')


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    text = level_one()
    tiled("--export-map", "json", str(LEVELS / "01_first_steps.tmx"), "01_first_steps.tmj")
    tiled("--export-map", "json", str(LEVELS / "05_features.tmx"), "05_features.tmj")
    tiled("--export-tileset", "json", str(LEVELS / "terrain.tsx"), "terrain.tsj")
    (OUT / "tsj_tileset.tmx").write_text(with_tsj(text), "utf-8")
    doc = json.loads((OUT / "01_first_steps.tmj").read_text("utf-8"))
    for ts in doc["tilesets"]:
        ts["source"] = "terrain.tsj"
    (OUT / "tsj_tileset.tmj").write_text(json.dumps(doc, indent=1), "utf-8")
    (OUT / "spawn.tx").write_text(SPAWN_TX, "utf-8")
    (OUT / "walker.tx").write_text(WALKER_TX % 41, "utf-8")
    (OUT / "goal.tj").write_text(json.dumps(GOAL_TJ, indent=1), "utf-8")
    (OUT / "templates.tmx").write_text(templated(text), "utf-8")
    tiled("--detach-templates", "--export-map", "tmx", "templates.tmx", "templates_detached.tmx")
    (OUT / "infinite.tmx").write_text(infinite_map(rebased(text)), "utf-8")
    (OUT / "zstd.tmx").write_text(zstd_map(rebased(text)), "utf-8")
    write_art()
    print(f"wrote {OUT.relative_to(ROOT)}")
    return 0



# --- art.tmx: what a map shows beyond its cells ----------------------------------------------

ART_TILES = "art_tiles.png"  # 4x2 tiles of 16 px on magenta (the tileset's transparent colour)
ART_SKY = "art_sky.png"  # 48x24: an image layer's picture, repeated along x
MAGENTA = (255, 0, 255)


def art_images() -> None:
    import pygame

    sheet = pygame.Surface((64, 32))
    sheet.fill(MAGENTA)
    sheet.fill((120, 80, 40), (0, 0, 16, 16))  # 0: ground
    sheet.fill((60, 160, 60), (0, 0, 16, 4))
    for i, c in enumerate([(230, 60, 60), (60, 90, 230), (240, 200, 40)]):  # 1-3: frames
        pygame.draw.circle(sheet, c, (16 * (i + 1) + 8, 8), 3 + 2 * i)
    pygame.draw.polygon(sheet, (30, 120, 40), [(8, 17), (1, 29), (15, 29)])  # 4: a tree
    sheet.fill((90, 60, 30), (7, 29, 3, 3))
    pygame.draw.line(sheet, (200, 200, 210), (17, 17), (30, 30), 3)  # 5: a diagonal (flips)
    sheet.fill((200, 200, 210), (17, 17, 4, 4))
    sheet.fill((100, 100, 120), (32, 16, 16, 16))  # 6: far hills (for the parallax layer)
    sheet.fill((150, 150, 170), (32, 16, 16, 6))
    pygame.image.save(sheet, str(OUT / ART_TILES))
    sky = pygame.Surface((48, 24))
    sky.fill((150, 200, 240))
    pygame.draw.circle(sky, (255, 255, 255), (14, 12), 7)
    pygame.draw.circle(sky, (255, 255, 255), (24, 10), 8)
    pygame.image.save(sky, str(OUT / ART_SKY))


def art_map() -> str:
    cols, rows = 24, 12
    def csv(cells):
        return "\n" + ",\n".join(",".join(map(str, cells[r * cols:(r + 1) * cols]))
                                 for r in range(rows)) + "\n"
    ground = [0] * (cols * rows)
    for c in range(cols):
        ground[10 * cols + c] = ground[11 * cols + c] = 1
    for c in range(3, 9):
        ground[9 * cols + c] = 2  # animated: tile 1 -> 2 -> 3
    far = [0] * (cols * rows)
    for c in range(0, cols, 2):
        far[8 * cols + c] = 7
    deco = [0] * (cols * rows)
    deco[9 * cols + 14] = 6 | 0x80000000  # flipped diagonal, tinted
    deco[9 * cols + 16] = 6 | 0x20000000
    front = [0] * (cols * rows)
    front[9 * cols + 20] = 5
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<map version="1.8" tiledversion="1.8.2" orientation="orthogonal" renderorder="right-down" width="{cols}" height="{rows}" tilewidth="16" tileheight="16" infinite="0" backgroundcolor="#203040" nextlayerid="9" nextobjectid="8">
 <properties>
  <property name="title" value="Art"/>
 </properties>
 <tileset firstgid="1" name="art" tilewidth="16" tileheight="16" tilecount="8" columns="4">
  <image source="{ART_TILES}" trans="ff00ff" width="64" height="32"/>
  <tile id="0">
   <properties>
    <property name="collision" value="solid"/>
   </properties>
  </tile>
  <tile id="1">
   <animation>
    <frame tileid="1" duration="100"/>
    <frame tileid="2" duration="250"/>
    <frame tileid="3" duration="150"/>
   </animation>
  </tile>
 </tileset>
 <imagelayer id="1" name="sky" repeatx="1" offsetx="0" offsety="8" parallaxx="0.5">
  <image source="{ART_SKY}" width="48" height="24"/>
 </imagelayer>
 <layer id="2" name="far" width="{cols}" height="{rows}" parallaxx="0.5">
  <data encoding="csv">{csv(far)}</data>
 </layer>
 <layer id="3" name="ground" width="{cols}" height="{rows}">
  <data encoding="csv">{csv(ground)}</data>
 </layer>
 <group id="4" name="tinted" tintcolor="#ff8040" opacity="0.8">
  <layer id="5" name="deco" width="{cols}" height="{rows}">
   <data encoding="csv">{csv(deco)}</data>
  </layer>
 </group>
 <objectgroup id="6" name="things">
  <object id="1" name="tree" gid="5" x="160" y="160" width="16" height="16"/>
  <object id="2" name="tree flipped" gid="{5 | 0x80000000}" x="192" y="160" width="16" height="16"/>
  <object id="3" name="big tree" gid="5" x="224" y="160" width="32" height="32"/>
  <object id="4" name="turned" gid="6" x="272" y="128" width="16" height="16" rotation="90"/>
  <object id="5" name="spinner" gid="2" x="300" y="160" width="16" height="16"/>
 </objectgroup>
 <objectgroup id="7" name="start">
  <object id="6" name="spawn" type="player" x="24" y="160">
   <point/>
  </object>
 </objectgroup>
 <layer id="8" name="front" width="{cols}" height="{rows}">
  <data encoding="csv">{csv(front)}</data>
 </layer>
</map>
"""


def write_art() -> None:
    art_images()
    (OUT / "art.tmx").write_text(art_map(), "utf-8")


if __name__ == "__main__":
    sys.exit(main())
