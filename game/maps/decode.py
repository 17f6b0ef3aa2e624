"""The one decoder of tile data: a tile layer's (or an infinite map's chunk's) cells, from any
form Tiled writes them in, as an array of Tiled's gids (flip bits and all), row by row.

CSV, base64, and base64 packed with zlib, gzip (every member of it, as Tiled reads) or zstd. The
number of cells is known before anything is decoded, and packed data is unpacked no further than
those cells need: a zip bomb stops there. (Layers stored as one ``<tile gid>`` element per cell,
Tiled's oldest format, are read by ``game.maps.document`` into the same arrays.)
"""

from __future__ import annotations

import array
import base64
import binascii
import sys
import zlib
from pathlib import Path

from game.errors import UserError, quoted
from game.maps.limits import MAX_TILE_VARIANTS, shown

# Tiled's gids: the tile's gid in the low 28 bits, its flips in the high ones (the one set of these
# constants: game.maps.model re-exports them).
FLIP_H, FLIP_V, FLIP_D = 0x80000000, 0x40000000, 0x20000000
HEX_120 = 0x10000000  # a 120-degree turn of a tile on a hexagonal map (Tiled ignores it elsewhere)
FLIPS = FLIP_H | FLIP_V | FLIP_D | HEX_120
GID_MASK = 0x0FFFFFFF
# The array type code of 32-bit unsigned numbers: Tiled's gids.
U32 = next(code for code in "IL" if array.array(code).itemsize == 4)
FORMAT_FIX = ("in Tiled set Map > Map Properties > Tile Layer Format to CSV or Base64 (zlib) and "
              "save again")


def cells_array(count: int = 0) -> array.array:
    """An array of ``count`` empty cells (gid 0)."""
    return array.array(U32, bytes(4 * count))


def cells(path: Path, where: str, encoding: str | None, compression: str | None, text: str,
          size: tuple[int, int], origin: tuple[int, int] = (0, 0)
          ) -> tuple[array.array, dict[int, None]]:
    """The ``size`` (columns, rows) cells of ``where`` ("tile layer 'ground'", a chunk of it)
    from its data, and the different gids among them in the order first placed; ``origin`` is its top-left cell in the
    layer, for messages. Anything else is one :class:`UserError` naming ``path`` and what to
    change in Tiled."""
    cols, rows = size
    count = cols * rows
    resize = "in Tiled use Map > Resize Map (or re-save the map)"
    wrong = f"{where} does not hold {cols}x{rows} tiles like the map; {resize}"
    damaged = f"{where} has damaged {compression or encoding} data; {FORMAT_FIX}"
    text = text.strip()
    if encoding == "csv":
        if compression:
            raise UserError(path, f"{where} is CSV with compression {quoted(compression)}, which "
                            f"Tiled never writes; {FORMAT_FIX}")
        if (text.count(",") + 1 if text else 0) != count:  # counted before anything is built
            raise UserError(path, wrong)
        return _csv(path, where, text, cols, origin)
    if encoding != "base64":
        raise UserError(path, f"{where} has encoding {quoted(encoding or '')}, which cannot be "
                        f"read; {FORMAT_FIX}")
    try:
        raw = base64.b64decode(text)
    except (binascii.Error, ValueError):
        raise UserError(path, damaged) from None
    if compression:
        raw = _unpack(path, where, raw, compression, count * 4, damaged)
    if len(raw) > count * 4:
        raise UserError(path, f"{where} does not hold {cols}x{rows} tiles like the map: its data "
                        f"holds more than {count:,}; {resize}")
    if len(raw) != count * 4:
        raise UserError(path, wrong)
    values = array.array(U32, raw)
    if sys.byteorder == "big":  # Tiled writes little-endian
        values.byteswap()
    return values, distinct(path, values)


def _csv(path: Path, where: str, text: str, cols: int,
         origin: tuple[int, int]) -> tuple[array.array, dict[int, None]]:
    """The numbers of CSV text, some thousands at a time, each different text turned into a
    number once, and the different numbers. A number outside Tiled's 32 bits is a tile no
    tileset holds, said where it first appears."""
    out = array.array(U32)
    seen: dict[int, None] = {}
    at = 0
    while at < len(text):
        end = text.find(",", at + 65536)
        end = len(text) if end < 0 else end
        texts = text[at:end].split(",")
        try:
            number = {t: int(t) for t in dict.fromkeys(texts)}  # int() as pytmx reads them
        except ValueError:
            raise UserError(path, f"{where} has CSV values that are not tile numbers; re-save "
                            "the map from Tiled") from None
        bad = next((t for t, v in number.items() if not 0 <= v < 1 << 32), None)
        if bad is not None:
            r, c = divmod(len(out) + texts.index(bad), cols)
            raise UserError(path, f"{where} uses tile gid {shown(bad.strip(), 40)} (at column "
                            f"{origin[0] + c}, row {origin[1] + r}), which no tileset holds; "
                            "remove it or add the tileset")
        out.extend(map(number.__getitem__, texts))
        seen.update(dict.fromkeys(number.values()))
        if len(seen) > MAX_TILE_VARIANTS + 1:  # + 1: gid 0, an empty cell
            raise too_many(path)
        at = end + 1
    return out, seen


def distinct(path: Path, cells: array.array) -> dict[int, None]:
    """The different gids among ``cells`` in the order first placed; more than the map may use
    is one :class:`UserError`, said as soon as a slice of the cells shows it."""
    seen: dict[int, None] = {}
    for at in range(0, len(cells), 65536):
        seen.update(dict.fromkeys(cells[at:at + 65536]))
        if len(seen) > MAX_TILE_VARIANTS + 1:  # + 1: gid 0, an empty cell
            raise too_many(path)
    return seen


def too_many(path: Path) -> UserError:
    return UserError(path, f"the map's tile layers use more than {MAX_TILE_VARIANTS:,} different "
                     "tiles (each flip or rotation of a tile counted apart), far more than any "
                     "real level; use fewer different tiles")


def _unpack(path: Path, where: str, raw: bytes, method: str, limit: int, damaged: str) -> bytes:
    """``raw`` unpacked, but never past ``limit`` + 1 bytes (a zip bomb stops there). gzip reads
    every member, as Tiled does; zlib ignores what follows its stream."""
    if method == "zstd":
        try:
            import zstandard
        except ImportError:  # a dependency of the project; missing only in a broken install
            raise UserError(path, f"{where} is zstd-compressed and the zstandard library is "
                            f"missing (run 'uv sync'); or {FORMAT_FIX}") from None
        try:
            parts, total = [], 0
            with zstandard.ZstdDecompressor().stream_reader(raw) as reader:
                while total <= limit:
                    part = reader.read(limit + 1 - total)
                    if not part:
                        break
                    parts.append(part)
                    total += len(part)
        except zstandard.ZstdError:
            raise UserError(path, damaged) from None
        return b"".join(parts)
    if method not in ("zlib", "gzip"):
        raise UserError(path, f"{where} has compression {quoted(method)}, which cannot be read; "
                        f"{FORMAT_FIX}")
    out: list[bytes] = []
    total = 0
    try:
        while True:
            stream = zlib.decompressobj(31 if method == "gzip" else 15)
            out.append(stream.decompress(raw, limit + 1 - total))
            total += len(out[-1])
            if total > limit:
                break
            if not stream.eof:
                raise UserError(path, damaged)  # cut short
            raw = stream.unused_data.lstrip(b"\0")
            if method == "zlib" or not raw:
                break
    except zlib.error:
        raise UserError(path, damaged) from None
    return b"".join(out)
