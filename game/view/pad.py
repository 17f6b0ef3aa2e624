"""Game controllers as data: SDL's controller events in, held keys (:class:`Held`) and actions out.

SDL's game-controller API names buttons by where they sit on an Xbox pad, whatever the make: A is
the south button, B the east one, and so on. The mapping:

=====================  =====================================================
d-pad or left stick    run left / right
d-pad down or stick    down (with jump: drop through a one-way platform)
A (south)              jump, held for a higher jump
X (west)               throw a spear
right / left shoulder  next / previous resolver (Tab / Shift+Tab)
Start                  pause (Esc)
Back (Select, View)    restart the level (Backspace)
=====================  =====================================================

The stick counts only past the dead zone (a fraction of full tilt, ``[gamepad] dead_zone``), so a
worn stick resting off-centre does not walk. It counts as down only when it points more down
than sideways: running with the stick a little low must not turn a jump into a drop. Neither the
stick nor the d-pad jumps by pointing up (on the keyboard Up does): a jump is A. Up climbs a
ladder (``Held.climb``).

What a button press asks for is looked up in game.view.keymap's ``PAD_ACTIONS``, the same
table module as the keys', so that both go through one set of actions.

Everything here but :class:`Gamepads`'s default device opener is plain functions of events, so
tests feed it ``pygame.event.Event`` objects of the controller types and need no device. The
pads' keys are OR-ed with the keyboard's (:func:`either`); the sum goes through the same
``InputSequencer`` as the keyboard alone did, so the simulation cannot tell them apart.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields

import pygame

from game.sim.inputs import Held
from game.view.keymap import pad_action

AXIS_FULL = 32767  # SDL's axis values run from -32768 to 32767
JUMP_BUTTON = pygame.CONTROLLER_BUTTON_A
THROW_BUTTON = pygame.CONTROLLER_BUTTON_X
DPAD = {pygame.CONTROLLER_BUTTON_DPAD_LEFT: "left", pygame.CONTROLLER_BUTTON_DPAD_RIGHT: "right",
        pygame.CONTROLLER_BUTTON_DPAD_DOWN: "down", pygame.CONTROLLER_BUTTON_DPAD_UP: "climb"}
@dataclass(frozen=True, slots=True)
class PadState:
    """One controller: the buttons down and the left stick, each axis from -1 to 1 (y down)."""

    buttons: frozenset[int] = frozenset()
    x: float = 0.0
    y: float = 0.0


RESTING = PadState()


def axis_value(raw: int) -> float:
    """An SDL axis reading as a fraction of full tilt, -1 to 1."""
    return max(-1.0, min(1.0, raw / AXIS_FULL))


def updated(state: PadState, e: pygame.event.Event) -> PadState:
    """``state`` after the controller event ``e`` (other events, other axes: unchanged)."""
    if e.type == pygame.CONTROLLERBUTTONDOWN:
        return PadState(state.buttons | {e.button}, state.x, state.y)
    if e.type == pygame.CONTROLLERBUTTONUP:
        return PadState(state.buttons - {e.button}, state.x, state.y)
    if e.type == pygame.CONTROLLERAXISMOTION:
        if e.axis == pygame.CONTROLLER_AXIS_LEFTX:
            return PadState(state.buttons, axis_value(e.value), state.y)
        if e.axis == pygame.CONTROLLER_AXIS_LEFTY:
            return PadState(state.buttons, state.x, axis_value(e.value))
    return state


def held_of(state: PadState, dead_zone: float) -> Held:
    """The keys one controller holds: d-pad and left stick (past ``dead_zone``), A and X."""
    b = state.buttons
    pressed = {DPAD[button] for button in b if button in DPAD}
    x, y = state.x, state.y
    return Held(left="left" in pressed or (x < 0 and x <= -dead_zone),
                right="right" in pressed or (x > 0 and x >= dead_zone),
                down="down" in pressed or (y > abs(x) and y >= dead_zone),
                jump=JUMP_BUTTON in b, throw=THROW_BUTTON in b,
                climb="climb" in pressed or (-y > abs(x) and -y >= dead_zone))


def action_of(e: pygame.event.Event) -> str | None:
    """What a button press asks for once: ``pause``, ``restart``, ``next_resolver``,
    ``previous_resolver``, ``jump`` or ``throw``; None for anything else."""
    if e.type == pygame.CONTROLLERBUTTONDOWN:
        return pad_action(e.button)  # the table is game.view.keymap's, beside the keys'
    return None


def either(a: Held, b: Held) -> Held:
    """A key is held if either source holds it: the keyboard and the pads play at once."""
    return Held(*(getattr(a, f.name) or getattr(b, f.name) for f in fields(Held)))


def open_controller(device_index: int) -> tuple[int, object]:
    """Open SDL's controller ``device_index``: (its instance id, the open controller).

    Raises ``pygame.error`` if there is no such controller (unplugged again already).
    """
    from pygame._sdl2 import controller

    pad = controller.Controller(device_index)
    return pad.as_joystick().get_instance_id(), pad


class Gamepads:
    """The controllers plugged in, by SDL instance id, and what each one holds.

    Hot-plug: SDL reports every controller with ``CONTROLLERDEVICEADDED``, those plugged in at
    start too, and the device is opened then; ``CONTROLLERDEVICEREMOVED`` forgets it and what it
    held, so a pad pulled out mid-run lets go of its keys. A device that cannot be opened (gone
    again, or not a controller) is left out without a word.
    """

    def __init__(self, dead_zone: float,
                 opener: Callable[[int], tuple[int, object]] | None = open_controller) -> None:
        self.dead_zone = dead_zone
        self._open = opener  # None: no controller support here, events are still read
        self.devices: dict[int, object] = {}
        self.states: dict[int, PadState] = {}

    @classmethod
    def start(cls, dead_zone: float) -> Gamepads:
        """Start SDL's controller support; where it cannot start, no pads (and no error)."""
        try:
            from pygame._sdl2 import controller

            pygame.joystick.init()
            controller.init()
        except (pygame.error, ImportError, NotImplementedError):
            return cls(dead_zone, None)
        return cls(dead_zone)

    def handle(self, e: pygame.event.Event) -> str | None:
        """Take in one event; return the action a button press asks for, if any."""
        if e.type == pygame.CONTROLLERDEVICEADDED:
            self._add(e.device_index)
        elif e.type == pygame.CONTROLLERDEVICEREMOVED:
            self.states.pop(e.instance_id, None)
            device = self.devices.pop(e.instance_id, None)
            if device is not None:
                try:
                    device.quit()
                except pygame.error:
                    pass  # already closed with the subsystem
        elif e.type in (pygame.CONTROLLERBUTTONDOWN, pygame.CONTROLLERBUTTONUP,
                        pygame.CONTROLLERAXISMOTION):
            self.states[e.instance_id] = updated(self.states.get(e.instance_id, RESTING), e)
            return action_of(e)
        return None

    def _add(self, device_index: int) -> None:
        if self._open is None:
            return
        try:
            instance, device = self._open(device_index)
        except pygame.error:
            return
        if instance not in self.devices:
            self.devices[instance] = device
            self.states.setdefault(instance, RESTING)

    def held(self) -> Held:
        """The keys any pad holds."""
        out = Held()
        for state in self.states.values():
            out = either(out, held_of(state, self.dead_zone))
        return out
