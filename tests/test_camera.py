"""``game.sim.camera``: where the view's top-left lands, in whole map pixels, and how the camera
follows the player up and down (platform snapping)."""

from __future__ import annotations

import math
import re
import tomllib
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from game import config
from game.sim.camera import (
    CameraState,
    camera_axis,
    camera_origin,
    camera_start,
    camera_step,
    camera_view,
    px,
)
from game.config import CameraConfig
from game.errors import UserError

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


def test_map_smaller_than_the_view_is_centred_across_and_stands_on_the_bottom():
    # 200 x 100 map in a 320 x 180 view: 60 px margin left and right, the 80 px to spare above
    # it (a strip under its floor would show nothing: the window sizes that drop the scale)
    for target in [(0.0, 0.0), (100.0, 50.0), (199.0, 99.0), (-50.0, 500.0)]:
        assert camera_origin(target, VIEW, (200, 100)) == (-60, -80)


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
    assert y == -80


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


# ----------------------------------------------------------------------------------------------
# Platform snapping: camera_step
# ----------------------------------------------------------------------------------------------

TALL = (320, 240)  # view
BIG = (1600, 1600)  # map
CAM = CameraConfig(dead_zone_up=64, dead_zone_down=32, snap_speed=240.0)
DT = 1 / 60


def run(state, targets, on_ground, view=TALL, world=BIG, cfg=CAM, dt=DT):
    """The camera's states after each of ``targets`` (heights; x stays at 800)."""
    out = []
    for ty in targets:
        state = camera_step(state, (800.0, ty), ty if on_ground else None, dt, view, world, cfg)
        out.append(state)
    return out


def test_none_starts_on_the_target():
    s = camera_step(None, (800.0, 700.0), None, DT, TALL, BIG, CAM)
    assert s == CameraState(700.0) == camera_start((800.0, 700.0), TALL, BIG)
    assert camera_view(s, (800.0, 700.0), TALL, BIG) == camera_origin((800.0, 700.0), TALL, BIG)


def test_a_jump_inside_the_band_does_not_move_the_camera():
    # a full jump with the default physics rises 410^2 / (2 * 1500) = 56 px: inside 64
    arc = [700.0 - 56.0 * math.sin(math.pi * i / 40) for i in range(41)]
    states = run(CameraState(700.0), arc, on_ground=False)
    assert {s.y for s in states} == {700.0}
    views = {camera_view(s, (800.0, t), TALL, BIG) for s, t in zip(states, arc)}
    assert views == {(640, 700 - 120)}, "the world holds still while the player jumps"


def test_landing_higher_glides_up_at_snap_speed():
    states = run(CameraState(700.0), [652.0] * 30, on_ground=True)
    ys = [s.y for s in states]
    assert ys[0] == pytest.approx(696.0)  # 240 px/s for 1/60 s
    steps = [a - b for a, b in zip([700.0] + ys, ys)]
    assert all(0 <= d <= 4.0 + 1e-9 for d in steps), "never faster than snap_speed"
    assert ys[11] == pytest.approx(652.0) and ys[-1] == 652.0, "48 px in 0.2 s, then still"


def test_landing_lower_glides_down():
    ys = [s.y for s in run(CameraState(700.0), [720.0] * 10, on_ground=True)]
    assert ys[0] == pytest.approx(704.0) and ys[-1] == 720.0


def test_snapping_is_per_second_not_per_frame():
    at_60 = run(CameraState(700.0), [650.0] * 6, True, dt=1 / 60)
    at_30 = run(CameraState(700.0), [650.0] * 3, True, dt=1 / 30)
    assert at_60[-1].y == pytest.approx(at_30[-1].y) == pytest.approx(700.0 - 240.0 * 0.1)


def test_a_landing_glides_to_where_the_player_stands_not_to_the_drawn_blend():
    """On the landing tick the drawn target is still a blend above the floor: no dip."""
    s = CameraState(700.0)
    for drawn in (690.0, 695.0, 698.5, 700.0, 700.0):
        s = camera_step(s, (800.0, drawn), 700.0, DT, TALL, BIG, CAM)
        assert s.y == 700.0


def test_in_the_air_the_camera_does_not_glide():
    ys = [s.y for s in run(CameraState(700.0), [660.0] * 30, on_ground=False)]
    assert set(ys) == {700.0}


def test_rising_past_the_band_follows_at_once_with_the_player_on_its_edge():
    s = run(CameraState(700.0), [600.0], on_ground=False)[0]
    assert s.y == 600.0 + 64


def test_falling_past_the_band_follows_at_once():
    # falling down a pit at 480 px/s: from 32 px down, the camera keeps pace
    targets = [700.0 + 8.0 * i for i in range(1, 60)]
    states = run(CameraState(700.0), targets, on_ground=False)
    for s, t in zip(states, targets):
        assert s.y == (700.0 if t <= 732.0 else t - 32.0)


def test_the_band_is_cut_to_a_third_of_the_view():
    huge = CameraConfig(dead_zone_up=4000, dead_zone_down=4000, snap_speed=0.0)
    assert run(CameraState(700.0), [500.0], False, cfg=huge)[0].y == 500.0 + 80  # 240 // 3
    assert run(CameraState(700.0), [900.0], False, cfg=huge)[0].y == 900.0 - 80


def test_zero_dead_zones_lock_on_like_the_old_camera():
    lock = CameraConfig(dead_zone_up=0, dead_zone_down=0, snap_speed=1.0)
    state = None
    for i in range(200):
        t = (3.0 + i * 7.3, 40.0 + 700.0 * abs(math.sin(i / 9)))
        state = camera_step(state, t, t[1] + 3.0 if i % 3 == 0 else None, DT, TALL, BIG, lock)
        assert camera_view(state, t, TALL, BIG) == camera_origin(t, TALL, BIG)


def test_clamped_to_the_map_and_the_clamp_is_kept_in_the_state():
    # near the map's top the view is against the edge ...
    s = run(None, [30.0], True)[0]
    assert camera_view(s, (800.0, 30.0), TALL, BIG) == (640, 0)
    assert s.y == 120.0
    # ... and the camera stays where it would look, not up at the player: one pixel past the
    # band below that (not below where the player stood) moves the view by one pixel
    s = run(s, [120.0 + 32.0 + 1.0], False)[0]
    assert camera_view(s, (800.0, 0.0), TALL, BIG)[1] == 1
    # and at the bottom
    s = run(None, [1590.0], True)[0]
    assert camera_view(s, (800.0, 1590.0), TALL, BIG) == (640, 1600 - 240)


def test_maps_smaller_than_the_view_stay_put_centred_across_on_the_bottom():
    small = (200, 100)
    state = None
    for ty in (0.0, 50.0, 99.0, -100.0, 400.0, 60.0):
        state = camera_step(state, (100.0, ty), ty if ty == 60.0 else None, DT, TALL, small, CAM)
        assert camera_view(state, (100.0, ty), TALL, small) == (-60, 100 - TALL[1])
    # a body far above the map (nothing collides there) takes the view up with it
    assert camera_view(state, (100.0, -300.0), TALL, small)[1] == -300 - TALL[1] // 6


def test_across_the_view_stays_centred_on_the_target():
    s = CameraState(700.0)
    for tx in (400.0, 400.5, 812.25, 1000.0):
        assert camera_view(s, (tx, 690.0), TALL, BIG)[0] == px(tx) - 160


moves = st.lists(st.tuples(st.floats(-40.0, 40.0), st.booleans(), st.sampled_from([0.0, 1 / 240,
                                                                                   1 / 60, 0.25])),
                 min_size=1, max_size=80)


@given(moves=moves, start=st.floats(0.0, 1599.0),
       up=st.integers(0, 500), down=st.integers(0, 500), speed=st.floats(0.0, 5000.0),
       view_h=st.integers(12, 700))
def test_the_player_never_leaves_the_view(moves, start, up, down, speed, view_h):
    """Anywhere inside the map, whatever the tuning, the target is at least a sixth of the view
    from its top and bottom edges, or the view is against the map's edge."""
    cfg = CameraConfig(dead_zone_up=up, dead_zone_down=down, snap_speed=speed)
    view = (320, view_h)
    ty, state = start, None
    for dy, ground, dt in moves:
        ty = min(max(ty + dy, 0.0), 1599.0)
        state = camera_step(state, (800.0, ty), ty if ground else None, dt, view, BIG, cfg)
        top = camera_view(state, (800.0, ty), view, BIG)[1]
        margin = view_h // 2 - view_h // 3 - 1
        assert top <= ty < top + view_h
        assert top == 0 or px(ty) - top >= margin
        assert top == 1600 - view_h or top + view_h - px(ty) >= margin


# ----------------------------------------------------------------------------------------------
# [camera] in the config
# ----------------------------------------------------------------------------------------------

ROOT = Path(__file__).resolve().parent.parent


def test_camera_section_is_read_and_checked(tmp_path):
    f = tmp_path / "c.toml"
    f.write_text("[camera]\ndead_zone_up = 0\ndead_zone_down = 0\nsnap_speed = 90\n")
    assert config.load(f).camera == CameraConfig(0, 0, 90.0)
    for text, key in [("[camera]\ndead_zone_up = -1\n", "dead_zone_up"),
                      ("[camera]\ndead_zone_down = 8.5\n", "dead_zone_down"),
                      ("[camera]\nsnap_speed = -3\n", "snap_speed"),
                      ("[camera]\nsnap = 3\n", "snap")]:
        f.write_text(text)
        with pytest.raises(UserError) as err:
            config.load(f)
        assert key in err.value.message
    f.write_text("[camra]\n")
    with pytest.raises(UserError) as err:
        config.load(f)
    assert "[camera]" in err.value.message


def test_config_toml_documents_the_camera():
    text = (ROOT / "config.toml").read_text("utf-8")
    table = tomllib.loads(text)["camera"]
    assert config.load(ROOT / "config.toml").camera == CameraConfig() == replace(CAM)
    for name, default, unit in config.describe_fields(CameraConfig):
        assert table[name] == default
        line = next(line for line in text.splitlines() if line.startswith(f"{name} ="))
        assert unit.split(":")[0] in line.split("#", 1)[1], f"{name}: say the unit"
    assert re.search(r"dead zones 0.*lock", text, re.IGNORECASE | re.DOTALL)


# --- look-ahead and a clear top -------------------------------------------------------------------

def test_the_view_looks_ahead_of_a_running_player_and_stays_when_they_stop():
    from game.sim.camera import look_ahead
    cfg = CameraConfig(look_ahead=40, look_speed=120.0)
    ahead = 0.0
    for _ in range(10):  # 1/6 s running right: 20 px of the 40
        ahead = look_ahead(ahead, 1, 1 / 60, cfg)
    assert ahead == pytest.approx(20.0)
    for _ in range(60):
        ahead = look_ahead(ahead, 1, 1 / 60, cfg)
    assert ahead == 40.0  # never past it
    assert look_ahead(ahead, 0, 1.0, cfg) == 40.0  # standing: the view does not swing back
    for _ in range(30):  # turning round: it glides to the other side, no jump
        before, ahead = ahead, look_ahead(ahead, -1, 1 / 60, cfg)
        assert abs(ahead - before) <= 2.0 + 1e-9
    assert look_ahead(10.0, 1, 1.0, CameraConfig(look_ahead=0)) == 0.0  # 0: off


def test_the_look_ahead_moves_the_view_by_whole_pixels_and_stays_clamped():
    state = CameraState(y=300.0, ahead=39.6)
    assert camera_view(state, (500.0, 300.0), (320, 180), (2000, 600))[0] == 500 + 40 - 160
    near_edge = camera_view(state, (1990.0, 300.0), (320, 180), (2000, 600))
    assert near_edge[0] == 2000 - 320  # still against the map's right edge


def test_a_jump_that_would_reach_the_hud_is_followed():
    """With 70 px kept clear at the top of a 240 px view, the target may rise at most 50 px
    above the camera's height (not the 64 px dead zone) before the camera follows."""
    cfg = CameraConfig(dead_zone_up=64)
    view, world = (320, 240), (2000, 2000)
    state = CameraState(y=1000.0)
    free = camera_step(state, (500.0, 1000.0 - 50), None, 1 / 60, view, world, cfg, 0, 70)
    assert free.y == 1000.0
    pushed = camera_step(state, (500.0, 1000.0 - 60), None, 1 / 60, view, world, cfg, 0, 70)
    assert pushed.y == 1000.0 - 10
    top = camera_view(pushed, (500.0, 1000.0 - 60), view, world)[1]
    assert (1000.0 - 60) - top >= 70  # the target is at least clear_top below the view's top
    unclear = camera_step(state, (500.0, 1000.0 - 60), None, 1 / 60, view, world, cfg)
    assert unclear.y == 1000.0  # without it, the 64 px dead zone holds


def test_a_body_above_the_maps_top_stays_in_view():
    """Bodies may rise above the map (nothing collides there): the view rises with them past
    the top edge, keeping the HUD's room above; inside the map it stays clamped."""
    view, world = (320, 240), (2000, 240)  # a map exactly as high as the view
    state = CameraState(y=120.0)
    inside = camera_view(state, (500.0, 60.0), view, world, 30)
    assert inside[1] == 0
    near_top = camera_view(state, (500.0, 12.0), view, world, 30)
    assert near_top[1] == 12 - 30  # the head clear of the HUD, past the top edge
    assert camera_view(state, (500.0, 12.0), view, world)[1] == 0  # no HUD: clamped
    above = camera_view(state, (500.0, -20.0), view, world, 30)
    assert above[1] == -20 - 40  # a sixth of the view's height (40 px) is more than 30
    assert -20 - above[1] >= 30
