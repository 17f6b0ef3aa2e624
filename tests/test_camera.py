"""``game.camera``: where the view's top-left lands, in whole map pixels."""

from __future__ import annotations

import pytest

from game.camera import camera_axis, camera_origin, px

VIEW = (320, 180)
WORLD = (1600, 800)


@pytest.mark.parametrize("value,want", [
    (0.0, 0), (0.49, 0), (0.5, 1), (1.5, 2), (2.5, 3), (2.4999, 2), (7.0, 7),
    (-0.49, 0), (-0.5, 0), (-0.51, -1), (-1.5, -1), (-2.5, -2), (-2.6, -3),
])
def test_px_rounds_half_up(value, want):
    assert px(value) == want
    assert isinstance(px(value), int)


def test_centred_on_the_target():
    x, y = camera_origin((800.0, 400.0), VIEW, WORLD)
    assert (x, y) == (800 - 160, 400 - 90)
    # the target sits at the middle of the view
    assert (800 - x, 400 - y) == (VIEW[0] // 2, VIEW[1] // 2)


def test_centred_on_a_fractional_target_uses_px():
    assert camera_origin((800.5, 400.49), VIEW, WORLD) == (801 - 160, 400 - 90)


@pytest.mark.parametrize("target,want", [
    ((10.0, 400.0), (0, 310)),             # left edge
    ((1590.0, 400.0), (1600 - 320, 310)),  # right edge
    ((800.0, 5.0), (640, 0)),              # top edge
    ((800.0, 790.0), (640, 800 - 180)),    # bottom edge
    ((-500.0, -500.0), (0, 0)),            # far outside, top-left
    ((5000.0, 5000.0), (1280, 620)),       # far outside, bottom-right
])
def test_clamped_at_the_edges(target, want):
    assert camera_origin(target, VIEW, WORLD) == want


def test_just_inside_the_clamp_is_not_clamped():
    assert camera_axis(160.0, 320, 1600) == 0
    assert camera_axis(161.0, 320, 1600) == 1
    assert camera_axis(1600 - 160.0, 320, 1600) == 1280
    assert camera_axis(1600 - 161.0, 320, 1600) == 1279


def test_map_smaller_than_the_view_is_centred():
    # 200 x 100 map in a 320 x 180 view: 60 px margin left and right, 40 above and below
    for target in [(0.0, 0.0), (100.0, 50.0), (199.0, 99.0), (-50.0, 500.0)]:
        assert camera_origin(target, VIEW, (200, 100)) == (-60, -40)


def test_map_equal_to_the_view_does_not_move():
    for t in (0.0, 160.0, 320.0):
        assert camera_axis(t, 320, 320) == 0


def test_odd_margins_differ_by_at_most_one_pixel():
    origin = camera_axis(0.0, 320, 101)
    left_margin = -origin
    right_margin = 320 - (101 + left_margin)
    assert abs(left_margin - right_margin) <= 1


def test_axes_are_independent():
    # narrower than the view but taller: x is centred, y follows the target
    x, y = camera_origin((10.0, 500.0), VIEW, (200, 1000))
    assert x == -60
    assert y == 500 - 90
    # wider but shorter
    x, y = camera_origin((700.0, 10.0), VIEW, (1000, 100))
    assert x == 700 - 160
    assert y == -40


def test_no_jitter_for_sub_pixel_motion():
    """A target moving by small steps always lands at the same screen pixel while not clamped."""
    offsets = set()
    t, ty = 400.0, 300.0
    for _ in range(2000):
        t += 0.137
        ty -= 0.071
        ox, oy = camera_origin((t, ty), VIEW, WORLD)
        offsets.add((px(t) - ox, px(ty) - oy))
    assert offsets == {(VIEW[0] // 2, VIEW[1] // 2)}


def test_no_jitter_for_a_sprite_offset_from_the_target():
    """A sprite drawn at target + a fixed fraction keeps one screen position too."""
    offsets = set()
    for i in range(1000):
        t = 300.0 + i * 0.3
        origin = camera_axis(t, 320, 1600)
        offsets.add(px(t - 6.0) - origin)  # e.g. the hitbox's left edge, target at its centre
    assert offsets == {160 - 6}


def test_negative_and_fractional_steps_never_move_the_view_by_more_than_one_pixel():
    prev = camera_axis(800.0, 320, 1600)
    t = 800.0
    for _ in range(500):
        t -= 0.9
        cur = camera_axis(t, 320, 1600)
        assert prev - cur in (0, 1)
        prev = cur
