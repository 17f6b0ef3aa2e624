"""What an image file is, read from its own bytes, without pygame and without keeping its pixels.

The level loader runs headless, yet the window will later hand every tileset image to
``pygame.image.load``. So the loader asks :func:`inspect` for the format and size (from the
header alone, so that limits can be checked before anything large is read), and it then walks
the file's structure, so that a picture the window cannot decode is refused at load, naming the
tileset; the file is opened once. The formats are those SDL_image decodes that Tiled users meet:
PNG, GIF, BMP and JPEG, known by their signature, whatever the file is called.

A PNG is checked in full: every chunk's checksum, and its pixel data inflated (a piece at a time,
then dropped) to the length the header promises, row filters included. The others are walked
block by block, up to the end of the first picture.
"""

from __future__ import annotations

import struct
import zlib
from dataclasses import dataclass
from pathlib import Path
from collections.abc import Callable
from typing import BinaryIO

FORMATS = "PNG, GIF, BMP or JPEG"
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_PIECE = 1 << 20  # bytes read or inflated at a time
# Chunks, segments or sub-blocks walked in one file at most: a 64 MB PNG written in 8 KB chunks
# has 8,000, a 64 MB GIF in 255-byte sub-blocks 263,000; a file of millions of empty blocks is
# taken for damaged rather than walked for minutes.
MAX_BLOCKS = 300_000


class BadImage(Exception):
    """The file is not an image the game can read; ``str()`` says what is wrong, ``fix`` what
    to do (both meant to follow the image's name in an error line)."""

    def __init__(self, problem: str, fix: str = "export the picture again") -> None:
        super().__init__(problem)
        self.fix = fix


@dataclass(frozen=True)
class ImageInfo:
    format: str  # "PNG", "GIF", "BMP" or "JPEG"
    width: int
    height: int


def inspect(file: Path, allow: Callable[[ImageInfo], None] = lambda _info: None) -> ImageInfo:
    """Format and size of ``file``, read from its header, then the whole file walked (raises
    :class:`BadImage` if it is cut short or damaged in a way that would stop pygame from loading
    it, and OSError). The file is opened once. ``allow(info)`` is called between the two, so a
    limit on the size can refuse the picture before the rest of it is read."""
    with open(file, "rb") as f:
        info = _header(f)
        allow(info)
        f.seek(0)
        if info.format == "PNG":
            _png_walk(f, info)
        elif info.format == "GIF":
            _gif(f, walk=True)
        elif info.format == "JPEG":
            _jpeg(f, walk=True)
        # a BMP was checked whole with its header: it says where the pixels are and how many
    return info


def _header(f: BinaryIO) -> ImageInfo:
    head = f.read(32)
    if head.startswith(PNG_SIGNATURE):
        return _png_header(head)
    if head[:6] in (b"GIF87a", b"GIF89a"):
        f.seek(0)
        return _gif(f, walk=False)
    if head[:2] == b"BM":
        size = f.seek(0, 2)
        f.seek(0)
        return _bmp(f, size)
    if head[:3] == b"\xff\xd8\xff":
        f.seek(0)
        return _jpeg(f, walk=False)
    raise BadImage(f"is not a {FORMATS} image (the formats the game reads)",
                   "save the picture in one of those formats, or fix the image path in Tiled")


def _damaged(fmt: str) -> BadImage:
    return BadImage(f"is a damaged {fmt} (cut short or corrupted)")


def _too_many_blocks(fmt: str) -> BadImage:
    return BadImage(f"is a {fmt} cut into more than {MAX_BLOCKS:,} blocks, far more than any "
                    "real picture")


def _read(f: BinaryIO, n: int, fmt: str) -> bytes:
    data = f.read(n)
    if len(data) != n:
        raise _damaged(fmt)
    return data


# --- PNG --------------------------------------------------------------------------------------

_PNG_DEPTHS = {0: (1, 2, 4, 8, 16), 2: (8, 16), 3: (1, 2, 4, 8), 4: (8, 16), 6: (8, 16)}
_PNG_CHANNELS = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}
_ADAM7 = ((0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2),
          (0, 1, 1, 2))


def _png_header(head: bytes) -> ImageInfo:
    if len(head) < 29 or head[8:16] != b"\x00\x00\x00\x0dIHDR":
        raise _damaged("PNG")
    width, height, depth, colour, compression, filtering, interlace = struct.unpack(
        ">IIBBBBB", head[16:29])
    if (width == 0 or height == 0 or depth not in _PNG_DEPTHS.get(colour, ())
            or compression or filtering or interlace > 1):
        raise _damaged("PNG")
    return ImageInfo("PNG", width, height)


def _png_rows(head: bytes) -> list[tuple[int, int]]:
    """(bytes per row including its filter byte, rows) of each pass of the pixel data."""
    width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", head[16:29])
    bits = depth * _PNG_CHANNELS[colour]
    passes = _ADAM7 if interlace else ((0, 0, 1, 1),)
    out = []
    for x0, y0, dx, dy in passes:
        w, h = -(-(width - x0) // dx), -(-(height - y0) // dy)
        if w > 0 and h > 0:
            out.append((1 + -(-(w * bits) // 8), h))
    return out


class _Rows:
    """Counts inflated pixel data against the rows it must hold, checking each row's filter."""

    def __init__(self, rows: list[tuple[int, int]]) -> None:
        self.rows = rows
        self.need = sum(size * n for size, n in rows)
        self.seen = 0
        self._pass, self._left_in_pass, self._phase = 0, rows[0][0] * rows[0][1], 0

    def feed(self, data: bytes) -> None:
        i = 0
        while i < len(data) and self._pass < len(self.rows):
            size = self.rows[self._pass][0]
            take = min(self._left_in_pass, len(data) - i)
            first = (-self._phase) % size  # where the next row's filter byte is in this piece
            if max(data[i + first:i + take:size], default=0) > 4:
                raise _damaged("PNG")
            self._phase = (self._phase + take) % size
            self._left_in_pass -= take
            i += take
            if self._left_in_pass == 0:
                self._pass += 1
                self._phase = 0
                if self._pass < len(self.rows):
                    size, n = self.rows[self._pass]
                    self._left_in_pass = size * n
        self.seen += len(data)


def _png_walk(f: BinaryIO, info: ImageInfo) -> None:
    """Every chunk with its checksum up to IEND; the pixel data inflated to its full length."""
    head = _read(f, 33, "PNG")
    rows = _Rows(_png_rows(head))
    inflate = zlib.decompressobj()
    f.seek(8)
    palette = False
    for _ in range(MAX_BLOCKS):
        length, kind = struct.unpack(">I4s", _read(f, 8, "PNG"))
        if length > 0x7FFFFFFF:
            raise _damaged("PNG")
        crc, left = zlib.crc32(kind), length
        while left:
            piece = _read(f, min(left, _PIECE), "PNG")
            crc = zlib.crc32(piece, crc)
            left -= len(piece)
            if kind == b"IDAT" and rows.seen < rows.need:
                _inflate_into(inflate, piece, rows)
        if struct.unpack(">I", _read(f, 4, "PNG"))[0] != crc:
            raise _damaged("PNG")
        if kind == b"PLTE":
            palette = True
        elif kind == b"IDAT" and head[25] == 3 and not palette:
            raise _damaged("PNG")  # a palette picture with no palette before its pixels
        elif kind == b"IEND":
            break
    else:
        raise _too_many_blocks("PNG")
    if rows.seen < rows.need:
        raise _damaged("PNG")  # fewer pixels than the header promises


def _inflate_into(inflate, data: bytes, rows: _Rows) -> None:
    try:
        while data and rows.seen < rows.need:
            out = inflate.decompress(data, _PIECE)
            data = inflate.unconsumed_tail
            rows.feed(out[:rows.need - rows.seen])
            if inflate.eof:
                break
    except zlib.error:
        raise _damaged("PNG") from None


# --- GIF --------------------------------------------------------------------------------------

def _gif(f: BinaryIO, walk: bool) -> ImageInfo:
    """A GIF's size is its first frame's (what SDL_image shows); Tiled shows the whole logical
    screen, so a first frame that does not fill it is refused."""
    head = _read(f, 13, "GIF")
    screen = struct.unpack("<HH", head[6:10])
    if head[10] & 0x80:
        _read(f, 3 << ((head[10] & 7) + 1), "GIF")
    for _ in range(MAX_BLOCKS):
        block = _read(f, 1, "GIF")[0]
        if block == 0x21:  # an extension: its label, then data sub-blocks
            _read(f, 1, "GIF")
            _skip_sub_blocks(f)
        elif block == 0x2C:  # the first picture
            left, top, w, h, packed = struct.unpack("<HHHHB", _read(f, 9, "GIF"))
            break
        else:  # the trailer (0x3B) with no picture before it, or garbage
            raise _damaged("GIF")
    else:
        raise _too_many_blocks("GIF")
    if 0 in screen or (left, top, w, h) != (0, 0, *screen):
        raise BadImage(f"is a GIF whose first frame ({w}x{h} px at {left},{top}) does not fill "
                       f"the picture ({screen[0]}x{screen[1]} px)",
                       "export it again as a single-frame GIF, or as PNG")
    if walk:
        if packed & 0x80:
            _read(f, 3 << ((packed & 7) + 1), "GIF")
        if not 1 <= _read(f, 1, "GIF")[0] <= 11:  # LZW minimum code size
            raise _damaged("GIF")
        _skip_sub_blocks(f)
    return ImageInfo("GIF", w, h)


def _skip_sub_blocks(f: BinaryIO) -> None:
    for _ in range(MAX_BLOCKS):
        size = _read(f, 1, "GIF")[0]
        if not size:
            return
        _read(f, size, "GIF")
    raise _too_many_blocks("GIF")


# --- BMP --------------------------------------------------------------------------------------

_BMP_BITS = (1, 4, 8, 16, 24, 32)
_BMP_COMPRESSION = {0: _BMP_BITS, 1: (8,), 2: (4,), 3: (16, 32)}  # RGB, RLE8, RLE4, bitfields


def _bmp(f: BinaryIO, size: int) -> ImageInfo:
    head = _read(f, 26, "BMP")
    offset, header = struct.unpack("<II", head[10:18])
    if header == 12:  # OS/2 1.x
        w, h, planes, bits = struct.unpack("<HHHH", head[18:26])
        compression = 0
    elif header >= 40:
        w, h, planes, bits, compression = struct.unpack("<iiHHI", head[18:26] + _read(f, 8, "BMP"))
    else:
        raise _damaged("BMP")
    if (w <= 0 or h == 0 or planes != 1
            or bits not in _BMP_COMPRESSION.get(compression, ())):
        raise BadImage(f"is a BMP of a kind the game cannot read ({bits} bits per pixel, "
                       f"compression {compression})" if w > 0 and h and planes == 1
                       else "is a damaged BMP (cut short or corrupted)",
                       "export the picture again, as an uncompressed 24 or 32-bit BMP or as PNG")
    pixels = ((w * bits + 31) // 32) * 4 * abs(h) if compression in (0, 3) else 1
    if offset < 14 + header or offset + pixels > size:
        raise _damaged("BMP")
    return ImageInfo("BMP", w, abs(h))


# --- JPEG -------------------------------------------------------------------------------------

_JPEG_SOF = {0xC0, 0xC1, 0xC2}  # baseline, extended and progressive Huffman: what libjpeg reads
_JPEG_OTHER_SOF = {0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF}


def _jpeg(f: BinaryIO, walk: bool) -> ImageInfo:
    """Segments from SOI to the first scan; with ``walk``, the end-of-image marker after it."""
    _read(f, 2, "JPEG")
    found = None
    for _ in range(MAX_BLOCKS):
        marker = _read(f, 2, "JPEG")
        if marker == b"\xff\xff":  # fill bytes before a marker
            marker = b"\xff" + _after_fill(f)
        if marker[0] != 0xFF:
            raise _damaged("JPEG")
        m = marker[1]
        if m == 0x01 or 0xD0 <= m <= 0xD7:
            continue
        if m == 0xD9:  # the end of the picture before its scan
            raise _damaged("JPEG")
        length = struct.unpack(">H", _read(f, 2, "JPEG"))[0]
        if length < 2:
            raise _damaged("JPEG")
        body = _read(f, length - 2, "JPEG")
        if m in _JPEG_OTHER_SOF:
            raise BadImage("is a JPEG of a kind the game cannot read (lossless, hierarchical or "
                           "arithmetic-coded)", "save it again as a baseline JPEG, or as PNG")
        if m in _JPEG_SOF:
            if len(body) < 6:
                raise _damaged("JPEG")
            precision, h, w, components = struct.unpack(">BHHB", body[:6])
            if precision != 8 or components not in (1, 3, 4):
                raise BadImage(f"is a JPEG of a kind the game cannot read ({precision}-bit, "
                               f"{components} components)",
                               "save it again as an 8-bit baseline JPEG, or as PNG")
            if w == 0 or h == 0:
                raise _damaged("JPEG")
            found = ImageInfo("JPEG", w, h)
            if not walk:
                return found
        if m == 0xDA:  # the first scan: the compressed picture follows
            break
    else:
        raise _too_many_blocks("JPEG")
    if found is None:
        raise _damaged("JPEG")
    tail, rest = b"", f.read(_PIECE)
    while rest:  # the end-of-image marker must come after the scan: else the file was cut short
        tail = tail[-1:] + rest
        if b"\xff\xd9" in tail:
            return found
        rest = f.read(_PIECE)
    raise _damaged("JPEG")


def _after_fill(f: BinaryIO) -> bytes:
    """The first byte after a run of 0xFF fill bytes (the file is left just past it)."""
    while piece := f.read(_PIECE):
        rest = piece.lstrip(b"\xff")
        if rest:
            f.seek(1 - len(rest), 1)
            return rest[:1]
    raise _damaged("JPEG")
