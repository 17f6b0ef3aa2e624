"""Gamepads: SDL controller events (made here, no device needed) -> held keys and actions."""

from dataclasses import replace
from pathlib import Path

import pygame
import pytest

from game import config, resolvers
from game.sim.inputs import Held, InputSequencer
from game.view.app import App
from game.view.pad import (Gamepads, PadState, action_of, axis_value, either, held_of,
                           updated)

ROOT = Path(__file__).resolve().parent.parent
FIRST = ROOT / "levels" / "01_first_steps.tmx"
DZ = 0.35


@pytest.fixture
def cfg():
    c = config.load(ROOT / "config.toml")
    return replace(c, display=replace(c.display, width=640, height=360, vsync=False))


def button(b, down=True, pad=0):
    kind = pygame.CONTROLLERBUTTONDOWN if down else pygame.CONTROLLERBUTTONUP
    return pygame.event.Event(kind, instance_id=pad, button=b)


def axis(a, value, pad=0):
    return pygame.event.Event(pygame.CONTROLLERAXISMOTION, instance_id=pad, axis=a, value=value)


def stick(x, y, pad=0):
    """Events that put the left stick at (x, y), each -32768 to 32767."""
    return [axis(pygame.CONTROLLER_AXIS_LEFTX, x, pad), axis(pygame.CONTROLLER_AXIS_LEFTY, y, pad)]


def added(index):
    return pygame.event.Event(pygame.CONTROLLERDEVICEADDED, device_index=index, guid="")


def removed(instance):
    return pygame.event.Event(pygame.CONTROLLERDEVICEREMOVED, instance_id=instance)


def state_after(events, state=PadState()):
    for e in events:
        state = updated(state, e)
    return state


# ----------------------------------------------------------------------------------------------
# The mapping: pure functions
# ----------------------------------------------------------------------------------------------

def test_axis_values_become_fractions_of_full_tilt():
    assert axis_value(0) == 0.0
    assert axis_value(32767) == 1.0
    assert axis_value(-32768) == -1.0  # SDL's one extra step to the left is clamped
    assert axis_value(16384) == pytest.approx(0.5, abs=1e-4)


@pytest.mark.parametrize("x, y, want", [
    (0, 0, Held()),
    (int(0.34 * 32767), 0, Held()),                        # inside the dead zone: resting
    (int(-0.34 * 32767), int(0.34 * 32767), Held()),
    (int(0.36 * 32767), 0, Held(right=True)),              # just past it
    (-32768, 0, Held(left=True)),
    (0, int(0.5 * 32767), Held(down=True)),
    (0, -32768, Held(climb=True)),                         # up on the stick climbs, never jumps
    (32767, int(0.5 * 32767), Held(right=True)),           # running, stick a little low: no down
    (int(0.4 * 32767), 32767, Held(right=True, down=True)),  # mostly down, a little right
])
def test_left_stick_with_a_dead_zone(x, y, want):
    assert held_of(state_after(stick(x, y)), DZ) == want


def test_the_dead_zone_is_the_configured_one():
    s = state_after(stick(int(0.5 * 32767), 0))
    assert held_of(s, 0.35).right
    assert not held_of(s, 0.6).right
    assert held_of(state_after(stick(1, 0)), 0.0).right  # 0: any tilt counts
    assert held_of(PadState(), 0.0) == Held()  # ... but the centre is still rest


def test_dpad_and_a_button():
    s = state_after([button(pygame.CONTROLLER_BUTTON_DPAD_LEFT),
                     button(pygame.CONTROLLER_BUTTON_DPAD_DOWN),
                     button(pygame.CONTROLLER_BUTTON_A)])
    assert held_of(s, DZ) == Held(left=True, down=True, jump=True)
    s = state_after([button(pygame.CONTROLLER_BUTTON_DPAD_LEFT, down=False),
                     button(pygame.CONTROLLER_BUTTON_A, down=False)], s)
    assert held_of(s, DZ) == Held(down=True)
    # d-pad up is not a jump either (it climbs a ladder); B and Y hold nothing; X throws
    s = state_after([button(b) for b in (pygame.CONTROLLER_BUTTON_DPAD_UP,
                                         pygame.CONTROLLER_BUTTON_B, pygame.CONTROLLER_BUTTON_Y)])
    assert held_of(s, DZ) == Held(climb=True)
    assert not InputSequencer().frame(held_of(s, DZ)).jump_held
    assert held_of(state_after([button(pygame.CONTROLLER_BUTTON_X)]), DZ) == Held(throw=True)


def test_other_axes_and_events_change_nothing():
    s = state_after(stick(32767, 0))
    for e in (axis(pygame.CONTROLLER_AXIS_RIGHTX, -32768), axis(pygame.CONTROLLER_AXIS_TRIGGERLEFT,
                                                               32767),
              pygame.event.Event(pygame.KEYDOWN, key=pygame.K_a, mod=0)):
        assert updated(s, e) == s


@pytest.mark.parametrize("b, action", [
    (pygame.CONTROLLER_BUTTON_START, "pause"),
    (pygame.CONTROLLER_BUTTON_BACK, "restart"),
    (pygame.CONTROLLER_BUTTON_RIGHTSHOULDER, "next_resolver"),
    (pygame.CONTROLLER_BUTTON_LEFTSHOULDER, "previous_resolver"),
    (pygame.CONTROLLER_BUTTON_A, "jump"),
    (pygame.CONTROLLER_BUTTON_B, None),
    (pygame.CONTROLLER_BUTTON_DPAD_RIGHT, None),
])
def test_button_presses_ask_for_actions_once(b, action):
    assert action_of(button(b)) == action
    assert action_of(button(b, down=False)) is None  # letting go does nothing


def test_keyboard_and_pad_keys_are_or_ed():
    assert either(Held(left=True), Held(jump=True)) == Held(left=True, jump=True)
    assert either(Held(), Held()) == Held()
    # both directions at once cancel out, as on the keyboard
    assert InputSequencer().frame(either(Held(left=True), Held(right=True))).move == 0


# ----------------------------------------------------------------------------------------------
# Hot-plug: devices come and go while playing
# ----------------------------------------------------------------------------------------------

class FakeController:
    def __init__(self):
        self.closed = False

    def quit(self):
        self.closed = True


def test_a_pad_plugged_in_then_pulled_out_lets_go_of_its_keys():
    opened = {}

    def opener(index):
        opened[index] = FakeController()
        return 100 + index, opened[index]

    pads = Gamepads(DZ, opener)
    assert pads.handle(added(0)) is None
    assert 100 in pads.devices
    assert pads.handle(button(pygame.CONTROLLER_BUTTON_A, pad=100)) == "jump"
    for e in stick(32767, 0, pad=100):
        pads.handle(e)
    assert pads.held() == Held(right=True, jump=True)
    pads.handle(removed(100))
    assert pads.held() == Held(), "a pad pulled out mid-jump must not keep holding"
    assert opened[0].closed and not pads.devices


def test_two_pads_at_once():
    pads = Gamepads(DZ, lambda index: (index, FakeController()))
    pads.handle(added(0))
    pads.handle(added(1))
    pads.handle(button(pygame.CONTROLLER_BUTTON_DPAD_RIGHT, pad=0))
    pads.handle(button(pygame.CONTROLLER_BUTTON_A, pad=1))
    assert pads.held() == Held(right=True, jump=True)
    pads.handle(removed(0))
    assert pads.held() == Held(jump=True)


def test_the_same_pad_reported_twice_is_opened_once():
    devices = []

    def opener(index):
        devices.append(FakeController())
        return 7, devices[-1]

    pads = Gamepads(DZ, opener)
    pads.handle(added(0))
    pads.handle(button(pygame.CONTROLLER_BUTTON_A, pad=7))
    pads.handle(added(0))
    assert pads.devices == {7: devices[0]} and pads.held().jump


def test_added_and_removed_events_without_any_device():
    """SDL's real controller support, with no pad behind the events: nothing breaks."""
    pygame.init()
    pads = Gamepads.start(DZ)
    assert pads.handle(added(5)) is None  # no such device: quietly left out
    assert pads.handle(removed(12345)) is None  # never seen: nothing to forget
    assert pads.devices == {} and pads.held() == Held()
    pads.handle(button(pygame.CONTROLLER_BUTTON_DPAD_LEFT, pad=3))
    assert pads.held().left
    pads.handle(removed(3))
    assert pads.held() == Held()


def test_no_controller_support_means_no_pads_and_no_error(monkeypatch):
    from pygame._sdl2 import controller

    def broken():
        raise pygame.error("No controller subsystem")

    monkeypatch.setattr(controller, "init", broken)
    pads = Gamepads.start(DZ)
    assert pads.handle(added(0)) is None and pads.devices == {}


# ----------------------------------------------------------------------------------------------
# In the window: the same buttons do what their keys do
# ----------------------------------------------------------------------------------------------

def test_pad_buttons_in_the_app(cfg):
    app = App(cfg, FIRST, max_frames=1)
    names = resolvers.names()
    first = app.world.resolver.name
    app.handle_event(button(pygame.CONTROLLER_BUTTON_RIGHTSHOULDER))
    assert app.world.resolver.name == names[(names.index(first) + 1) % len(names)]
    app.handle_event(button(pygame.CONTROLLER_BUTTON_LEFTSHOULDER))
    assert app.world.resolver.name == first
    app.handle_event(button(pygame.CONTROLLER_BUTTON_START))
    assert app.play.paused
    app.handle_event(button(pygame.CONTROLLER_BUTTON_A))
    assert not app.play.jump_tapped, "a jump pressed while paused is not kept for the resume"
    app.handle_event(button(pygame.CONTROLLER_BUTTON_START))
    assert not app.play.paused
    p = app.world.player
    p.x += 40
    app.handle_event(button(pygame.CONTROLLER_BUTTON_BACK))
    assert (p.x, p.y) == app.world.spawn_xy and not app.play.paused
    app.handle_event(button(pygame.CONTROLLER_BUTTON_A))
    assert app.play.jump_tapped  # a tap between two ticks still jumps
    app.run()
    pygame.init()


def test_pad_runs_and_jumps_through_the_same_input_frames(cfg):
    app = App(cfg, FIRST, max_frames=1, frame_time=1 / 60)
    w = app.world
    for _ in range(30):  # settle on the ground
        w.step(app.play.keys_seq.frame(Held()))
    assert w.player.on_ground
    x = w.player.x
    for e in stick(32767, 0):
        app.handle_event(e)
    for _ in range(20):
        app.frame(1 / 60)
    assert w.player.x > x + 10, "the stick runs right"
    app.handle_event(button(pygame.CONTROLLER_BUTTON_A))
    app.frame(1 / 60)
    assert w.player.vy < 0 and not w.player.on_ground, "A jumps"
    app.handle_event(button(pygame.CONTROLLER_BUTTON_A, down=False))
    for e in stick(0, 0):
        app.handle_event(e)
    assert app.pads.held() == Held()
    pygame.quit()
    pygame.init()
