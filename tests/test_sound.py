"""Sound effects: heard from world states, played by the view, silent without an audio device."""

import os
import subprocess
import sys
import wave
from dataclasses import replace
from pathlib import Path

import pygame
import pytest

from game import config, resolvers
from game.config import AudioConfig
from game.sim.inputs import Held, InputSequencer
from game.view.app import App
from game.view.sound import (LAND_SPEED, SOUND_DIR, SOUNDS, Snapshot, Sounds, event_sounds,
                              heard, start_mixer)
from game.sim.world import load_world

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).parent / "data"
FIRST = ROOT / "levels" / "01_first_steps.tmx"


@pytest.fixture
def cfg():
    c = config.load(ROOT / "config.toml")
    return replace(c, display=replace(c.display, width=640, height=360, vsync=False))


def snap(on_ground=True, rising=False, vy=0.0, respawning=False, goal=False):
    return Snapshot(on_ground, rising, vy, respawning, goal)


class Recorder:
    """Stands in for Sounds in the app: remembers what it was asked to play."""

    def __init__(self):
        self.played, self.muted, self.device = [], False, True

    def play(self, name):
        self.played.append(name)

    def toggle_mute(self):
        self.muted = not self.muted
        return self.muted


# ----------------------------------------------------------------------------------------------
# What a tick sounds like
# ----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("before, after, want", [
    (snap(), snap(), ()),
    (snap(), snap(on_ground=False, rising=True, vy=-400), ("jump",)),
    (snap(on_ground=False, vy=-100), snap(on_ground=False, rising=True, vy=-400), ("jump",)),
    (snap(on_ground=False, rising=True, vy=-300), snap(on_ground=False, rising=True, vy=-280), ()),
    (snap(on_ground=False, vy=300), snap(vy=0), ("land",)),
    (snap(on_ground=False, vy=LAND_SPEED - 1), snap(), ()),     # a step down a slope: quiet
    (snap(on_ground=False, vy=LAND_SPEED), snap(), ("land",)),
    (snap(on_ground=False, respawning=True), snap(), ("respawn",)),  # reappearing is no landing
    (snap(on_ground=False, respawning=True), snap(on_ground=False, respawning=True), ()),
    (snap(on_ground=False, vy=300), snap(goal=True), ("land", "goal")),
    (snap(goal=True), snap(goal=True), ()),                      # the goal sounds once
    (snap(), snap(on_ground=False, respawning=True), ("hurt",)),  # vanished: hurt, not a jump
    (snap(), Snapshot(True, False, 0.0, False, False, (), 12, 0), ("throw",)),
    (Snapshot(True, False, 0.0, False, False, (), 12, 0),
     Snapshot(True, False, 0.0, False, False, (), 12, 1), ("stick",)),
    (Snapshot(True, False, 0.0, False, False, (), 12, 1),
     Snapshot(True, False, 0.0, False, False, (), 12, 0), ()),    # falling away is quiet
    (Snapshot(True, False, 0.0, False, False, (False,)),
     Snapshot(True, False, 0.0, False, False, (True,)), ("door",)),
])
def test_heard(before, after, want):
    assert heard(before, after) == want


def play_world(level, held_at, ticks, resolver="axis", place=None):
    """The effects heard and those of the events, by tick; ``place(world)`` sets it up."""
    cfg = config.Config()
    w = load_world(level, cfg, resolvers.create(resolver, cfg.resolver_options(resolver)))
    if place is not None:
        place(w)
    seq, out = InputSequencer(), []
    for t in range(ticks):
        before = Snapshot.of(w)
        w.step(seq.frame(held_at(t)))
        out += [(t, name) for name in heard(before, Snapshot.of(w)) + event_sounds(w.events)]
    return out


@pytest.mark.parametrize("resolver", resolvers.names())
def test_a_jump_and_its_landing_from_a_real_world(resolver):
    sounds = play_world(DATA / "flat.tmx", lambda t: Held(jump=10 <= t < 40), 120, resolver)
    assert [name for _, name in sounds] == ["jump", "land"]
    assert sounds[0][0] == 10


def test_walking_into_a_pit_sounds_the_hurt_then_the_respawn():
    sounds = play_world(DATA / "pit.tmx", lambda t: Held(right=t < 100), 400)
    assert [name for _, name in sounds] == ["hurt", "respawn"]
    # the respawn on reappearing: after the respawn delay (60 ticks)
    assert sounds[1][0] - sounds[0][0] >= 60


def test_a_stomp_sounds_and_a_walkers_touch_hurts():
    from game.sim.inputs import load_script

    script = load_script(DATA / "bodies" / "stomp.txt")
    sounds = play_world(DATA / "bodies" / "stomp.tmx", script.held_at, 240)
    assert "stomp" in [name for _, name in sounds]


def test_a_spear_thrown_at_a_wall_whooshes_then_thunks():
    from game.sim.inputs import load_script

    script = load_script(DATA / "bodies" / "spear.txt")
    sounds = [name for _, name in play_world(DATA / "bodies" / "spear.tmx", script.held_at, 300)]
    assert "throw" in sounds and "stick" in sounds
    assert sounds.index("throw") < sounds.index("stick")


def test_the_lever_clicks_and_its_door_slides():
    level = ROOT / "levels" / "05_features.tmx"

    def under_the_lever(w):  # the lever is the cell of col 79, row 8; the floor's top row 12
        lever = w.level.features.switches[0].box
        p = w.player
        p.place(lever.x - p.w / 2, 12 * 16 - p.h, w.grid, True)

    sounds = play_world(level, lambda t: Held(jump=t < 30), 60, place=under_the_lever)
    names = [name for _, name in sounds]
    assert names[:1] == ["jump"] and "switch" in names and "door" in names
    assert "land" not in names[:names.index("switch")]


def test_walking_the_shipped_levels_makes_no_landing_noise_on_slopes():
    for level in sorted((ROOT / "levels").glob("*.tmx")):
        for resolver in resolvers.names():
            sounds = play_world(level, lambda t: Held(right=(t // 300) % 2 == 0,
                                                      left=(t // 300) % 2 == 1), 900, resolver)
            assert all(name in ("land", "hurt", "respawn", "coin", "checkpoint", "stomp")
                       for _, name in sounds), (level, sounds)
            lands = [t for t, name in sounds if name == "land"]
            assert len(lands) <= 12, f"{level.name} {resolver}: landings at ticks {lands}"


# ----------------------------------------------------------------------------------------------
# In the app
# ----------------------------------------------------------------------------------------------

def test_the_app_plays_level_start_jump_and_goal_once(cfg):
    app = App(cfg, FIRST, max_frames=1, frame_time=1 / 60)
    app.shared.sounds = rec = Recorder()
    app.frame(1 / 60)
    app.frame(1 / 60)
    assert rec.played.count("level_start") == 1
    goal = app.world.level.goals[0]
    p = app.world.player
    p.x, p.y, p.vx, p.vy = goal.x, goal.y, 0.0, 0.0
    for _ in range(10):
        app.frame(1 / 60)
    assert rec.played.count("goal") == 1
    app.play.load(FIRST)  # a new world: its start is heard at the next frame
    app.frame(1 / 60)
    assert rec.played.count("level_start") == 2
    pygame.quit()
    pygame.init()


def test_standing_on_a_goal_whose_next_level_failed_stays_quiet(cfg):
    app = App(cfg, FIRST, max_frames=1, frame_time=1 / 60)
    app.shared.sounds = rec = Recorder()
    app.play.goal_wait = True
    goal = app.world.level.goals[0]
    p = app.world.player
    p.x, p.y = goal.x, goal.y
    for _ in range(10):
        app.frame(1 / 60)
    assert "goal" not in rec.played
    pygame.quit()
    pygame.init()


def test_m_mutes_and_unmutes_with_a_banner(cfg):
    app = App(cfg, FIRST, max_frames=1)
    assert not app.sounds.muted
    m = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_m, mod=0, unicode="m", scancode=0)
    app.handle_event(m)
    assert app.sounds.muted and app.play.banner.text == "Sound off"
    app.handle_event(m)
    assert not app.sounds.muted and app.play.banner.text == "Sound on"
    app.run()
    pygame.init()


def test_muted_sounds_do_not_play():
    class Effect:
        plays = 0

        def play(self):
            Effect.plays += 1

    s = Sounds({"jump": Effect()}, muted=True)
    s.play("jump")
    assert Effect.plays == 0
    s.toggle_mute()
    s.play("jump")
    s.play("coin")  # not loaded: silent
    assert Effect.plays == 1


def test_the_config_sets_volume_and_mute():
    pygame.mixer.quit()
    s = Sounds.open(AudioConfig(volume=0.25, muted=True))
    assert s.device and s.muted
    assert sorted(s.effects) == sorted(SOUNDS)
    assert all(abs(e.get_volume() - 0.25) < 0.01 for e in s.effects.values())
    pygame.mixer.quit()


@pytest.mark.parametrize("text", ["[audio]\nvolume = 1.5\n", "[audio]\nvolume = -0.1\n",
                                  "[audio]\nmuted = 1\n", "[gamepad]\ndead_zone = 1.0\n",
                                  "[audio]\nloud = true\n"])
def test_audio_and_gamepad_mistakes_are_user_errors(tmp_path, text):
    from game.errors import UserError

    p = tmp_path / "c.toml"
    p.write_text(text, "utf-8")
    with pytest.raises(UserError) as info:
        config.load(p)
    assert ("volume" in text) <= ("0 to 1" in info.value.message)


# ----------------------------------------------------------------------------------------------
# No audio device: silence, and not a word
# ----------------------------------------------------------------------------------------------

def test_a_mixer_that_cannot_start_leaves_the_game_silent(cfg, monkeypatch, capfd):
    def broken(*args, **kwargs):
        raise pygame.error("No available audio device")

    pygame.mixer.quit()
    monkeypatch.setattr(pygame.mixer, "get_init", lambda: None)
    monkeypatch.setattr(pygame.mixer, "init", broken)
    assert not start_mixer()
    app = App(cfg, FIRST, max_frames=5, frame_time=1 / 60)
    assert not app.sounds.device and app.sounds.effects == {}
    app.sounds.play("jump")
    app.handle_event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_m, mod=0))
    app.handle_event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_m, mod=0))
    assert "No audio device" in app.play.banner.text  # asked for sound: told why there is none
    assert app.run() == 0
    out, err = capfd.readouterr()
    assert err == ""
    pygame.init()


APP_RUN = """
import sys
from pathlib import Path
from dataclasses import replace
from game import config
from game.view.app import App
cfg = config.load(Path("config.toml"))
cfg = replace(cfg, display=replace(cfg.display, vsync=False))
app = App(cfg, Path("levels/01_first_steps.tmx"), max_frames=30, frame_time=1 / 60)
print("device" if app.sounds.device else "silent")
sys.exit(app.run())
"""


@pytest.mark.parametrize("driver", [pytest.param("no_such_driver", marks=pytest.mark.slow),
                                    pytest.param("alsa", marks=pytest.mark.slow), "dummy"])
def test_any_audio_driver_plays_or_stays_silent_without_a_word(driver):
    """A driver that does not exist, ALSA (with or without a card: with none its library prints
    a dozen lines of its own) or SDL's dummy: the game runs, and stderr stays empty."""
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER=driver,
               PYGAME_HIDE_SUPPORT_PROMPT="1", PYTHONPATH=str(ROOT))
    r = subprocess.run([sys.executable, "-c", APP_RUN], cwd=ROOT, env=env, capture_output=True,
                       text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert r.stderr == ""
    if driver == "no_such_driver":
        assert r.stdout.strip() == "silent"
    if driver == "dummy":
        assert r.stdout.strip() == "device"


# ----------------------------------------------------------------------------------------------
# The effects themselves
# ----------------------------------------------------------------------------------------------

def test_make_sounds_writes_the_shipped_files_again(tmp_path):
    r = subprocess.run([sys.executable, "tools/make_sounds.py", "--out", str(tmp_path)],
                       cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    for name in SOUNDS:
        made = tmp_path / f"{name}.wav"
        assert made.read_bytes() == (SOUND_DIR / f"{name}.wav").read_bytes(), name
        with wave.open(str(made)) as f:
            assert (f.getnchannels(), f.getsampwidth(), f.getframerate()) == (1, 2, 22050)
            assert 0.05 < f.getnframes() / f.getframerate() < 1.0, f"{name}: a short effect"
    licence = (ROOT / "assets" / "LICENSE.md").read_text("utf-8")
    assert "make_sounds.py" in licence and "CC0" in licence


def test_every_sound_shipped_is_loaded_and_listed_under_the_licence():
    shipped = sorted(p.stem for p in SOUND_DIR.glob("*.wav"))
    assert shipped == sorted(SOUNDS)
    licence = (ROOT / "assets" / "LICENSE.md").read_text("utf-8")
    assert all(f"`{name}.wav`" in licence for name in shipped)


def test_make_sounds_refuses_a_folder_it_cannot_write_with_one_line(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    r = subprocess.run([sys.executable, "tools/make_sounds.py", "--out", str(blocker)],
                       cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert r.returncode == 2
    assert r.stderr.count("\n") == 1 and r.stderr.startswith(f"error: {blocker}:")
    assert blocker.read_text() == "not a folder"


def test_minus_and_plus_change_the_volume_by_tenths_and_it_is_remembered(cfg, tmp_path):
    from game.runs import settings as st

    store = st.Store(tmp_path / "settings.toml")
    app = App(cfg, FIRST, max_frames=1, store=store)
    start = app.sounds.volume
    key = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_MINUS, mod=0, unicode="-", scancode=0)
    app.handle_event(key)
    app.handle_event(key)
    assert app.sounds.volume == pytest.approx(round(start * 10 - 2) / 10)
    assert app.play.banner.text in (f"Volume {round(app.sounds.volume * 100)}%",
                               "No audio device: playing without sound")
    for _ in range(20):
        app.handle_event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_EQUALS, mod=0,
                                            unicode="=", scancode=0))
    assert app.sounds.volume == 1.0  # kept within 0..1
    app.run()  # a normal exit saves the settings
    pygame.init()
    assert st.Store(tmp_path / "settings.toml").saved.volume == 1.0
