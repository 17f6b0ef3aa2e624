"""Ghosts (--ghosts), replays (--input/--ticks/--trace in the window, --record) and tick stepping.

The promises tested here: a ghosts trace holds, for every resolver, exactly the lines a run with
that resolver alone writes; a window run gives exactly the headless trace at any frame rate; a
recording replayed headless gives the trace of the play that recorded it; '.' advances exactly
one tick while paused and T slows the clock.
"""

import json
import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pygame
import pytest

from game import cli, config, resolvers
from game.sim.ghosts import Comparison, push_out
from game.runs.headless import is_trace
from game.sim.inputs import load_script, parse_script
from game.runs.record import MARK, Recorder
from game.view.app import App
from game.view.loop import SPEEDS
from game.sim.world import load_world

ROOT = Path(__file__).resolve().parent.parent
LEVELS = ROOT / "levels"
FIRST = LEVELS / "01_first_steps.tmx"
EVERY = LEVELS / "02_every_tile.tmx"
MOON = LEVELS / "03_moon_hop.tmx"
CROWD = LEVELS / "04_crowd.tmx"
FEATURES = LEVELS / "05_features.tmx"
SCRIPT = """\
0 right
20 right+jump
50 right
90 -
100 left+jump
130 right
170 right+jump
200 right+down+jump
230 right
"""


@pytest.fixture
def script(tmp_path):
    path = tmp_path / "play.txt"
    path.write_text(SCRIPT)
    return path


@pytest.fixture
def cfg():
    c = config.load(ROOT / "config.toml")
    return replace(c, display=replace(c.display, width=640, height=360, vsync=False))


def key(k, mod=0):
    return pygame.event.Event(pygame.KEYDOWN, key=k, mod=mod, unicode="", scancode=0)


def headless_trace(tmp_path, level, ticks, script, *extra) -> bytes:
    out = tmp_path / f"h-{len(list(tmp_path.iterdir()))}.jsonl"
    args = ["--headless", "--ticks", str(ticks), "--level", str(level), "--trace", str(out),
            "--input", str(script), *extra]
    assert cli.main(args) == 0
    return out.read_bytes()


def lines_of(trace: bytes, name: str) -> bytes:
    return b"".join(line for line in trace.splitlines(keepends=True)
                    if json.loads(line)["resolver"] == name)


# --- ghosts, headless ---------------------------------------------------------------------------

@pytest.mark.parametrize("level, ticks", [(FIRST, 300), (EVERY, 300), (MOON, 300),
                                          (CROWD, 120), (FEATURES, 300)])
def test_a_ghosts_trace_holds_each_resolvers_own_run_byte_for_byte(tmp_path, script, level,
                                                                   ticks, capsys):
    both = headless_trace(tmp_path, level, ticks, script, "--ghosts")
    lines = both.splitlines()
    names = resolvers.names()
    assert len(lines) == ticks * len(names)
    # In --list-resolvers order, tick after tick.
    assert [json.loads(x)["resolver"] for x in lines[:len(names)]] == names
    assert [json.loads(x)["tick"] for x in lines[::len(names)]] == list(range(ticks))
    for name in names:
        alone = headless_trace(tmp_path, level, ticks, script, "--resolver", name)
        assert lines_of(both, name) == alone, name
    assert len(capsys.readouterr().out.splitlines()) == len(names) * (1 + 1)  # summaries


def test_the_ghosts_differ_somewhere_so_the_test_above_means_something(tmp_path, script):
    both = headless_trace(tmp_path, EVERY, 300, script, "--ghosts")
    ends = {json.loads(x)["resolver"]: (json.loads(x)["x"], json.loads(x)["y"])
            for x in both.splitlines()[-len(resolvers.names()):]}
    assert len(set(ends.values())) > 1


def test_every_ghost_lives_the_living_level_coins_and_hazards_too(tmp_path, script):
    both = headless_trace(tmp_path, FEATURES, 300, script, "--ghosts")
    seen: dict[str, set[str]] = {name: set() for name in resolvers.names()}
    for line in both.splitlines():
        rec = json.loads(line)
        seen[rec["resolver"]].update(rec["events"])
    assert all({"coin", "hurt", "respawn"} <= events for events in seen.values()), seen


def test_ghosts_started_mid_level_take_the_players_coins_checkpoint_and_doors(cfg):
    world = load_world(FEATURES, cfg, resolvers.create("axis", cfg.resolver_options("axis")))
    for frame in parse_script(SCRIPT.splitlines(), "test").frames(190):
        world.step(frame)
    assert len(world.flow.coins) >= 2
    world.flow.doors_open = dict.fromkeys(world.flow.doors_open, True)  # as if a lever was hit
    world.grid = world.flow.grid(world.level.grid)
    comparison = Comparison.create(world.level, world.physics, cfg)
    assert comparison.worlds[0].grid.kinds != world.grid.kinds  # a fresh world has its gate shut
    comparison.follow(world)
    for ghost in comparison.worlds:
        assert ghost.flow.coins == world.flow.coins and ghost.flow.coins is not world.flow.coins
        assert ghost.flow.respawn == world.flow.respawn
        assert ghost.flow.doors_open == world.flow.doors_open
        assert ghost.grid.kinds == world.grid.kinds
    ghost = comparison.worlds[1]
    ghost.flow.coins.add(-1)  # a ghost's progress is its own from then on
    assert -1 not in world.flow.coins


def test_the_players_world_is_one_of_the_comparisons_and_is_stepped_once_a_tick(cfg):
    """With the player's world in the comparison, one step of the comparison is one tick of
    every world: each exactly the run its resolver gives alone."""
    frames = list(parse_script(SCRIPT.splitlines(), "test").frames(240))
    alone = {}
    for name in resolvers.names():
        w = load_world(FEATURES, cfg, resolvers.create(name, cfg.resolver_options(name)))
        alone[name] = []
        for frame in frames:
            w.step(frame)
            alone[name].append((w.player.x, w.player.y, w.player.vy, tuple(w.events)))
    world = load_world(FEATURES, cfg, resolvers.create("sweep", cfg.resolver_options("sweep")))
    comparison = Comparison.create(world.level, world.physics, cfg, player=world)
    assert [w.resolver.name for w in comparison.worlds] == resolvers.names()
    assert comparison.world("sweep") is world
    seen = {name: [] for name in resolvers.names()}
    for frame in frames:
        comparison.step(frame)
        for w in comparison.worlds:
            seen[w.resolver.name].append((w.player.x, w.player.y, w.player.vy, tuple(w.events)))
    assert world.tick == len(frames)  # once a tick, not twice
    assert seen == alone


def test_a_resolver_switch_moves_the_player_to_its_new_place_and_leaves_a_ghost(cfg):
    world = load_world(EVERY, cfg, resolvers.create("axis", cfg.resolver_options("axis")))
    comparison = Comparison.create(world.level, world.physics, cfg, player=world)
    frames = parse_script(SCRIPT.splitlines(), "test").frames(120)
    for _, frame in zip(range(60), frames):
        comparison.step(frame)
    old_corners = comparison.world("corners")
    world.set_resolver(resolvers.create("corners", cfg.resolver_options("corners")))
    comparison.adopt(world)
    assert [w.resolver.name for w in comparison.worlds] == resolvers.names()
    assert comparison.world("corners") is world and old_corners not in comparison.worlds
    left = comparison.world("axis")
    assert left is not world and left.tick == world.tick
    assert (left.player.x, left.player.y) == (world.player.x, world.player.y)
    assert left.player is not world.player
    for frame in frames:
        comparison.step(frame)
    assert world.tick == 120 and left.tick == 120


def test_a_ghosts_trace_is_recognised_as_a_trace_and_may_be_replaced(tmp_path, script):
    out = tmp_path / "g.jsonl"
    for _ in range(2):
        assert cli.main(["--headless", "--ticks", "5", "--ghosts", "--trace", str(out)]) == 0
    with open(out, "rb") as f:
        assert is_trace(f)
    names = resolvers.names()
    rec = json.loads(out.read_bytes().splitlines()[0])
    twice = json.dumps(rec) + "\n" + json.dumps(rec) + "\n"  # the same resolver twice
    backwards = json.dumps({**rec, "resolver": names[1]}) + "\n" + json.dumps(rec) + "\n"
    for text in (twice, backwards):
        path = tmp_path / "mine.jsonl"
        path.write_text(text)
        with open(path, "rb") as f:
            assert not is_trace(f)


def test_a_ghost_that_falls_out_respawns_like_the_player(cfg):
    world = load_world(ROOT / "tests" / "data" / "pit.tmx", cfg,
                       resolvers.create("axis", cfg.resolver_options("axis")))
    comparison = Comparison.create(world.level, world.physics, cfg)
    frames = parse_script(["0 right"], "test").frames(900)
    respawned = {w.resolver.name: 0 for w in comparison.worlds}
    for frame in frames:
        comparison.step(frame)
        for w in comparison.worlds:
            respawned[w.resolver.name] += "respawn" in w.events
    assert all(n >= 1 for n in respawned.values()), respawned


def test_parting_is_noted_at_the_first_tick_apart_and_forgotten_when_together(cfg):
    world = load_world(EVERY, cfg, resolvers.create("axis", cfg.resolver_options("axis")))
    comparison = Comparison.create(world.level, world.physics, cfg)
    ghost = comparison.world("sweep")
    comparison.track_parting(world)
    assert comparison.parted["sweep"] is None
    ghost.player.x += 1.5
    world.tick = 7
    comparison.track_parting(world)
    parted = comparison.parted["sweep"]
    assert parted.tick == 6 and parted.ghost_xy == (ghost.player.x, ghost.player.y)
    ghost.player.x -= 1.0  # within a pixel again
    comparison.track_parting(world)
    assert comparison.parted["sweep"] is None


def test_push_out_is_the_attempted_move_minus_the_resolved_one(cfg):
    world = load_world(FIRST, cfg, resolvers.create("axis", cfg.resolver_options("axis")))
    assert push_out(world) is None  # no move yet
    world.step(parse_script(["0 -"], "t").frames(1).__next__())
    p = world.player
    ax, ay, rx, ry = push_out(world)  # standing: gravity tried to move down, the floor held
    assert (rx, ry) == (p.x, p.y) and ay > ry and ax == rx


# --- the window: ghosts, replays, stepping --------------------------------------------------------

@pytest.mark.parametrize("frame_time", [
    pytest.param(1 / 240, marks=pytest.mark.slow), pytest.param(1 / 60, marks=pytest.mark.slow),
    1 / 23, 0.25])
@pytest.mark.parametrize("ghosts", [False, True])
def test_a_window_run_gives_the_headless_trace_at_any_frame_rate(cfg, tmp_path, script,
                                                                 frame_time, ghosts):
    extra = ("--ghosts",) if ghosts else ()
    expected = headless_trace(tmp_path, EVERY, 240, script, *extra)
    got = {}

    def trace(records, level):
        got["lines"] = "".join(json.dumps(r, separators=(",", ":")) + "\n" for r in records)

    app = App(cfg, EVERY, script=load_script(script), frame_time=frame_time, max_ticks=240,
              trace=trace, ghosts=ghosts)
    assert app.run() == 0
    pygame.init()
    assert app.play.ticks_run == 240
    assert got["lines"].encode() == expected


@pytest.mark.slow
def test_main_py_in_a_window_writes_the_headless_trace(tmp_path, script):
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    common = ["--ticks", "200", "--level", str(MOON), "--input", str(script), "--ghosts"]
    h, w = tmp_path / "h.jsonl", tmp_path / "w.jsonl"
    for out, extra in ((h, ["--headless"]), (w, [])):
        done = subprocess.run([sys.executable, str(ROOT / "main.py"), *common, *extra,
                               "--trace", str(out)], env=env, capture_output=True, text=True,
                              timeout=120)
        assert done.returncode == 0, done.stderr
    assert w.read_bytes() == h.read_bytes()
    assert len(h.read_bytes().splitlines()) == 200 * len(resolvers.names())


def test_a_recording_replayed_headless_gives_the_trace_of_the_play(cfg, tmp_path, script):
    rec = tmp_path / "rec.txt"
    got = {}

    def trace(records, level):
        got["lines"] = "".join(json.dumps(r, separators=(",", ":")) + "\n" for r in records)

    app = App(cfg, MOON, script=load_script(script), frame_time=1 / 50, max_ticks=260,
              trace=trace, record=Recorder.check(str(rec), []))
    app.run()
    pygame.init()
    text = rec.read_text()
    assert text.startswith(MARK + "\n")
    header = [line for line in text.splitlines() if line.startswith("#")]
    assert any(str(MOON) in line for line in header)
    assert any("resolver: axis" in line for line in header)
    assert any("gravity=700.0" in line and "jump_speed=330.0" in line for line in header)
    # Runs of the same keys are one line each: as few lines as the script that played.
    played = [line for line in text.splitlines() if not line.startswith("#")]
    assert len(played) == len(SCRIPT.splitlines())
    replay = headless_trace(tmp_path, MOON, 260, rec, "--resolver", "axis")
    assert replay == got["lines"].encode()


def test_after_a_restart_the_trace_and_the_recording_are_the_new_run(cfg, tmp_path, script):
    """Backspace starts a new run from tick 0: the trace is then that run's (ticks 0, 1, 2...,
    so a later run may replace the file), and it is what its recording gives headless."""
    rec = tmp_path / "rec.txt"
    app = App(cfg, MOON, script=load_script(script), frame_time=1 / 50, max_frames=1,
              trace=lambda records, level: None, record=Recorder.check(str(rec), []))
    for _ in range(90):
        app.play.tick_once()
    app.play.restart()
    for _ in range(70):
        app.play.tick_once()
    records = app.play.followers.trace_records
    assert [r["tick"] for r in records] == list(range(70))
    app.play.finish_recording()
    pygame.quit()
    pygame.init()
    out = tmp_path / "w.jsonl"
    out.write_text("".join(json.dumps(r, separators=(",", ":")) + "\n" for r in records))
    with open(out, "rb") as f:
        assert is_trace(f)
    assert headless_trace(tmp_path, MOON, 70, rec, "--resolver", "axis") == out.read_bytes()


def test_record_refuses_what_it_must_not_overwrite(tmp_path, capsys):
    mine = tmp_path / "notes.txt"
    mine.write_text("my notes\n")
    cases = {str(tmp_path): "folder", str(mine): "not a recording",
             str(tmp_path / "nope" / "r.txt"): "does not exist"}
    for path, says in cases.items():
        assert cli.main(["--record", path, "--level", str(FIRST)]) == 2
        err = capsys.readouterr().err
        assert err.startswith("error: ") and says in err and err.count("\n") == 1
    assert mine.read_text() == "my notes\n"
    assert cli.main(["--headless", "--ticks", "1", "--record", str(tmp_path / "r.txt")]) == 2
    assert "--record is for the window" in capsys.readouterr().err
    if os.geteuid() != 0:
        locked = tmp_path / "locked"
        locked.mkdir()
        locked.chmod(0o500)
        try:
            assert cli.main(["--record", str(locked / "r.txt"), "--level", str(FIRST)]) == 2
            assert "not writable" in capsys.readouterr().err
        finally:
            locked.chmod(0o700)


def test_a_recording_may_be_replaced_and_later_levels_get_their_own_file(cfg, tmp_path):
    rec = tmp_path / "r.txt"
    rec.write_text(MARK + "\n0 -\n")
    recorder = Recorder.check(str(rec), [])
    app = App(cfg, FIRST, max_frames=1, record=recorder)
    app.handle_event(key(pygame.K_RIGHT))
    for _ in range(3):
        app.play.tick_once()
    app.play.load(EVERY)  # the level changes: the first recording is written
    assert rec.read_text().count("\n0 ") == 1 and "01_first_steps" in rec.read_text()
    app.play.tick_once()
    app.run()  # the game ends: the second level's recording
    pygame.init()
    assert "02_every_tile" in (tmp_path / "r-2.txt").read_text()


def test_ghosts_follow_g_tab_restart_and_reload(cfg):
    app = App(cfg, EVERY, max_frames=1)
    assert app.play.followers.comparison is None and app.play.ghosts() == []
    app.handle_event(key(pygame.K_g))
    comparison = app.play.followers.comparison
    assert [g.resolver.name for g in app.play.ghosts()] == resolvers.names()[1:]
    app.handle_event(key(pygame.K_TAB))  # the player's resolver changes; the ghosts stay
    assert app.play.followers.comparison is comparison
    assert "corners" not in [g.resolver.name for g in app.play.ghosts()]
    for _ in range(30):
        app.play.tick_once()
    app.handle_event(key(pygame.K_BACKSPACE))  # restart: new ghosts at the spawn
    assert app.play.followers.comparison is not comparison
    worlds = app.play.followers.comparison.worlds
    assert all((g.player.x, g.player.y) == app.world.spawn_xy for g in worlds)
    comparison = app.play.followers.comparison
    app.play.reload()
    assert app.play.followers.comparison is not comparison
    app.handle_event(key(pygame.K_g))
    assert app.play.followers.comparison is None
    app.play.debug = True
    app.run()
    pygame.init()


def test_paused_dot_steps_exactly_one_tick_and_t_slows_the_clock(cfg):
    app = App(cfg, EVERY, max_frames=1, ghosts=True, frame_time=1 / 60)
    app.play.debug = True
    dt = app.world.physics.dt
    app.handle_event(key(pygame.K_p))
    app.frame(dt * 5)
    assert app.world.tick == 0
    app.handle_event(key(pygame.K_PERIOD))
    app.frame(dt * 5)
    app.frame(dt * 5)
    assert app.world.tick == 1 and all(g.tick == 1 for g in app.play.followers.comparison.worlds)
    assert app.play.paused
    app.handle_event(key(pygame.K_p))
    app.handle_event(key(pygame.K_t))
    assert SPEEDS[app.play.speed] == 0.5
    for _ in range(8):
        app.frame(dt)
    assert app.world.tick == 1 + 4
    for _ in range(3):
        app.handle_event(key(pygame.K_t))
    assert SPEEDS[app.play.speed] == 1.0
    app.run()
    pygame.init()


def test_a_key_that_moves_takes_over_from_a_demo_but_view_keys_do_not(cfg, script):
    app = App(cfg, FIRST, max_frames=1, script=load_script(script))
    for k in (pygame.K_F3, pygame.K_p, pygame.K_p, pygame.K_g, pygame.K_t, pygame.K_h):
        app.handle_event(key(k))
    assert app.play.script is not None
    app.handle_event(key(pygame.K_LEFT))
    assert app.play.script is None
    app.run()
    pygame.init()
