"""The input mapping (game.view.keymap): keys and pad buttons to actions, held keys to the
tick's Held and InputFrame, which presses take a demo over. Plain data: no window here."""

from __future__ import annotations

import pygame
import pytest

from game.sim.inputs import Held, InputFrame, InputSequencer
from game.view import keymap
from game.view.keymap import (HELD_KEYS, KEY_ACTIONS, PAD_ACTIONS, applies, held_keys,
                              key_action, pad_action, takes_over)
from game.view.pad import action_of


class Keys(dict):
    """What pygame.key.get_pressed() answers: by key code, False for keys not down."""

    def __getitem__(self, k):
        return self.get(k, False)


def pressed(*keys: int) -> Keys:
    return Keys({k: True for k in keys})


@pytest.mark.parametrize("key, action", [
    (pygame.K_ESCAPE, "title"), (pygame.K_p, "pause"), (pygame.K_q, "quit"),
    (pygame.K_PERIOD, "step"), (pygame.K_t, "slow_motion"), (pygame.K_g, "ghosts"),
    (pygame.K_F11, "fullscreen"), (pygame.K_TAB, "next_resolver"), (pygame.K_F3, "debug"),
    (pygame.K_h, "help"), (pygame.K_F1, "help"), (pygame.K_r, "reload"),
    (pygame.K_BACKSPACE, "restart"), (pygame.K_m, "mute"), (pygame.K_MINUS, "volume_down"),
    (pygame.K_KP_MINUS, "volume_down"), (pygame.K_EQUALS, "volume_up"),
    (pygame.K_PLUS, "volume_up"), (pygame.K_KP_PLUS, "volume_up"),
    (pygame.K_HOME, "first_level"), (pygame.K_SPACE, "jump"), (pygame.K_z, "jump"),
    (pygame.K_UP, "jump"), (pygame.K_w, "jump"), (pygame.K_x, "throw"), (pygame.K_f, "throw"),
])
def test_each_key_asks_for_its_action(key, action):
    assert key_action(key) == action


@pytest.mark.parametrize("key", [pygame.K_LEFT, pygame.K_RIGHT, pygame.K_a, pygame.K_d,
                                 pygame.K_DOWN, pygame.K_s, pygame.K_k, pygame.K_RETURN])
def test_moving_and_unbound_keys_ask_for_nothing_on_a_press(key):
    assert key_action(key) is None


def test_shift_tab_is_the_previous_resolver_and_shift_changes_nothing_else():
    assert key_action(pygame.K_TAB, pygame.KMOD_LSHIFT) == "previous_resolver"
    assert key_action(pygame.K_TAB, pygame.KMOD_RSHIFT) == "previous_resolver"
    assert key_action(pygame.K_TAB, pygame.KMOD_CTRL) == "next_resolver"
    for key, action in KEY_ACTIONS.items():
        if action != "next_resolver":
            assert key_action(key, pygame.KMOD_SHIFT) == action


@pytest.mark.parametrize("button, action", [
    (pygame.CONTROLLER_BUTTON_START, "pause"), (pygame.CONTROLLER_BUTTON_BACK, "restart"),
    (pygame.CONTROLLER_BUTTON_RIGHTSHOULDER, "next_resolver"),
    (pygame.CONTROLLER_BUTTON_LEFTSHOULDER, "previous_resolver"),
    (pygame.CONTROLLER_BUTTON_A, "jump"), (pygame.CONTROLLER_BUTTON_X, "throw"),
])
def test_each_pad_button_asks_for_its_action_through_the_one_table(button, action):
    assert pad_action(button) == action
    down = pygame.event.Event(pygame.CONTROLLERBUTTONDOWN, instance_id=0, button=button)
    up = pygame.event.Event(pygame.CONTROLLERBUTTONUP, instance_id=0, button=button)
    assert action_of(down) == action and action_of(up) is None


def test_pad_buttons_without_an_action_ask_for_nothing():
    for button in (pygame.CONTROLLER_BUTTON_B, pygame.CONTROLLER_BUTTON_Y,
                   pygame.CONTROLLER_BUTTON_DPAD_LEFT, pygame.CONTROLLER_BUTTON_GUIDE):
        assert pad_action(button) is None


def test_the_action_sets_name_only_actions_of_the_tables():
    named = (keymap.VIEW_ACTIONS | keymap.PAD_VIEW_ACTIONS | keymap.WHILE_PAUSED
             | keymap.WHILE_RUNNING | set(keymap.SHIFTED.values()) | set(keymap.VOLUME_STEPS))
    assert named <= set(KEY_ACTIONS.values()) | set(PAD_ACTIONS.values())


def test_keys_that_only_change_the_view_leave_a_demo_playing():
    watching = (pygame.K_F3, pygame.K_h, pygame.K_F1, pygame.K_g, pygame.K_p, pygame.K_PERIOD,
                pygame.K_t, pygame.K_F11, pygame.K_m, pygame.K_TAB, pygame.K_MINUS,
                pygame.K_KP_MINUS, pygame.K_EQUALS, pygame.K_PLUS, pygame.K_KP_PLUS)
    for key in watching:
        assert not takes_over(key_action(key)), pygame.key.name(key)
    assert not takes_over(key_action(pygame.K_TAB, pygame.KMOD_SHIFT))
    for key in (pygame.K_LEFT, pygame.K_SPACE, pygame.K_x, pygame.K_ESCAPE, pygame.K_q,
                pygame.K_r, pygame.K_BACKSPACE, pygame.K_HOME, pygame.K_k):
        assert takes_over(key_action(key)), pygame.key.name(key)


def test_every_pad_button_but_start_takes_a_demo_over():
    for button, action in PAD_ACTIONS.items():
        assert takes_over(action, from_pad=True) == (action != "pause"), action


def test_step_and_quit_count_only_paused_jump_and_throw_only_running():
    for action in ("step", "quit"):
        assert applies(action, paused=True) and not applies(action, paused=False)
    for action in ("jump", "throw"):
        assert applies(action, paused=False) and not applies(action, paused=True)
    for action in ("pause", "title", "restart", "debug", "first_level"):
        assert applies(action, paused=True) and applies(action, paused=False)


@pytest.mark.parametrize("field", sorted(HELD_KEYS))
def test_each_held_key_holds_its_field_alone(field):
    for key in HELD_KEYS[field]:
        held = held_keys(pressed(key))
        assert held == Held(**{field: True}), pygame.key.name(key)


def test_nothing_held_is_an_empty_held_and_taps_count_as_held():
    assert held_keys(Keys()) == Held()
    assert held_keys(Keys(), jump_tapped=True) == Held(jump=True)
    assert held_keys(Keys(), throw_tapped=True) == Held(throw=True)
    assert held_keys(pressed(pygame.K_a, pygame.K_d, pygame.K_s)) == Held(left=True, right=True,
                                                                          down=True)


def test_held_keys_make_the_ticks_input_frames():
    """Held keys tick after tick, through the sequencer, as the play scene feeds them."""
    seq = InputSequencer()
    ticks = [pressed(pygame.K_RIGHT), pressed(pygame.K_RIGHT, pygame.K_SPACE),
             pressed(pygame.K_RIGHT, pygame.K_SPACE), pressed(pygame.K_LEFT, pygame.K_x),
             pressed(pygame.K_s, pygame.K_w), Keys()]
    frames = [seq.frame(held_keys(k)) for k in ticks]
    assert frames == [
        InputFrame(move=1),
        InputFrame(move=1, jump_held=True, jump_pressed=True, jump_key=True,
                   jump_key_pressed=True),  # pressed on its first tick only
        InputFrame(move=1, jump_held=True, jump_key=True),
        InputFrame(move=-1, throw_pressed=True),
        # Up (W) jumps too (but climbs on a ladder: ``up``, and not the jump key itself)
        InputFrame(down=True, jump_held=True, jump_pressed=True, up=True),
        InputFrame(),
    ]
