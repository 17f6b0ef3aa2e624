"""The title screen on SDL's dummy driver: the level list, choosing, starting, going back."""

import os
import shutil
from dataclasses import replace
from pathlib import Path

import pygame
import pytest

from game import cli, config, resolvers
from game.runs import settings as st
from game.maps.level import load_level
from game.runs.progress import time_text
from game.view.app import App
from game.view.title import MAX_LEVELS, TITLE_HEAD, list_levels, read_title

ROOT = Path(__file__).resolve().parent.parent
LEVELS = ROOT / "levels"
SHIPPED = sorted(LEVELS.glob("*.tmx"))


@pytest.fixture
def cfg():
    c = config.load(ROOT / "config.toml")
    return replace(c, display=replace(c.display, width=640, height=360, vsync=False))


@pytest.fixture
def title(cfg):
    app = App(cfg, SHIPPED[0], title=True, levels_dir=LEVELS, frame_time=1 / 60)
    yield app
    pygame.quit()
    pygame.init()


def press(app: App, *keys: int) -> None:
    """The keys as events, then one frame: the way a player's keys arrive."""
    for k in keys:
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode="",
                                             scancode=0))
    app.frame(1 / 60)


def test_the_title_lists_the_shipped_levels_with_their_titles(title):
    title.frame(1 / 60)
    screen = title.title_screen
    assert screen is not None and title.world is None
    assert [e.path for e in screen.levels] == [p.resolve() for p in SHIPPED]
    titles = [load_level(p).title for p in SHIPPED]
    assert [e.title for e in screen.levels] == titles
    assert all(t in screen.drawn_text for t in titles)
    assert "tilecollide" in screen.drawn_text and screen.resolver in screen.drawn_text
    summary = resolvers.describe(screen.resolver)["summary"]
    assert summary.split()[0] in " ".join(screen.drawn_text)
    assert pygame.display.get_caption()[0] == "tilecollide"


def test_choosing_a_level_and_a_resolver_then_enter_plays_them(title):
    names = resolvers.names()
    first = title.title_screen.resolver
    press(title, pygame.K_DOWN, pygame.K_RIGHT, pygame.K_RETURN)
    assert title.title_screen is None
    assert title.world.level.path.resolve() == SHIPPED[1].resolve()
    assert title.world.resolver.name == names[(names.index(first) + 1) % len(names)]
    press(title)  # a play frame runs
    assert title.world.tick > 0 or title.play.clock.acc >= 0


def test_up_wraps_and_space_also_starts(title):
    press(title, pygame.K_UP, pygame.K_LEFT, pygame.K_SPACE)
    assert title.world.level.path.resolve() == SHIPPED[-1].resolve()
    assert title.world.resolver.name == resolvers.names()[-1]


def test_esc_in_play_goes_back_to_the_title_and_esc_there_quits(title):
    press(title, pygame.K_DOWN, pygame.K_RETURN)
    press(title, pygame.K_TAB)  # a resolver changed in play is the one the title shows
    in_play = title.world.resolver.name
    press(title, pygame.K_ESCAPE)
    screen = title.title_screen
    assert screen is not None and title.running
    assert screen.selected.path == SHIPPED[1].resolve() and screen.resolver == in_play
    assert screen.backdrop is not None and screen.backdrop.level is title.world.level
    press(title)
    assert "Every Tile" in screen.drawn_text
    press(title, pygame.K_ESCAPE)
    assert not title.running


def test_p_pauses_and_esc_from_the_pause_goes_to_the_title(title):
    press(title, pygame.K_RETURN, pygame.K_p)
    assert title.play.paused
    press(title, pygame.K_ESCAPE)
    assert title.title_screen is not None and not title.play.paused


def test_a_completed_level_is_marked_done(title):
    press(title, pygame.K_RETURN)
    title.play.complete_level()
    press(title, pygame.K_ESCAPE)
    screen = title.title_screen
    assert screen.progress.done(SHIPPED[0]) and screen.progress.count_done(SHIPPED) == 1
    press(title)
    ticks = title.world.tick  # the frame Enter was pressed in ran a tick or so
    best = [t for t in screen.drawn_text if t.startswith("best ")]
    assert best == [f"best {time_text(ticks / 60)}"]
    assert any("1 finished" in t for t in screen.drawn_text)


def test_a_broken_level_shows_its_error_on_the_title_and_nothing_crashes(cfg, tmp_path):
    levels = tmp_path / "levels"
    shutil.copytree(LEVELS, levels)
    shutil.copytree(ROOT / "assets", tmp_path / "assets")
    (levels / "00_broken.tmx").write_text('<?xml version="1.0"?>\n<map><properties>'
                                          '<property name="title" value="Half Saved"/>')
    app = App(cfg, levels / "00_broken.tmx", title=True, levels_dir=levels)
    try:
        screen = app.title_screen
        assert screen.backdrop is None  # the selected level does not load: a plain backdrop
        assert screen.levels[0].title == "Half Saved"
        press(app, pygame.K_RETURN)
        assert app.title_screen is screen and app.world is None and app.running
        line = screen.error_line
        assert line.startswith("error: ") and "00_broken.tmx" in line
        press(app)
        shown = [t for t in screen.drawn_text if t.startswith("error: ")]
        assert len(shown) == 1 and line.startswith(shown[0])
        press(app, pygame.K_DOWN, pygame.K_RETURN)  # another level still starts
        assert app.title_screen is None and app.world.level.title == "First Steps"
    finally:
        pygame.quit()
        pygame.init()


def test_a_level_that_breaks_a_library_is_an_error_line_too(cfg, tmp_path):
    bad = tmp_path / "01_bad.tmx"
    bad.write_bytes(b"\x00" * 10)
    app = App(cfg, bad, title=True, levels_dir=tmp_path)
    try:
        press(app, pygame.K_RETURN)
        assert app.title_screen.error_line.startswith(f"error: {bad}")
    finally:
        pygame.quit()
        pygame.init()


def test_an_empty_folder_shows_a_title_that_says_so(cfg, tmp_path):
    app = App(cfg, tmp_path / "none.tmx", title=True, levels_dir=tmp_path)
    try:
        press(app, pygame.K_RETURN, pygame.K_DOWN)
        assert app.title_screen is not None and app.title_screen.selected is None
        assert any("no .tmx files" in t for t in app.title_screen.drawn_text)
    finally:
        pygame.quit()
        pygame.init()


def test_the_mouse_picks_and_starts_a_level(title):
    title.frame(1 / 60)
    index, rect = title.title_screen.row_rects[2]
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=rect.center, button=1))
    title.frame(1 / 60)
    assert title.world.level.path.resolve() == SHIPPED[index].resolve()


def test_the_title_fits_small_and_large_windows(cfg):
    for size in ((320, 180), (1920, 1080)):
        c = replace(cfg, display=replace(cfg.display, width=size[0], height=size[1]))
        app = App(c, SHIPPED[0], title=True, levels_dir=LEVELS)
        try:
            for _ in range(3):
                app.frame(1 / 60)
            win = app.window.get_rect()
            assert app.title_screen.row_rects and all(win.contains(r) for _, r in
                                                      app.title_screen.row_rects)
        finally:
            pygame.quit()
            pygame.init()


def test_the_backdrop_pans(title):
    backdrop = title.title_screen.backdrop
    view = (320, 180)
    start = backdrop.origin(view)
    backdrop.t += 5.0
    assert backdrop.origin(view)[0] > start[0]
    assert backdrop.origin(view)[1] == start[1]


# --- starting: what shows the title ------------------------------------------------------------

def test_level_and_headless_skip_the_title():
    parse = cli.make_parser().parse_args
    assert cli.setup(parse([])).title
    assert not cli.setup(parse(["--level", str(SHIPPED[1])])).title
    assert not cli.setup(parse(["--headless", "--ticks", "1"])).title


def test_the_window_remembers_the_level_resolver_and_size(cfg, tmp_path, monkeypatch):
    monkeypatch.delenv(st.NO_SETTINGS_ENV, raising=False)
    path = tmp_path / "tilecollide" / "settings.toml"
    store = st.Store(path)
    app = App(cfg, SHIPPED[0], title=True, levels_dir=LEVELS, store=store, max_frames=2,
              frame_time=1 / 60)
    press(app, pygame.K_DOWN, pygame.K_DOWN, pygame.K_RIGHT, pygame.K_RETURN)
    chosen = app.world.resolver.name
    saved = st.load(path, pytest.fail)
    assert saved.level == str(SHIPPED[2].resolve()) and saved.resolver == chosen
    app.run()
    pygame.init()
    saved = st.load(path, pytest.fail)
    assert (saved.window_width, saved.window_height) == (640, 360)
    # The next start: the title selects what was remembered.
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    s = cli.setup(cli.make_parser().parse_args([]))
    assert s.config.resolver == chosen and s.level_path == SHIPPED[2].resolve()
    c = replace(s.config, display=replace(s.config.display, vsync=False))
    app = App(c, s.level_path, title=True, levels_dir=s.levels_dir)
    try:
        assert app.title_screen.index == 2 and app.title_screen.resolver == chosen
    finally:
        pygame.quit()
        pygame.init()


# --- reading titles cheaply ----------------------------------------------------------------------

def test_a_level_without_a_title_is_listed_by_its_file_name(tmp_path):
    (tmp_path / "05_deep_cave.tmx").write_text('<?xml version="1.0"?>\n<map><tileset/></map>')
    assert read_title(tmp_path / "05_deep_cave.tmx") == "05 deep cave"


@pytest.mark.parametrize("text", [
    '<!DOCTYPE map [<!ENTITY a "x">]><map><properties><property name="title" value="&a;"/>',
    "not xml at all <<<",
    '<notamap><properties><property name="title" value="No"/></properties></notamap>',
])
def test_odd_files_fall_back_to_the_file_name(tmp_path, text):
    (tmp_path / "odd_one.tmx").write_text(text)
    assert read_title(tmp_path / "odd_one.tmx") == "odd one"


def test_only_the_head_of_a_huge_file_is_read(tmp_path):
    big = tmp_path / "big.tmx"
    with open(big, "wb") as f:
        f.write(b'<?xml version="1.0"?>\n<map><properties><property name="title" value="Big"/>'
                b"</properties>")
        f.write(b" " * (TITLE_HEAD * 50))
    assert read_title(big) == "Big"
    late = tmp_path / "late.tmx"
    late.write_bytes(b"<map>" + b" " * TITLE_HEAD + b'<properties><property name="title" '
                     b'value="Late"/></properties></map>')
    assert read_title(late) == "late"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes on this system")
def test_a_pipe_named_like_a_level_does_not_block_the_title(tmp_path):
    os.mkfifo(tmp_path / "pipe.tmx")
    assert [(e.path.name, e.title) for e in list_levels(tmp_path)] == [("pipe.tmx", "pipe")]


def test_the_list_is_bounded(tmp_path):
    for i in range(MAX_LEVELS + 5):
        (tmp_path / f"{i:04}.tmx").write_bytes(b"")
    assert len(list_levels(tmp_path)) == MAX_LEVELS


def test_the_level_list_stays_still_while_the_name_bobs(title):
    """What the player points at never moves: the name bobs, the rows do not."""
    screen = title.title_screen
    rows = []
    for t in (0.0, 0.785, 2.356):  # the bob at 0, its top and its bottom
        screen.t = t
        title.frame(0.0)
        rows.append([r.copy() for _, r in screen.row_rects])
    assert rows[0] == rows[1] == rows[2] and rows[0]
