"""Hostile Tiled maps through the real command line, and the window's verdict on what loads.

Every map here is something no editor writes: numbers that are not numbers, nesting thousands
deep, a map or a picture whose header claims gigabytes, a zip bomb in a tile layer, a text file
as a tileset image. Each must end like any other mistake in a map: exit code 2 and one line
``error: <file>: <what to change>``, within the test's timeout and with the process held to a
1 GB address space (so a loader that tries to build the gigabytes fails the test instead of
swapping). The hostile files are made here, in ``tmp_path``; the large ones are sparse or
repeat one compressed block, so making them is quick.

The last part builds ``TileImages`` (the window's tile pictures) for maps the loader accepts,
in every image format it accepts: what passes headless also loads in the window.
"""

from __future__ import annotations

import base64
import gzip
import os
import resource
import shutil
import struct
import subprocess
import sys
import zlib
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pygame
import pytest

from game.maps import limits as level_mod
from game.errors import UserError
from game.maps.level import load_level
from game.view.render import TileImages

# The full tier only: each hostile map runs main.py in a process of its own, held to 1 GB.
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent
TILES_PNG = ROOT / "tests" / "data" / "tiles4.png"  # four 16x16 tiles, 64x16 px
MEMORY = 1 << 30  # the address space a hostile map may take, whole interpreter included

SOLID_TILE = ('<tile id="0"><properties><property name="collision" value="solid"/>'
              '</properties></tile>')
SPAWN = '<object id="1" name="spawn" x="40" y="80"><point/></object>'


# ----------------------------------------------------------------------------------------------
# Writing maps and pictures
# ----------------------------------------------------------------------------------------------

def sheet(image: str = "tiles4.png", size: tuple[int, int] = (64, 16), tile: int = 16,
          firstgid: str = "1", tiles: str = SOLID_TILE, count: int | None = None) -> str:
    """A tileset cut from one image; ``count`` (default: what the image holds) is its
    tilecount."""
    cols, rows = size[0] // tile, size[1] // tile
    count = cols * rows if count is None else count
    return (f'<tileset firstgid="{firstgid}" name="t" tilewidth="{tile}" tileheight="{tile}" '
            f'tilecount="{count}" columns="{min(cols, count)}">'
            f'<image source="{image}" width="{size[0]}" height="{size[1]}"/>{tiles}</tileset>')


def csv_layer(cols: int = 10, rows: int = 6, attrs: str = "", floor: bool = True) -> str:
    """A tile layer with its bottom row solid (gid 1), the rest empty (all empty without
    ``floor``)."""
    body = ",\n".join(",".join("1" if floor and r == rows - 1 else "0" for _ in range(cols))
                      for r in range(rows))
    return (f'<layer id="1" name="ground" width="{cols}" height="{rows}"{attrs}>'
            f'<data encoding="csv">\n{body}\n</data></layer>')


def data_layer(data: bytes, compression: str, cols: int = 10, rows: int = 6,
               layer_id: int = 1) -> str:
    return (f'<layer id="{layer_id}" name="ground" width="{cols}" height="{rows}">'
            f'<data encoding="base64" compression="{compression}">'
            f'{base64.b64encode(data).decode()}</data></layer>')


def write_map(folder: Path, *, cols: int = 10, rows: int = 6, tile: tuple[int, int] = (16, 16),
              tilesets: str | None = None, layers: str | None = None, objects: str = SPAWN,
              before: str = "", inside: str = "", name: str = "bad.tmx") -> Path:
    """A .tmx in ``folder`` (tiles4.png beside it): a floor, a spawn point standing on it."""
    if not (folder / "tiles4.png").exists():
        shutil.copy(TILES_PNG, folder / "tiles4.png")
    tilesets = sheet() if tilesets is None else tilesets
    layers = csv_layer(cols, rows) if layers is None else layers
    path = folder / name
    path.write_text(
        f'<?xml version="1.0" encoding="UTF-8"?>\n{before}'
        f'<map version="1.10" orientation="orthogonal" renderorder="right-down" width="{cols}" '
        f'height="{rows}" tilewidth="{tile[0]}" tileheight="{tile[1]}" infinite="0" '
        f'nextlayerid="10" nextobjectid="10">\n{tilesets}\n{layers}\n{inside}\n'
        f'<objectgroup id="9" name="objects">\n{objects}\n</objectgroup>\n</map>\n', "utf-8")
    return path


def chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def png(width: int, height: int, colour: int = 6, depth: int = 8, interlace: int = 0,
        idat: bytes | None = None) -> bytes:
    """A PNG whose pixels are all zero (palette entry 0, black, transparent...)."""
    bits = depth * {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[colour]
    passes = ([(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4),
               (1, 0, 2, 2), (0, 1, 1, 2)] if interlace else [(0, 0, 1, 1)])
    raw = 0
    for x0, y0, dx, dy in passes:
        w, h = -(-(width - x0) // dx), -(-(height - y0) // dy)
        if w > 0 and h > 0:
            raw += (1 + -(-(w * bits) // 8)) * h
    if idat is None:
        idat = zlib.compress(bytes(raw))
    palette = chunk(b"PLTE", b"\x20\x40\x60") if colour == 3 else b""
    return (b"\x89PNG\r\n\x1a\n"
            + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, depth, colour, 0, 0,
                                         interlace))
            + palette + chunk(b"IDAT", idat) + chunk(b"IEND", b""))


def gif(width: int, height: int, screen: tuple[int, int] | None = None) -> bytes:
    """A two-colour GIF, every pixel colour 0, its LZW codes kept 3 bits wide by a clear code
    after every two pixels (an "uncompressed" GIF)."""
    codes = []
    for i in range(width * height):
        if i % 2 == 0:
            codes.append(4)  # clear
        codes.append(0)
    codes.append(5)  # end of information
    bits = sum(code << (3 * i) for i, code in enumerate(codes))
    data = bits.to_bytes(-(-3 * len(codes) // 8), "little")
    blocks = b"".join(bytes([len(data[i:i + 255])]) + data[i:i + 255]
                      for i in range(0, len(data), 255)) + b"\x00"
    sw, sh = screen or (width, height)
    return (b"GIF89a" + struct.pack("<HHBBB", sw, sh, 0x80, 0, 0) + b"\x00\x00\x00\xff\xff\xff"
            + b"\x2c" + struct.pack("<HHHHB", 0, 0, width, height, 0) + b"\x02" + blocks
            + b"\x3b")


def saved_by_pygame(folder: Path, name: str, size: tuple[int, int] = (64, 16)) -> bytes:
    surf = pygame.Surface(size)
    surf.fill((90, 140, 60))
    pygame.image.save(surf, str(folder / name))
    return (folder / name).read_bytes()


def zeros_deflated(n: int, container: str) -> bytes:
    """``n`` zero bytes as a zlib or gzip stream, made from one compressed MiB repeated (a full
    flush makes each copy stand alone): a zip bomb in milliseconds."""
    mib, whole, rest = bytes(1 << 20), n >> 20, n & ((1 << 20) - 1)
    deflate = zlib.compressobj(9, zlib.DEFLATED, -15)
    block = deflate.compress(mib) + deflate.flush(zlib.Z_FULL_FLUSH)
    body = block * whole + deflate.compress(bytes(rest)) + deflate.flush()
    if container == "zlib":
        return b"\x78\xda" + body + struct.pack(">I", (n % 65521) << 16 | 1)  # adler32 of zeros
    crc = zlib.crc32(bytes(rest))
    for _ in range(whole):
        crc = zlib.crc32(mib, crc)
    return b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x02\xff" + body + struct.pack(
        "<II", crc, n & 0xFFFFFFFF)


# ----------------------------------------------------------------------------------------------
# Through the real command line
# ----------------------------------------------------------------------------------------------

def _hold_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


def run_level(path: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    return subprocess.run([sys.executable, "main.py", "--headless", "--ticks", "5", "--level",
                           str(path)], cwd=ROOT, env=env, capture_output=True, text=True,
                          errors="backslashreplace",
                          timeout=60, preexec_fn=_hold_memory)


def refused(path: Path, *words: str, where: Path | None = None) -> str:
    """The CLI must stop on ``path`` with exit 2 and one short error line naming ``where``
    (default: the map) and saying ``words``."""
    proc = run_level(path)
    lines = proc.stderr.splitlines()
    assert proc.returncode == 2, f"exit {proc.returncode}: {proc.stderr[-1500:]}"
    assert len(lines) == 1 and lines[0].startswith("error: "), proc.stderr[-1500:]
    name = (where or path).name
    assert f"/{name}: " in lines[0]
    assert len(lines[0]) < 1000
    message = lines[0].split(f"/{name}: ", 1)[1]  # the folder is named after the test
    for word in words:
        assert word.lower() in message.lower(), f"{word!r} not in {lines[0]!r}"
    return lines[0]


# The maps here the command line plays (exit 0), each written into a folder by its function:
# tests/test_draw_what_loads.py has the window and --render-map draw every one.
PLAYED: dict[str, Callable[[Path], Path]] = {
    "a good map": write_map,
    "a doctype inside a comment": lambda folder: write_map(
        folder, before="<!-- <!DOCTYPE map [ ] > -->\n", inside=(
            '<properties><property name="about"><![CDATA[<!ENTITY x "y">]]></property>'
            '</properties>')),
    "a plain doctype naming Tiled's DTD": lambda folder: write_map(
        folder, before='<!DOCTYPE map SYSTEM "http://mapeditor.org/dtd/1.0/map.dtd">\n'),
}


def test_a_good_map_runs(tmp_path):
    """The maps below differ from this one in one hostile thing each."""
    proc = run_level(PLAYED["a good map"](tmp_path))
    assert proc.returncode == 0, proc.stderr


# --- 1. numbers that are not numbers ---------------------------------------------------------

GOAL = '<object id="2" type="goal" x="{x}" y="48" width="{w}" height="32"/>'


@pytest.mark.parametrize("objects,words", [
    ('<object id="1" name="spawn" x="nan" y="80"><point/></object>', "x='nan'"),
    ('<object id="1" name="spawn" x="40" y="inf"><point/></object>', "y='inf'"),
    ('<object id="1" type="player" x="40" y="60" width="nan" height="14"/>', "width='nan'"),
    (SPAWN + GOAL.format(x="nan", w=16), "x='nan'"),
    (SPAWN + GOAL.format(x="-inf", w=16), "x='-inf'"),
    (SPAWN + GOAL.format(x="1e300", w=16), "x='1e300'"),
    (SPAWN + GOAL.format(x="120", w="1e999"), "width='1e999'"),
], ids=["spawn-x-nan", "spawn-y-inf", "spawn-width-nan", "goal-x-nan", "goal-x-minus-inf",
        "goal-x-1e300", "goal-width-inf"])
def test_object_numbers_must_be_finite_and_in_reach(tmp_path, objects, words):
    refused(write_map(tmp_path, objects=objects), words, "must be a number")


def test_layer_opacity_must_be_a_number_from_0_to_1(tmp_path):
    refused(write_map(tmp_path, layers=csv_layer(attrs=' opacity="nan"')), "opacity='nan'",
            "from 0 to 1")


# --- 2. nesting ------------------------------------------------------------------------------

def test_thousands_of_nested_groups(tmp_path):
    layers = '<group id="2" name="g">' * 3000 + csv_layer() + "</group>" * 3000
    refused(write_map(tmp_path, layers=layers), "group layers are nested more than 32 deep")


def test_deeply_nested_class_properties(tmp_path):
    props = ('<properties><property name="p" type="class" propertytype="c">' * 3000
             + "</property></properties>" * 3000)
    refused(write_map(tmp_path, inside=props), "nested more than 64 deep")


def test_a_million_nested_elements_of_no_known_kind(tmp_path):
    refused(write_map(tmp_path, inside="<x>" * 1_000_000 + "</x>" * 1_000_000),
            "nested more than 64 deep")


@pytest.mark.parametrize("count,words", [(300_000, "300,000 attributes"),
                                         (1_000_000, "more than 500,000 '=' signs")])
def test_an_element_with_countless_attributes(tmp_path, count, words):
    attrs = " ".join(f'a{i}=""' for i in range(count))
    refused(write_map(tmp_path, inside=f"<x {attrs}/>"), words)


def test_too_many_elements(tmp_path):
    refused(write_map(tmp_path, inside="<x/>" * 150_000), "more than 100,000 xml elements")


def test_a_doctype_with_entities_is_refused_before_they_expand(tmp_path):
    entities = '<!ENTITY a "' + "x" * 1000 + '">' + "".join(
        f'<!ENTITY {b} "' + f"&{a};" * 10 + '">' for a, b in zip("abcd", "bcde"))
    props = '<properties><property name="title" value="&e;"/></properties>'
    refused(write_map(tmp_path, before=f"<!DOCTYPE map [{entities}]>\n", inside=props),
            "doctype", "declares entities")


ENTITIES = '<!ENTITY a "xxxxxxxxxx"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">'


@pytest.mark.parametrize("prolog", [
    f"<!DOCTYPE map SYSTEM \"x>y\" [{ENTITIES}]>\n",  # a '>' inside the DTD's name
    f"<!-- <!DOCTYPE map> --><!DOCTYPE map [{ENTITIES}]>\n",  # a decoy in a comment
    '<!DOCTYPE map [<!ATTLIST object name CDATA "injected">]>\n',  # defaults, no entity
    "<!DOCTYPE map [ ]>\n"])
def test_a_doctype_with_declarations_of_its_own_is_refused_however_it_is_written(tmp_path,
                                                                                 prolog):
    refused(write_map(tmp_path, before=prolog, inside='<properties><property name="title" '
                      'value="&amp;"/></properties>'), "doctype", "declares entities")


def test_a_doctype_in_a_utf16_file_is_found_too(tmp_path):
    """The check reads the file as the XML parser does, in whatever encoding it is."""
    path = write_map(tmp_path, before=f"<!DOCTYPE map [{ENTITIES}]>\n",
                     objects='<object id="1" name="&b;" x="40" y="64"><point/></object>')
    text = path.read_text("utf-8").replace('encoding="UTF-8"', 'encoding="UTF-16"')
    path.write_bytes(text.encode("utf-16"))
    refused(path, "doctype", "declares entities")


def test_a_doctype_inside_a_comment_or_entity_text_in_a_value_is_no_declaration(tmp_path):
    proc = run_level(PLAYED["a doctype inside a comment"](tmp_path))
    assert proc.returncode == 0, proc.stderr


def test_a_plain_doctype_naming_tileds_dtd_is_read(tmp_path):
    """Older Tiled could add it, libGDX's map writer still does; the DTD is never fetched."""
    proc = run_level(PLAYED["a plain doctype naming Tiled's DTD"](tmp_path))
    assert proc.returncode == 0, proc.stderr


# --- 3. sizes: the map, its layers, its files ------------------------------------------------

def test_a_20000x20000_map_is_refused_before_its_layer_is_unpacked(tmp_path):
    data = zeros_deflated(20000 * 20000 * 4, "zlib")  # 1.6 GB of tiles in 1.6 MB
    path = write_map(tmp_path, cols=20000, rows=20000,
                     layers=data_layer(data, "zlib", 20000, 20000))
    refused(path, "20000x20000 tiles", "at most 2,000,000 cells")


def test_the_benchmark_size_still_loads(tmp_path):
    """1000x1000 tiles in 2 layers, as tools/bench.py draws it, is inside every limit."""
    empty = zeros_deflated(1000 * 1000 * 4, "zlib")
    floor = [1 if r == 999 else 0 for r in range(1000) for _ in range(1000)]
    ground = zlib.compress(struct.pack(f"<{len(floor)}I", *floor))
    layers = data_layer(empty, "zlib", 1000, 1000) + data_layer(ground, "zlib", 1000, 1000, 2)
    spawn = '<object id="1" name="spawn" x="40" y="15984"><point/></object>'
    level = load_level(write_map(tmp_path, cols=1000, rows=1000, layers=layers, objects=spawn))
    assert (level.grid.cols, level.grid.rows, len(level.view.layers)) == (1000, 1000, 2)


def test_too_many_tile_layers_for_the_map_size(tmp_path):
    empty = zeros_deflated(1000 * 1000 * 4, "zlib")
    layers = "".join(data_layer(empty, "zlib", 1000, 1000, i) for i in range(1, 6))
    refused(write_map(tmp_path, cols=1000, rows=1000, layers=layers), "5 tile layers",
            "at most 4,000,000")


@pytest.mark.parametrize("container", ["zlib", "gzip"])
def test_a_zip_bomb_in_a_tile_layer(tmp_path, container):
    data = zeros_deflated(256 << 20, container)  # 256 MB for a layer of 10x6 tiles (240 bytes)
    refused(write_map(tmp_path, layers=data_layer(data, container)),
            "tile layer 'ground' does not hold 10x6 tiles")


def test_a_zip_bomb_in_the_second_gzip_member(tmp_path):
    first = gzip.compress(bytes(10 * 6 * 4))  # the layer's 60 tiles, then a bomb after them
    refused(write_map(tmp_path, layers=data_layer(first + zeros_deflated(256 << 20, "gzip"),
                                                  "gzip")),
            "tile layer 'ground' does not hold 10x6 tiles")


def test_a_map_file_over_64_mb(tmp_path):
    path = write_map(tmp_path, inside="<!--" + " " * 65_000_000 + "-->")
    refused(path, "larger than 64 mb")


def test_a_tileset_file_over_64_mb(tmp_path):
    tsx = tmp_path / "t.tsx"
    tsx.write_text(sheet().replace(' firstgid="1"', "").replace(
        "</tileset>", "<!--" + " " * 65_000_000 + "--></tileset>"), "utf-8")
    refused(write_map(tmp_path, tilesets='<tileset firstgid="1" source="t.tsx"/>'),
            "larger than 64 mb", where=tsx)


def test_a_huge_tile_size(tmp_path):
    path = write_map(tmp_path, tile=(100_000, 16), tilesets="", layers=csv_layer(floor=False))
    refused(path, "tilewidth='100000'",
            "to 4,096")


def test_a_firstgid_no_tile_layer_can_reach(tmp_path):
    refused(write_map(tmp_path, tilesets=sheet(firstgid=str(10**30))), "firstgid=",
            "at most 268,435,455")


def test_too_many_different_tiles_placed(tmp_path):
    """Each different gid becomes a picture in the window: 70,000 of them is refused before
    pytmx registers them."""
    (tmp_path / "px.png").write_bytes(png(1024, 1120))  # 71,680 tiles of 4x4 px
    gids = list(range(1, 70_001))
    layer = data_layer(zlib.compress(struct.pack("<70000I", *gids)), "zlib", 350, 200)
    spawn = '<object id="1" type="player" x="5" y="5" width="1" height="1"/>'
    path = write_map(tmp_path, cols=350, rows=200, tile=(4, 4), layers=layer, objects=spawn,
                     tilesets=sheet("px.png", (1024, 1120), tile=4, tiles=""))
    refused(path, "more than 65,536 different tiles")


def test_tiles_placed_count_against_the_window_pixels(tmp_path):
    """8 tiles of 1024x1024 px, each placed in all 8 flips: 64 pictures of 1 Mpx to hold."""
    (tmp_path / "big.png").write_bytes(png(8192, 1024, colour=0, depth=1))
    flips = [h | v | d for h in (0, 1 << 31) for v in (0, 1 << 30) for d in (0, 1 << 29)]
    gids = [tile | flip for tile in range(1, 9) for flip in flips]
    layer = data_layer(zlib.compress(struct.pack("<64I", *gids)), "zlib", 8, 8)
    spawn = '<object id="1" type="player" x="5" y="5" width="1" height="1"/>'
    path = write_map(tmp_path, cols=8, rows=8, tile=(1024, 1024), layers=layer, objects=spawn,
                     tilesets=sheet("big.png", (8192, 1024), tile=1024, tiles=""))
    refused(path, "64 different tiles", "past 64 million pixels")


def test_thousands_of_tilesets(tmp_path):
    tilesets = "".join(sheet(firstgid=str(1 + 4 * i)) for i in range(1001))
    refused(write_map(tmp_path, tilesets=tilesets), "1,001 tilesets", "at most 1,000")


def test_thousands_of_layers(tmp_path):
    layers = csv_layer() + '<objectgroup id="2" name="o"/>' * 1000
    refused(write_map(tmp_path, layers=layers), "1,002 layers", "at most 1,000")


def test_a_polygon_with_a_million_points(tmp_path):
    points = " ".join(f"{i % 7},{i % 5}" for i in range(1_000_000))
    objects = SPAWN + f'<object id="3" x="0" y="0"><polygon points="{points}"/></object>'
    refused(write_map(tmp_path, objects=objects), "more than 100,000 polygon and polyline points")


# --- 4. pictures whose header claims gigabytes -----------------------------------------------

def test_a_74_byte_png_claiming_100000x100000_px(tmp_path):
    (tmp_path / "big.png").write_bytes(png(100_000, 100_000, idat=zlib.compress(bytes(9))))
    path = write_map(tmp_path, tilesets=sheet("big.png", (100_000, 100_000), count=4))
    refused(path, "big.png", "100000x100000 px", "at most 16384 px")


def test_a_tileset_cut_into_a_million_tiles(tmp_path):
    (tmp_path / "px.png").write_bytes(png(2048, 2052))  # 262,656 tiles of 4x4 px
    spawn = '<object id="1" type="player" x="1" y="1" width="1" height="1"/>'
    path = write_map(tmp_path, tile=(4, 4), tilesets=sheet("px.png", (2048, 2052), tile=4, count=4),
                     objects=spawn)
    refused(path, "tileset t", "262,144 tiles")


def test_a_1_5_gb_image_file_is_not_read(tmp_path):
    big = tmp_path / "big.png"
    with open(big, "wb") as f:  # a real PNG header, then a sparse 1.5 GB
        f.write(png(64, 16))
        f.truncate(1_500_000_000)
    refused(write_map(tmp_path, tilesets=sheet("big.png")), "big.png", "past 64 mb")


# --- 5. files that are not pictures ----------------------------------------------------------

def test_a_tileset_image_that_is_not_a_picture(tmp_path):
    refused(write_map(tmp_path, tilesets=sheet("/etc/passwd")), "/etc/passwd", "tileset t",
            "not a png, gif, bmp or jpeg image")


def test_an_image_layer_that_is_not_a_picture(tmp_path):
    inside = '<imagelayer id="5" name="sky"><image source="/etc/passwd"/></imagelayer>'
    refused(write_map(tmp_path, inside=inside), "image layer 'sky'", "/etc/passwd",
            "not a png, gif, bmp or jpeg image")


def test_a_collection_tile_that_is_not_a_picture(tmp_path):
    collection = ('<tileset firstgid="5" name="c" tilewidth="16" tileheight="16" tilecount="1" '
                  'columns="0"><tile id="0"><image source="/etc/hostname" width="16" '
                  'height="16"/></tile></tileset>')
    refused(write_map(tmp_path, tilesets=sheet() + collection), "/etc/hostname", "tileset c",
            "not a png, gif, bmp or jpeg image")


@pytest.mark.parametrize("where", ["tileset", "image", "next_level"])
def test_a_path_too_long_for_the_system(tmp_path, where):
    long = "a" * 5000
    path = write_map(tmp_path, **{
        "tileset": {"tilesets": f'<tileset firstgid="1" source="{long}.tsx"/>'},
        "image": {"tilesets": sheet(f"{long}.png")},
        "next_level": {"inside": '<properties><property name="next_level" '
                                 f'value="{long}.tmx"/></properties>'},
    }[where])
    refused(path, "not found" if where != "next_level" else "does not exist", "5,004 characters")


def jpeg_cut_in_its_scan_header(folder: Path) -> bytes:
    data = saved_by_pygame(folder, "full.jpg")
    return data[:data.index(b"\xff\xda") + 6]


def bmp_cut_short(folder: Path) -> bytes:
    return saved_by_pygame(folder, "full.bmp")[:-40]


def png_with_too_little_pixel_data(folder: Path) -> bytes:
    return png(64, 16, idat=zlib.compress(bytes(100)))  # checksums fine, rows missing


DAMAGED = {  # pictures with a valid signature that pygame cannot load either
    "png-short-pixel-data": (png_with_too_little_pixel_data, "damaged png"),
    "png-bad-row-filter": (lambda _: png(64, 16, idat=zlib.compress(b"\x07" * 4112)),
                           "damaged png"),
    "png-palette-without-palette": (
        lambda _: png(64, 16, colour=3).replace(chunk(b"PLTE", b"\x20\x40\x60"), b""),
        "damaged png"),
    "gif-without-a-picture": (lambda _: gif(64, 16)[:19] + b"\x3b", "damaged gif"),
    "bmp-cut-short": (bmp_cut_short, "damaged bmp"),
    "jpeg-cut-in-its-scan-header": (jpeg_cut_in_its_scan_header, "damaged jpeg"),
}


@pytest.mark.parametrize("case", DAMAGED)
def test_a_damaged_picture_is_refused_as_pygame_would(tmp_path, case):
    make, words = DAMAGED[case]
    bad = tmp_path / "sheet.img"
    bad.write_bytes(make(tmp_path))
    with pytest.raises(pygame.error):  # the window could not load it: so the loader says so
        pygame.image.load(str(bad))
    refused(write_map(tmp_path, tilesets=sheet("sheet.img")), "sheet.img", words)


def png_of_empty_chunks(_) -> bytes:
    whole = png(64, 16)
    return whole[:33] + chunk(b"tEXt", b"") * 400_000 + whole[33:]


def gif_of_tiny_sub_blocks(_) -> bytes:
    whole = gif(64, 16)
    return whole[:19] + b"\x21\xfe" + b"\x01a" * 400_000 + b"\x00" + whole[19:]


def jpeg_of_empty_segments(folder: Path) -> bytes:
    whole = saved_by_pygame(folder, "full.jpg")
    return whole[:2] + b"\xff\xe1\x00\x02" * 400_000 + whole[2:]


@pytest.mark.parametrize("make", [png_of_empty_chunks, gif_of_tiny_sub_blocks,
                                  jpeg_of_empty_segments], ids=["png", "gif", "jpeg"])
def test_a_picture_of_countless_tiny_blocks_is_not_walked_for_minutes(tmp_path, make):
    (tmp_path / "sheet.img").write_bytes(make(tmp_path))
    refused(write_map(tmp_path, tilesets=sheet("sheet.img")), "sheet.img",
            "more than 300,000 blocks")


# ----------------------------------------------------------------------------------------------
# What the loader accepts, the window draws
# ----------------------------------------------------------------------------------------------

ACCEPTED = {
    "png-rgba": lambda _: png(64, 16),
    "png-grey-1-bit": lambda _: png(64, 16, colour=0, depth=1),
    "png-palette-4-bit": lambda _: png(64, 16, colour=3, depth=4),
    "png-grey-alpha-16-bit": lambda _: png(64, 16, colour=4, depth=16),
    "png-rgb-interlaced": lambda _: png(64, 16, colour=2, interlace=1),
    "png-rgba-16-bit-interlaced": lambda _: png(67, 19, depth=16, interlace=1),
    "gif": lambda _: gif(64, 16),
    "bmp": lambda folder: saved_by_pygame(folder, "x.bmp"),
    "jpeg": lambda folder: saved_by_pygame(folder, "x.jpg"),
}


@pytest.mark.parametrize("case", ACCEPTED)
def test_every_picture_the_loader_accepts_the_window_loads(tmp_path, case):
    (tmp_path / "sheet.img").write_bytes(ACCEPTED[case](tmp_path))
    level = load_level(write_map(tmp_path, tilesets=sheet("sheet.img")))
    images = TileImages(level, convert=False)
    assert images.images and all(s.get_size() == (16, 16) for s in images.images.values())


def test_the_loader_checks_the_file_the_window_opens_through_a_symlink(tmp_path):
    """The window opens tileset images by a normalised path (``lnk/../x`` is ``x``); the
    system would follow ``lnk`` first. The loader judges the file the window opens."""
    sets = tmp_path / "real" / "sets"
    sets.mkdir(parents=True)
    (tmp_path / "real" / "img.png").write_bytes(png(64, 16))  # what the system finds
    (tmp_path / "img.png").write_text("not a picture", "utf-8")  # what the window opens
    (sets / "t.tsx").write_text(sheet("../img.png").replace(' firstgid="1"', ""), "utf-8")
    (tmp_path / "lnk").symlink_to(sets, target_is_directory=True)
    path = write_map(tmp_path, tilesets='<tileset firstgid="1" source="lnk/t.tsx"/>')
    with pytest.raises(UserError, match="not a PNG, GIF, BMP or JPEG"):
        load_level(path)


def test_a_gif_whose_first_frame_is_not_the_whole_picture(tmp_path):
    (tmp_path / "sheet.gif").write_bytes(gif(64, 16, screen=(128, 16)))
    with pytest.raises(UserError, match="first frame"):
        load_level(write_map(tmp_path, tilesets=sheet("sheet.gif")))


def test_a_goal_far_larger_than_the_screen_is_drawn_in_the_window(tmp_path):
    """A goal may be as large as the map's reach (10^6 px a side): the window draws the part on
    screen instead of making a surface of 10^12 px (which fails: "Out of memory")."""
    from game import config
    from game.view.app import App

    goal = '<object id="2" type="goal" x="0" y="0" width="1000000" height="1000000"/>'
    path = write_map(tmp_path, objects=SPAWN + goal)
    cfg = config.load(ROOT / "config.toml")
    cfg = replace(cfg, display=replace(cfg.display, width=320, height=180, vsync=False))
    assert App(cfg, path, max_frames=2).run() == 0
    pygame.init()


def test_every_limit_is_a_named_constant_listed_in_the_guide():
    guide = (ROOT / "docs" / "levels.md").read_text("utf-8")
    names = [n for n in vars(level_mod) if n.startswith("MAX_")]
    assert len(names) >= 10
    for name in names:
        assert f"`{name}`" in guide, f"{name} is missing from docs/levels.md's Limits table"


def test_tiles_smaller_than_the_least_tile_side(tmp_path):
    """1 px tiles under a big body at top speed make each tick thousands of sub-steps wide."""
    path = write_map(tmp_path, tile=(1, 16), tilesets="", layers=csv_layer(floor=False))
    refused(path, "tilewidth='1'", f"from {level_mod.MIN_TILE_PX} to")


def test_a_spawn_rectangle_larger_than_any_player_hitbox(tmp_path):
    big = level_mod.MAX_BODY_PX + 1
    spawn = f'<object id="1" name="spawn" x="0" y="0" width="{big}" height="8"/>'
    path = write_map(tmp_path, cols=40, rows=20, objects=spawn,
                     layers=csv_layer(40, 20))
    refused(path, f"is {big}x8 px", f"at most {level_mod.MAX_BODY_PX}x{level_mod.MAX_BODY_PX}")


def test_the_spawn_limit_is_the_player_configs():
    from dataclasses import fields

    from game.config import PlayerConfig

    assert {f.metadata["hi"] for f in fields(PlayerConfig)} == {level_mod.MAX_BODY_PX}
