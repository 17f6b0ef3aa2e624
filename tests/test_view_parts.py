"""The window's parts on their own, without a real window (SDL's dummy driver, no set_mode): the
frame loop, banners, hot reload, the level sequence, what follows the run, the HUD, the debug
view, the scene, and the play scene driven by actions."""

from __future__ import annotations

import os
import time
from dataclasses import replace
from pathlib import Path

import pygame
import pytest

from game import config, resolvers
from game.errors import UserError
from game.maps.level import load_level
from game.sim.inputs import Held, InputScript, InputSequencer
from game.sim.world import load_world
from game.view import banners
from game.view.debug import (HITBOX_STANDING, LEGEND, NUMBERS, debug_lines, debug_rows,
                             draw_legend, draw_marks, swatch)
from game.view.followers import Followers
from game.view.hot_reload import Watcher, stamp
from game.view.hud import ERROR_BAR, HELP, NOTE_BAR, PAUSED_KEYS, HudInfo, draw_hud
from game.view.keymap import KEY_ACTIONS, PAD_ACTIONS
from game.view.levels import level_name, open_level
from game.view.loop import FixedStep, clamp_frame, run_frames
from game.view.pad import Gamepads
from game.view.painter import TextPainter
from game.view.play import PlayScene, RunOptions, Shared
from game.view.render import MapRenderer, TileImages
from game.view.surfaces import Recent
from game.view.sound import Sounds
from game.view.sprites import Background
from game.view.window import map_scale, view_size
from game.view.world_view import WorldPainter, drawn_position, follow

ROOT = Path(__file__).resolve().parent.parent
FIRST = ROOT / "levels" / "01_first_steps.tmx"
EVERY = ROOT / "levels" / "02_every_tile.tmx"
DT = 1 / 60


@pytest.fixture(scope="module")
def cfg():
    c = config.load(ROOT / "config.toml")
    return replace(c, display=replace(c.display, hot_reload=False, debug=False))


@pytest.fixture(autouse=True)
def no_window():
    """SDL's video (the keyboard's state needs it) and fonts, but no window opened."""
    pygame.display.init()
    pygame.font.init()
    yield
    assert pygame.display.get_surface() is None


def world_on(cfg, path: Path = FIRST, resolver: str = "axis"):
    return load_world(path, cfg, resolvers.create(resolver, cfg.resolver_options(resolver)))


# ----------------------------------------------------------------------------------------------
# The frame loop
# ----------------------------------------------------------------------------------------------

def test_a_long_frame_is_clamped():
    assert clamp_frame(3.0, 0.25) == 0.25 and clamp_frame(0.01, 0.25) == 0.01


def test_the_fixed_step_runs_whole_ticks_and_keeps_the_rest_for_alpha():
    step, ticks = FixedStep(max_ticks=5), []
    assert step.advance(2.5 * DT, DT, lambda: ticks.append(1), lambda: True) == 2
    assert len(ticks) == 2 and step.alpha(DT) == pytest.approx(0.5)
    assert step.advance(0.6 * DT, DT, lambda: ticks.append(1), lambda: True) == 1
    assert step.alpha(DT) == pytest.approx(0.1)
    step.reset()
    assert step.alpha(DT) == 0.0


def test_past_the_cap_the_backlog_is_dropped_not_spiralled():
    step = FixedStep(max_ticks=3)
    assert step.advance(10 * DT, DT, lambda: None, lambda: True) == 3
    assert step.acc <= DT and step.alpha(DT) <= 1.0
    assert step.advance(0.0, DT, lambda: None, lambda: True) == 1  # one tick's worth left


def test_the_fixed_step_stops_when_told():
    step, ticks = FixedStep(max_ticks=10), []
    step.advance(5 * DT, DT, lambda: ticks.append(1), lambda: len(ticks) < 2)
    assert len(ticks) == 2 and step.acc == pytest.approx(3 * DT)


def test_run_frames_stops_after_max_frames_or_when_running_ends():
    seen = []
    assert run_frames(seen.append, lambda: True, max_frames=4, frame_time=0.01) == 4
    assert seen == [0.01] * 4
    seen.clear()
    assert run_frames(seen.append, lambda: len(seen) < 2, frame_time=0.02) == 2
    assert run_frames(seen.append, lambda: False) == 0


# ----------------------------------------------------------------------------------------------
# Banners
# ----------------------------------------------------------------------------------------------

def test_banners_say_what_happened_and_stay_their_time():
    title = banners.level_title("Level 2: Every Tile", 5.0)
    assert title.showing(5.0) and not title.showing(title.until)
    assert banners.level_title("Level 2: Every Tile", 5.0).until == 5.0 + banners.TITLE_TIME
    assert banners.reloaded(0.0).text == "Reloaded"
    assert banners.recorded("r.txt", 0.0).text == "Recorded to r.txt"
    assert banners.volume(0.7, True, 0.0).text == "Volume 70%"
    assert banners.volume(0.7, False, 0.0).text == banners.NO_DEVICE
    assert banners.muted(True, True, 0.0).text == "Sound off"
    assert banners.muted(False, True, 0.0).text == "Sound on"
    assert banners.muted(True, False, 0.0).text == banners.NO_DEVICE


# ----------------------------------------------------------------------------------------------
# Hot reload
# ----------------------------------------------------------------------------------------------

def test_a_changed_level_file_counts_once(tmp_path):
    path = tmp_path / "one.tmx"
    path.write_bytes(FIRST.read_bytes())
    for tsx in FIRST.parent.glob("*.tsx"):
        (tmp_path / tsx.name).write_bytes(tsx.read_bytes())
    level = replace(load_level(FIRST), path=path, files=[path])
    watcher = Watcher()
    watcher.watch(level)
    assert not watcher.changed(level)
    later = path.stat().st_mtime_ns + 5_000_000_000
    os.utime(path, ns=(later, later))
    assert watcher.changed(level) and not watcher.changed(level)
    path.unlink()
    assert stamp(level) == (None,)
    assert watcher.changed(level)  # gone is a change too (the reload then says why)


def test_the_watcher_looks_once_a_period():
    watcher = Watcher(period=0.5)
    assert watcher.due(10.0)
    assert not watcher.due(10.2) and not watcher.due(10.49)
    assert watcher.due(10.5)


# ----------------------------------------------------------------------------------------------
# Levels
# ----------------------------------------------------------------------------------------------

def test_open_level_answers_with_the_level_or_the_error_line(cfg, tmp_path):
    got = open_level(FIRST, cfg, resolvers.create("axis"))
    world, images, renderer = got
    assert world.level.path == FIRST and images.images and renderer.level is world.level
    assert level_name(world.level) == "Level 1: First Steps"
    broken = tmp_path / "broken.tmx"
    broken.write_text("<map>")
    line = open_level(broken, cfg, resolvers.create("axis"))
    assert isinstance(line, str) and line.startswith("error: ") and "broken.tmx" in line


# ----------------------------------------------------------------------------------------------
# What follows the run: ghosts, recording, trace
# ----------------------------------------------------------------------------------------------

def test_ghosts_follow_the_player_and_hide_the_players_resolver(cfg):
    world = world_on(cfg)
    f = Followers(cfg)
    f.start(world)
    assert f.comparison is None and f.shown(world) == []
    f.toggle_ghosts(world)
    names = [g.resolver.name for g in f.shown(world)]
    assert "axis" not in names and len(names) == len(resolvers.names()) - 1
    seq = InputSequencer()
    for _ in range(30):
        frame = seq.frame(Held(right=True))
        f.advance(world, frame)  # every world once, the player's among them
        f.step(world, Held(right=True), frame)
    assert world.tick == 30 and all(g.tick == world.tick for g in f.comparison.worlds)
    assert world in f.comparison.worlds
    f.toggle_ghosts(world)
    assert f.comparison is None


def test_the_trace_takes_a_record_per_world_and_tick(cfg):
    world = world_on(cfg)
    f = Followers(cfg, ghosts=True, trace=True)
    f.start(world)
    frame = InputSequencer().frame(Held())
    f.advance(world, frame)
    f.step(world, Held(), frame)
    assert len(f.trace_records) == len(resolvers.names())
    assert Followers(cfg).trace_records is None


def test_a_recording_that_cannot_be_written_comes_back_as_its_error(cfg, tmp_path):
    from game.runs.record import Recorder

    assert Followers(cfg).finish_recording() is None
    out = tmp_path / "rec.txt"
    f = Followers(cfg, record=Recorder.check(str(out), []))
    world = world_on(cfg)
    f.start(world)
    f.step(world, Held(right=True), InputSequencer().frame(Held(right=True)))
    assert f.finish_recording() == out and out.exists()
    f.start(world)
    f.step(world, Held(), InputSequencer().frame(Held()))
    (tmp_path / "rec-2.txt").mkdir()  # where the second recording would go
    got = f.finish_recording()
    assert isinstance(got, UserError) and "rec-2.txt" in got.line()


# ----------------------------------------------------------------------------------------------
# The HUD, the debug view and the scene, drawn on plain surfaces
# ----------------------------------------------------------------------------------------------

def hud_on(size, info: HudInfo) -> tuple[TextPainter, pygame.Surface]:
    surface = pygame.Surface(size)
    surface.fill((90, 160, 230))
    painter = TextPainter(Recent())
    draw_hud(painter, surface, info)
    return painter, surface


def test_the_hud_is_one_quiet_line_in_each_top_corner(cfg):
    world = world_on(cfg)
    painter, surface = hud_on((1280, 720), HudInfo(world=world, scale=3))
    where = {t: r for t, r in painter.drawn}
    assert set(where) == {"First Steps", "axis", "H help"}
    assert where["First Steps"].left < 40 and where["H help"].right > 1240
    assert max(r.bottom for r in where.values()) < 720 // 12  # one small line at the top
    box = surface.get_rect()
    assert all(box.contains(r) for _, r in painter.drawn) and painter.panels
    # a level with coins and checkpoints says how far the player got, on the same line
    level5 = world_on(cfg, Path(__file__).resolve().parent.parent / "levels" / "05_features.tmx")
    painter, _ = hud_on((1280, 720), HudInfo(world=level5, scale=3))
    where = {t: r for t, r in painter.drawn}
    assert where["coins 0/16   checkpoint start"].top == where["Living Level"].top


def test_in_a_narrow_window_the_top_corners_stack_instead_of_overlapping(cfg):
    level5 = world_on(cfg, Path(__file__).resolve().parent.parent / "levels" / "05_features.tmx")
    for size in ((700, 1000), (1280, 720), (320, 180)):
        painter, _ = hud_on(size, HudInfo(world=level5, scale=4))
        corners = [r for r in painter.panels]
        assert len(corners) == 2 and not corners[0].colliderect(corners[1]), size


@pytest.mark.parametrize("at", [(10, 5), (600, 0), (1200, 8), (640, 360), (0, 690)])
def test_the_hud_never_covers_the_player(cfg, at):
    """Wherever the player is on screen, no HUD text or panel is drawn over them: a corner they
    are under moves to the bottom."""
    world = world_on(cfg)
    player = pygame.Rect(at, (48, 54))
    painter, _ = hud_on((1280, 720), HudInfo(world=world, scale=3, player=player))
    covering = [t for t, r in painter.drawn if r.colliderect(player)]
    assert covering == [] and not any(r.colliderect(player) for r in painter.panels)
    assert {"First Steps", "axis", "H help"} <= {t for t, _ in painter.drawn}


def test_the_help_and_the_debug_view_say_what_the_resolver_does(cfg):
    world = world_on(cfg)
    summary = resolvers.describe("axis")["summary"]
    for info in (HudInfo(world=world, scale=1, show_help=True),
                 HudInfo(world=world, scale=1, debug_rows=[("x", (1, 2, 3))])):
        painter, _ = hud_on((1280, 720), info)
        text = " ".join(t for t, _ in painter.drawn)
        assert "axis: " + summary.split()[0] in text


def test_the_hud_stacks_error_help_and_clock_from_the_bottom_up(cfg):
    world = world_on(cfg)
    info = HudInfo(world=world, scale=1, error="error: x.tmx: broken", show_help=True,
                   paused=True, speed=1, demo=True, banner=banners.reloaded(0.0))
    painter, surface = hud_on((800, 450), info)
    where = {t: r for t, r in painter.drawn}
    assert tuple(surface.get_at((1, 449)))[:3] == ERROR_BAR
    help_top = min(r.top for t, r in painter.drawn if t.split("   ")[0] in HELP)
    assert where["error: x.tmx: broken"].top > help_top > where[f"Paused at tick {world.tick}"].top
    assert "slow motion 1/2  (T: slower)" in where
    assert "demo: playing the input script (a key takes over)" in where
    assert "Reloaded" in where


def test_a_banner_reads_over_the_level_art_not_through_it(cfg):
    """A banner's panel is nearly opaque: over bright, busy art the space around its text is
    dark, where the quiet corners' panels let the scene show through."""
    world = world_on(cfg)
    info = HudInfo(world=world, scale=3, banner=banners.level_title("Level 2: Every Tile", 0.0))
    surface = pygame.Surface((1280, 720))
    surface.fill((250, 250, 120))
    painter = TextPainter(Recent())
    draw_hud(painter, surface, info)
    text = dict(painter.drawn)["Level 2: Every Tile"]
    panel = next(r for r in painter.panels if r.contains(text))
    inside = surface.get_at((panel.left + 3, panel.centery))
    assert max(inside[:3]) < 40, inside
    corner = next(r for r in painter.panels if r.top < 40)
    assert max(surface.get_at((corner.left + 2, corner.centery))[:3]) > 80


def test_the_hud_names_the_ghosts_at_their_heads(cfg):
    world = world_on(cfg)
    labels = [("sweep", (100, 80), (1, 2, 3)), ("corners", (150, 80), (4, 5, 6)),
              ("pixel", (151, 95), (7, 8, 9))]
    painter, _ = hud_on((640, 360), HudInfo(world=world, scale=2, ghost_labels=labels))
    where = {t: r for t, r in painter.drawn}
    assert abs(where["sweep"].centerx - 200) <= 1  # (the shadow widens the area by 2 px)
    assert where["sweep"].bottom <= 160 and where["pixel"].bottom <= 190
    assert abs(where["corners"].centerx - 300) <= 1


def test_ghosts_at_one_spot_share_one_row_of_names_not_a_tower(cfg):
    world = world_on(cfg)
    names = [n for n in resolvers.names() if n != "axis"]
    labels = [(n, (200, 150 + (i % 2)), resolvers.colour(n)) for i, n in enumerate(names)]
    painter, _ = hud_on((1280, 720), HudInfo(world=world, scale=3, ghost_labels=labels))
    where = {t: r for t, r in painter.drawn if t in names}
    assert set(where) == set(names)
    assert len({r.bottom for r in where.values()}) == 1  # one row
    lefts = [where[n].left for n in names]
    assert lefts == sorted(lefts)  # side by side, in order
    row = where[names[0]].unionall([where[n] for n in names[1:]])
    assert abs(row.centerx - 600) <= 2 and row.bottom <= 450


def test_a_row_of_ghost_names_near_the_maps_edge_stays_in_the_window(cfg):
    """At the start of a level the player stands by the map's left edge: the row of six names
    centred over them would begin off the window, hiding the first names."""
    world = world_on(cfg)
    names = [n for n in resolvers.names() if n != "axis"]
    for spot, size in (((6, 150), (1280, 720)), ((420, 150), (1280, 720)), ((6, 10), (800, 450))):
        labels = [(n, spot, resolvers.colour(n)) for n in names]
        painter, _ = hud_on(size, HudInfo(world=world, scale=3, ghost_labels=labels))
        where = {t: r for t, r in painter.drawn if t in names}
        assert set(where) == set(names)
        assert all(0 <= r.left and r.right <= size[0] for r in where.values()), (spot, where)


def test_the_debug_rows_and_legend(cfg):
    world = world_on(cfg)
    f = Followers(cfg, ghosts=True)
    f.start(world)
    rows = debug_rows(world, f.shown(world), f.comparison)
    assert [t for t, _ in rows[:5]] == debug_lines(world)
    assert rows[5][0].startswith("push-out: ")
    assert rows[6][0] == resolvers.moved_by(world.resolver)
    assert type(world.resolver).__name__ in rows[6][0]
    # Ghosts still with the player: one short row names them all.
    assert rows[7:] == [("with the player: " + " ".join(g.resolver.name for g in f.shown(world)),
                         NUMBERS)]
    # One that parted has a row of its own, in its colour, saying where and when.
    ghost = f.shown(world)[0]
    ghost.player.x += 40
    f.comparison.track_parting(world)
    rows = debug_rows(world, f.shown(world), f.comparison)
    own = [(t, c) for t, c in rows if t.startswith(ghost.resolver.name + ": ")]
    assert len(own) == 1 and "parted at tick" in own[0][0]
    assert own[0][1] == resolvers.colour(ghost.resolver.name)
    assert ghost.resolver.name not in rows[-1][0]
    painter, _ = hud_on((640, 360), HudInfo(world=world, scale=1, debug_rows=rows))
    texts = [t for t, _ in painter.drawn]
    assert set(LEGEND) <= set(texts) and rows[0][0] in texts
    for i in range(len(LEGEND)):
        assert swatch(i, 12, 3).get_size() == (12, 12)
    legend = draw_legend(painter, 10, 10, 4, 2)
    assert legend.height == len(LEGEND) * painter.small.get_linesize() + 8


def test_the_debug_key_never_hides_under_the_paused_clock(cfg):
    """Under the numbers where it fits above the clock's panel (and the help's), else beside
    them: in windows from tiny to tall, with and without ghosts' rows and the help."""
    world = world_on(cfg)
    f = Followers(cfg, ghosts=True)
    f.start(world)
    for rows in (debug_rows(world, [], None), debug_rows(world, f.shown(world), f.comparison)):
        for help_shown in (False, True):
            for size in ((w, h) for w in (640, 800, 1280) for h in range(240, 721, 20)):
                painter, _ = hud_on(size, HudInfo(world=world, scale=1, debug_rows=rows,
                                                  paused=True, show_help=help_shown))
                _key_clear_of_clock(painter)


def test_the_debug_panels_move_right_when_they_would_cover_the_player(cfg):
    world = world_on(cfg)
    rows = debug_rows(world, [], None)
    for player, on_left in ((pygame.Rect(60, 150, 24, 28), False),
                            (pygame.Rect(700, 400, 24, 28), True), (None, True)):
        painter, _ = hud_on((1280, 720), HudInfo(world=world, scale=3, debug_rows=rows,
                                                  player=player))
        placed = [r for t, r in painter.drawn if t in LEGEND or t in [t for t, _ in rows]]
        assert len(placed) == len(LEGEND) + len(rows)
        assert all((r.right < 640) == on_left for r in placed), player
        if player is not None:
            assert not any(r.colliderect(player) for r in placed)


def test_the_debug_panels_keep_clear_of_the_ghosts_where_they_can(cfg):
    world = world_on(cfg)
    rows = debug_rows(world, [], None)
    # Two ghosts up at the left: the panels go right; with one more at the right, they stay.
    left = [("sweep", (20, 40), (1, 2, 3)), ("pixel", (40, 60), (1, 2, 3))]
    for labels, on_left in ((left, False), (left[:1], False),
                            (left + [("swept", (400, 40), (1, 2, 3)),
                                     ("overlap", (380, 30), (1, 2, 3)),
                                     ("corners", (390, 60), (1, 2, 3))], True)):
        painter, _ = hud_on((1280, 720), HudInfo(world=world, scale=3, debug_rows=rows,
                                                  ghost_labels=labels))
        placed = [r for t, r in painter.drawn if t in LEGEND or t in [t for t, _ in rows]]
        assert all((r.right < 640) == on_left for r in placed), labels


@pytest.mark.parametrize("size", [(1280, 720), (800, 450), (640, 360)])
def test_the_pause_panel_never_covers_the_players_feet(cfg, size):
    """On a floor at the window's bottom the clock's panel goes up under the top line."""
    world = world_on(cfg)
    w, h = size
    for player in (pygame.Rect(w // 2 - 20, h - 60, 36, 42), pygame.Rect(w // 2, h // 2, 36, 42)):
        painter, _ = hud_on(size, HudInfo(world=world, scale=3, player=player, paused=True,
                                           speed=1, debug_rows=debug_rows(world, [], None)))
        clock = [r for t, r in painter.drawn if t.startswith("Paused at tick")]
        assert clock and not clock[0].colliderect(player)
        assert not any(r.colliderect(player) for r in painter.panels)
        texts = [r for t, r in painter.drawn if t in LEGEND or t.startswith("x ")]
        assert not any(r.colliderect(clock[0]) for r in texts)  # the debug text makes room


@pytest.mark.parametrize("size", [(1200, 1000), (640, 360), (320, 180), (1920, 1080)])
def test_the_pause_panel_fits_the_window(cfg, size):
    """Its keys wrap onto more lines where the window is narrow for its font."""
    world = world_on(cfg)
    painter, surface = hud_on(size, HudInfo(world=world, scale=1, paused=True, speed=2,
                                             demo=True))
    box = surface.get_rect()
    assert all(box.contains(r) for _, r in painter.drawn), [
        (t, r) for t, r in painter.drawn if not box.contains(r)]
    keys = " ".join(t for t, _ in painter.drawn)
    assert all(part in keys for part in PAUSED_KEYS.split("   "))


def _key_clear_of_clock(painter) -> None:
    clock = [r for t, r in painter.drawn if t.startswith("Paused at tick") or t in PAUSED_KEYS]
    key = [r for t, r in painter.drawn if t in LEGEND]
    assert len(clock) >= 2 and len(key) == len(LEGEND)  # the keys wrap in a narrow window
    panel = clock[0].unionall(clock[1:]).inflate(8, 8)  # the text and the panel's border
    assert not any(r.colliderect(panel) for r in key)


def test_the_debug_marks_outline_the_players_hitbox(cfg):
    world = world_on(cfg)
    scene = pygame.Surface((200, 150))
    scene.fill((0, 0, 0))
    p = world.player
    origin = (int(p.x) - 50, int(p.y) - 50)
    world.player.on_ground = True
    draw_marks(scene, Recent(), world, [], origin, (p.x, p.y))
    corner = (round(p.x) - origin[0], round(p.y) - origin[1])
    assert tuple(scene.get_at(corner))[:3] == HITBOX_STANDING


def test_the_camera_starts_on_the_player_and_again_after_a_respawn(cfg):
    world = world_on(cfg)
    view = (200, 120)
    at = drawn_position(world, 0.0)
    cam, origin = follow(None, world, at, DT, view, cfg.camera)
    assert origin[0] == max(0, round(at[0] + world.player.w / 2 - 100))
    moved, _ = follow(replace(cam, y=cam.y - 40.0), world, at, DT, view, cfg.camera)
    world.player.respawn_timer = 0.5  # respawning
    again, _ = follow(replace(cam, y=cam.y - 40.0), world, at, DT, view, cfg.camera)
    assert moved != cam and again == cam


def test_the_scene_draws_the_player_and_labels_each_ghost(cfg):
    world = world_on(cfg)
    images = TileImages(world.level, convert=False)
    f = Followers(cfg, ghosts=True)
    f.start(world)
    painter = WorldPainter(Recent(), Background())
    scene = painter.scene_for((240, 160))
    at = drawn_position(world, 1.0)
    _, origin = follow(None, world, at, 0.0, scene.get_size(), cfg.camera)
    renderer = MapRenderer(world.level, images)
    labels = painter.draw(scene, world, renderer, images, origin, 1.0, at, f.shown(world),
                          f.comparison)
    assert sorted(n for n, _, _ in labels) == sorted(g.resolver.name for g in f.shown(world))
    with_player = pygame.image.tobytes(scene, "RGB")
    world.player.respawn_timer = 0.5  # respawning: not drawn
    painter.draw(scene, world, renderer, images, origin, 1.0, at, [], None)
    assert pygame.image.tobytes(scene, "RGB") != with_player


def _sprite_pixels(world, painter, renderer, images, scene, origin) -> set[tuple[int, int]]:
    """The scene pixels the player's sprite covers: the scene drawn with and without it."""
    at = (world.player.x, world.player.y)
    painter.draw(scene, world, renderer, images, origin, 1.0, at, [], None)
    shown = pygame.image.tobytes(scene, "RGB")
    timer = world.player.respawn_timer
    world.player.respawn_timer = 0.5  # respawning: not drawn
    painter.draw(scene, world, renderer, images, origin, 1.0, at, [], None)
    world.player.respawn_timer = timer
    hidden = pygame.image.tobytes(scene, "RGB")
    w = scene.get_width()
    return {((i // 3) % w, (i // 3) // w) for i in range(0, len(shown), 3)
            if shown[i:i + 3] != hidden[i:i + 3]}


@pytest.mark.parametrize("side", [-1, 1])
@pytest.mark.parametrize("overlap", [1.0, 2.0, 3.5])
def test_the_sprites_feet_reach_a_lift_it_stands_on_by_a_corner(cfg, side, overlap):
    world = world_on(cfg, ROOT / "levels" / "05_features.tmx")
    lift = world.platforms[0]
    p = world.player
    p.x = lift.x - p.w + overlap if side < 0 else lift.x + lift.w - overlap
    p.y = lift.y - p.h
    p.vx = p.vy = 0.0
    p.on_ground = True
    world.prev = (p.x, p.y)
    images = TileImages(world.level, convert=False)
    painter = WorldPainter(Recent(), Background())
    scene = painter.scene_for((160, 120))
    origin = (round(p.x) - 70, round(p.y) - 60)
    drawn = _sprite_pixels(world, painter, MapRenderer(world.level, images), images, scene,
                           origin)
    feet_row = max(y for _, y in drawn)
    assert feet_row == round(lift.y) - origin[1] - 1  # on the plank's top, not sunk, not afloat
    feet = {x for x, y in drawn if y == feet_row}
    plank = range(round(lift.x) - origin[0], round(lift.x + lift.w) - origin[0])
    assert feet & set(plank), f"feet at {sorted(feet)}, plank {plank}"
    # The sprite stays on its hitbox: moved at most the few px the feet need.
    hitbox = range(round(p.x) - origin[0] - 3, round(p.x + p.w) - origin[0] + 3)
    assert all(x in hitbox for x in feet)


# ----------------------------------------------------------------------------------------------
# The play scene without a window: actions in, ticks, a picture on a plain surface
# ----------------------------------------------------------------------------------------------

class PlainWindow:
    """Stands in for game.view.window.Window: a surface and a fixed scale."""

    def __init__(self, size=(480, 270), scale=2) -> None:
        self.surface, self._scale, self.vsync = pygame.Surface(size), scale, False

    def scale(self, physics_scale: float = 1.0) -> float:
        return map_scale(self._scale, physics_scale)

    def view_size(self, physics_scale: float = 1.0) -> tuple[int, int]:
        return view_size(self.surface.get_size(), self.scale(physics_scale))


def scene_of(cfg, path: Path = FIRST, **options) -> PlayScene:
    made = {}

    def resolver(name):
        return made.setdefault(name, resolvers.create(name, cfg.resolver_options(name)))

    shared = Shared(cfg, PlainWindow(), Sounds({}, device=False), Gamepads(0.2, None),
                    Background(), resolver)
    world = load_world(path, cfg, resolver(cfg.resolver))
    return PlayScene(shared, RunOptions(**options), world, TileImages(world.level, convert=False))


def test_every_action_in_the_tables_is_carried_out_or_handed_to_the_app(cfg):
    scene = scene_of(cfg)
    handed = set()
    for action in sorted(set(KEY_ACTIONS.values()) | set(PAD_ACTIONS.values())):
        for paused in (False, True):
            scene.set_paused(paused)
            got = scene.act(action)
            if got is not None:
                handed.add(got)
    assert handed == {"title", "quit", "fullscreen"}


def test_actions_change_the_scene_as_their_keys_say(cfg):
    scene = scene_of(cfg)
    first = scene.world.resolver.name
    scene.act("next_resolver")
    assert scene.world.resolver.name != first
    scene.act("previous_resolver")
    assert scene.world.resolver.name == first
    scene.act("debug"), scene.act("help"), scene.act("slow_motion"), scene.act("ghosts")
    assert scene.debug and scene.show_help and scene.speed == 1 and scene.ghosts()
    scene.act("mute")
    assert scene.banner.text == banners.NO_DEVICE
    scene.act("jump")
    assert scene.jump_tapped
    scene.act("pause")
    assert scene.paused and not scene.jump_tapped
    scene.act("jump")
    assert not scene.jump_tapped, "a jump tapped while paused is not kept"
    tick = scene.world.tick
    scene.act("step")
    scene.update(DT)
    assert scene.world.tick == tick + 1 and scene.paused
    scene.world.player.x += 40.0
    scene.act("restart")
    assert not scene.paused and (scene.world.player.x, scene.world.player.y) == \
        scene.world.spawn_xy


def test_the_play_scene_ticks_with_the_time_and_draws_without_a_window(cfg):
    script = InputScript(((0, Held(right=True)),))
    scene = scene_of(cfg, script=script, max_ticks=30)
    x0 = scene.world.player.x
    for _ in range(40):
        scene.update(DT)
        scene.draw(scene.alpha(), DT)
    assert scene.finished and scene.ticks_run == 30 and scene.world.player.x > x0
    assert any(t.startswith("demo: ") for t, _ in scene.text.drawn)
    surface = scene.shared.window.surface
    colours = {tuple(surface.get_at((x, y)))[:3] for x in range(0, 480, 16)
               for y in range(0, 270, 16)}
    assert len(colours) > 10, "a picture, not a blank surface"


def test_the_play_scene_goes_on_to_the_next_level_after_the_goal(cfg):
    scene = scene_of(cfg)
    goal = scene.world.level.goals[0]
    scene.world.goal_reached = True
    scene.update(DT)
    assert scene.card is not None and scene.pending_level is not None
    assert scene.shared.progress.done(FIRST)
    path, _ = scene.pending_level
    scene.pending_level = (path, time.monotonic())
    scene.update(DT)
    assert scene.world.level.path.name == "02_every_tile.tmx" and goal is not None
    assert scene.banner.text == "Level 2: Every Tile"


@pytest.mark.parametrize("size", [(1280, 720), (800, 450)])
def test_the_notes_bar_never_covers_the_player(cfg, size):
    """A map's notes show for a while after it loads; where the player stands at the window's
    bottom (the camera clamped to the map's floor) the bar goes under the top line instead."""
    world = world_on(cfg)
    w, h = size
    notes = ("x.tmx: no start object, so the player starts on the first solid ground " * 3,)
    for player in (pygame.Rect(w // 2 - 20, h - 60, 36, 42), pygame.Rect(w // 2, h // 2, 36, 42)):
        painter, surface = hud_on(size, HudInfo(world=world, scale=3, player=player,
                                                notes=notes))
        bar = [r for t, r in painter.drawn if t.startswith("note: ")]
        assert bar and not any(r.colliderect(player) for r in bar)
        assert NOTE_BAR not in {tuple(surface.get_at(p))[:3] for p in
                                (player.center, player.midbottom, player.topleft)}
        assert not any(r.colliderect(player) for r in painter.panels)
        top_line = max(r.bottom for t, r in painter.drawn if t == "First Steps")
        assert all(r.top >= top_line for r in bar)  # never over the title
