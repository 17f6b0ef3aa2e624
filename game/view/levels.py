"""The levels the window plays one after another, and loading one with its pictures.

A level's successor is its ``next_level`` property, else the next map (``.tmx`` or ``.tmj``) by
name in its folder; after the last one the sequence wraps round to the first. :func:`open_level`
loads a level, its tile images and its renderer, and answers with the error line instead of
raising, so that a level being saved in Tiled, or broken, never stops the game.
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

from game.config import Config
from game.errors import UserError
from game.maps.files import map_files
from game.maps.level import Level
from game.sim.world import World, load_world
from game.view.render import MapRenderer, TileImages
from game.view.title import read_title


def level_sequence(current: Path) -> list[Path]:
    """The level files in ``current``'s folder, by name."""
    return [p for p in map_files(current.resolve().parent) if p.is_file()]


def next_level_path(level: Level) -> tuple[Path, bool]:
    """The level after this one: its ``next_level`` property, else the next file by name.

    Returns the path and whether the sequence wrapped round to the first level.
    """
    if level.next_level:
        return (level.path.parent / level.next_level), False
    seq = level_sequence(level.path)
    here = level.path.resolve()
    if here in seq and seq.index(here) + 1 < len(seq):
        return seq[seq.index(here) + 1], False
    return (seq[0] if seq else level.path), True


def level_name(level: Level) -> str:
    """``Level N: title``, N counting the level files in its folder; just the title for a level
    outside that sequence."""
    seq = level_sequence(level.path)
    here = level.path.resolve()
    return f"Level {seq.index(here) + 1}: {level.title}" if here in seq else level.title


def sequence_title(path: Path) -> str:
    """``Level N: title`` for a level's file, as :func:`level_name` says it once loaded, from
    the title the file's head holds (game.view.title.read_title): the level after this one,
    named before it is loaded."""
    seq = level_sequence(path)
    here = Path(path).resolve()
    title = read_title(here)
    return f"Level {seq.index(here) + 1}: {title}" if here in seq else title


class Opened(NamedTuple):
    """A level ready to play: its world, its tile images, and the renderer that draws it."""

    world: World
    images: TileImages
    renderer: MapRenderer


def open_level(path: Path, cfg: Config, resolver) -> Opened | str:
    """The level at ``path`` with its tile images and its renderer, or the error line saying
    why not: a user error as its own line, anything else as ``error: <file>: could not load
    (...)``. Everything the window needs is made here, so a level that fails is never swapped
    in (a hot reload keeps the level being played)."""
    try:
        world = load_world(path, cfg, resolver)
        images = TileImages(world.level)
        return Opened(world, images, MapRenderer(world.level, images))
    except UserError as exc:
        return exc.line()
    except Exception as exc:  # a half-saved file can break a library in any way
        return UserError(path, f"could not load ({type(exc).__name__}: {exc})").line()
