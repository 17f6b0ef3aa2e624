"""The keyboard and the pads' buttons as tables: what a press asks for, and what held keys hold.

A press becomes an *action*, a short name (``"pause"``, ``"jump"``, ``"next_resolver"``...) that
the play scene carries out, whichever device it came from: :data:`KEY_ACTIONS` for keys,
:data:`PAD_ACTIONS` for a controller's buttons (game.view.pad reads the stick and the d-pad).
Keys held down during a tick become the tick's :class:`Held` (:func:`held_keys`), which an
``InputSequencer`` turns into the simulation's ``InputFrame``, as it does a script's.

Nothing here needs a window: the tables are plain data, the functions plain functions of them.
"""

from __future__ import annotations

import pygame

from game.sim.inputs import Held

# The keys held down that make up a tick's input, by Held's field.
HELD_KEYS: dict[str, tuple[int, ...]] = {
    "left": (pygame.K_LEFT, pygame.K_a),
    "right": (pygame.K_RIGHT, pygame.K_d),
    "up": (pygame.K_UP, pygame.K_w),
    "down": (pygame.K_DOWN, pygame.K_s),
    "jump": (pygame.K_SPACE, pygame.K_z),
    "throw": (pygame.K_x, pygame.K_f),
}

# What a key press asks for once. Up jumps on a press as the jump keys do ('=' is the unshifted
# '+' on most layouts).
KEY_ACTIONS: dict[int, str] = {
    pygame.K_ESCAPE: "title",
    pygame.K_p: "pause",
    pygame.K_q: "quit",
    pygame.K_PERIOD: "step",
    pygame.K_t: "slow_motion",
    pygame.K_g: "ghosts",
    pygame.K_F11: "fullscreen",
    pygame.K_TAB: "next_resolver",
    pygame.K_F3: "debug",
    pygame.K_h: "help",
    pygame.K_F1: "help",
    pygame.K_r: "reload",
    pygame.K_BACKSPACE: "restart",
    pygame.K_m: "mute",
    pygame.K_MINUS: "volume_down",
    pygame.K_KP_MINUS: "volume_down",
    pygame.K_EQUALS: "volume_up",
    pygame.K_PLUS: "volume_up",
    pygame.K_KP_PLUS: "volume_up",
    pygame.K_HOME: "first_level",
    **{k: "jump" for k in HELD_KEYS["jump"] + HELD_KEYS["up"]},
    **{k: "throw" for k in HELD_KEYS["throw"]},
}
# With Shift held, a key asks for the other way round (Shift+Tab: the previous resolver).
SHIFTED: dict[str, str] = {"next_resolver": "previous_resolver"}

# What a controller's button press asks for once (SDL's names: A is the south button).
PAD_ACTIONS: dict[int, str] = {
    pygame.CONTROLLER_BUTTON_START: "pause",
    pygame.CONTROLLER_BUTTON_BACK: "restart",
    pygame.CONTROLLER_BUTTON_RIGHTSHOULDER: "next_resolver",
    pygame.CONTROLLER_BUTTON_LEFTSHOULDER: "previous_resolver",
    pygame.CONTROLLER_BUTTON_A: "jump",  # a tap between two ticks still jumps, as a key tap does
    pygame.CONTROLLER_BUTTON_X: "throw",
}

# Actions that only change the view or the clock: a key asking for one does not take control
# back from a demo (--input in the window), so a demo can be watched paused, stepped, slowed,
# with the debug view. Of a pad's buttons only pause leaves the demo playing.
VIEW_ACTIONS = frozenset({"debug", "help", "ghosts", "pause", "step", "slow_motion",
                          "fullscreen", "mute", "next_resolver", "previous_resolver",
                          "volume_down", "volume_up"})
PAD_VIEW_ACTIONS = frozenset({"pause"})
# Actions that count only while paused ('.' steps one tick, Q quits from the pause), and those
# that count only while running (a jump tapped while paused is not kept for the resume).
WHILE_PAUSED = frozenset({"step", "quit"})
WHILE_RUNNING = frozenset({"jump", "throw"})
VOLUME_STEPS = {"volume_down": -0.1, "volume_up": 0.1}  # of full volume


def key_action(key: int, mod: int = 0) -> str | None:
    """The action a key press asks for (``mod``: the modifier keys held), None for none."""
    action = KEY_ACTIONS.get(key)
    if action is not None and mod & pygame.KMOD_SHIFT:
        return SHIFTED.get(action, action)
    return action


def pad_action(button: int) -> str | None:
    """The action a controller's button press asks for, None for none."""
    return PAD_ACTIONS.get(button)


def takes_over(action: str | None, from_pad: bool = False) -> bool:
    """Whether a press asking for ``action`` (None: a key with no action, such as an arrow)
    hands control back from a demo to the player."""
    return action not in (PAD_VIEW_ACTIONS if from_pad else VIEW_ACTIONS)


def applies(action: str, paused: bool) -> bool:
    """Whether ``action`` counts now: some only while paused, some only while running."""
    if action in WHILE_PAUSED:
        return paused
    if action in WHILE_RUNNING:
        return not paused
    return True


def held_keys(pressed, jump_tapped: bool = False, throw_tapped: bool = False) -> Held:
    """The keyboard as one snapshot for a tick: ``pressed`` is indexed by key code (as
    ``pygame.key.get_pressed()``); a jump or throw tapped between two ticks counts as held."""
    def any_of(field: str) -> bool:
        return any(pressed[k] for k in HELD_KEYS[field])

    return Held(left=any_of("left"), right=any_of("right"), up=any_of("up"),
                down=any_of("down"), jump=any_of("jump") or jump_tapped,
                throw=any_of("throw") or throw_tapped)
