"""The end-of-level card in the window: what it says about the run, when it goes, what it leaves
behind (the best times on the title screen, next run too)."""

from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path

import pygame
import pytest

from game import cli, config
from game.runs import settings as st
from game.runs.progress import Summary, time_text
from game.view.app import App
from game.view.hud import CARD_COMPLETE, CARD_DONE, HudInfo, card_rows, draw_hud
from game.view.painter import TextPainter
from game.view.surfaces import Recent

ROOT = Path(__file__).resolve().parent.parent
LEVELS = sorted((ROOT / "levels").glob("*.tmx"))


@pytest.fixture
def cfg():
    c = config.load(ROOT / "config.toml")
    return replace(c, display=replace(c.display, width=960, height=540, vsync=False,
                                      hot_reload=False))


@pytest.fixture(autouse=True)
def fresh_pygame():
    yield
    pygame.quit()
    pygame.init()


def key(k):
    return pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode="", scancode=0)


def reach_goal(app: App, ticks: int = 0) -> None:
    """Run ``ticks`` ticks where the player stands, then step onto the goal."""
    for _ in range(ticks):
        app.play.tick_once()
    goal = app.world.level.goals[0]
    p = app.world.player
    p.x, p.y, p.vx, p.vy = goal.x + 1, goal.y + goal.h - p.h - 1, 0.0, 0.0
    app.play.tick_once()
    app.play.update(0.0)  # the scene sees the goal: the card


def test_the_card_says_the_time_coins_deaths_and_resolver(cfg):
    app = App(cfg, ROOT / "levels" / "05_features.tmx", max_frames=1, frame_time=1 / 60)
    w = app.world
    for _ in range(10):
        app.play.tick_once()
    p = w.player
    p.x, p.y = 16 * 16.0, 12 * 16.0 - p.h  # into the spikes (cols 15-17, on row 11)
    app.play.tick_once()
    assert p.respawning
    for _ in range(80):  # the respawn delay, then standing
        app.play.tick_once()
    app.handle_event(key(pygame.K_TAB))  # another resolver for the rest of the run
    reach_goal(app)
    card = app.play.card
    assert card is not None and app.play.banner is None
    assert card.title == "Level 5: Living Level"
    assert card.time == pytest.approx(w.tick / 60) and card.deaths == 1
    assert card.coins == (len(w.flow.coins), w.flow.coins_total) and card.coins[1] == 16
    assert card.resolvers == ("axis", w.resolver.name) and w.resolver.name != "axis"
    assert card.best_before is None and card.new_best
    rows = {label: value for label, value, _ in card_rows(card)}
    assert rows["time"] == f"{time_text(card.time)}   first finish"
    assert rows["coins"] == f"{card.coins[0]} / 16" and rows["deaths"] == "1"
    assert rows["resolvers"] == f"axis, {w.resolver.name}"
    # Not the last level by file name: it goes on at the next, and not everything is done.
    assert not card.wrapped and rows["next"] == "Level 6: Ladders"
    assert rows["finished"] == f"1 of {len(LEVELS)} levels"
    app.play.draw(0.0)
    texts = [t for t, _ in app.play.text.drawn]
    assert CARD_COMPLETE in texts and CARD_DONE not in texts


def test_all_levels_done_only_when_every_level_is_finished(cfg):
    last = LEVELS[-1]
    app = App(cfg, last, max_frames=1)
    for path in LEVELS[:-2]:
        app.shared.progress.finish(path, 10.0, "axis")
    reach_goal(app)
    assert app.play.card.wrapped and not app.play.card.all_done  # one level still unfinished
    app.play.restart()
    assert app.play.card is None and app.play.pending_level is None  # a new run
    app.shared.progress.finish(LEVELS[-2], 10.0, "axis")
    reach_goal(app)
    assert app.play.card.all_done
    app.play.draw(0.0)
    assert CARD_DONE in [t for t, _ in app.play.text.drawn]


def test_a_slower_run_shows_the_best_and_a_faster_one_a_new_best(cfg):
    app = App(cfg, LEVELS[0], max_frames=1)
    reach_goal(app, 30)
    first = app.play.card.time
    app.play.restart()
    reach_goal(app, 60)
    card = app.play.card
    assert card.best_before == first and not card.new_best
    assert card_rows(card)[0][1].endswith(f"best {time_text(first)}")
    app.play.restart()
    reach_goal(app, 5)
    assert app.play.card.new_best and app.shared.progress.best_time(LEVELS[0]) < first


def test_enter_goes_on_at_once_and_the_card_waits_for_it_otherwise(cfg):
    app = App(cfg, LEVELS[0], max_frames=1, frame_time=1 / 60)
    reach_goal(app)
    for _ in range(30):  # half a second: still on the card
        app.frame(1 / 60)
    assert app.world.level.path == LEVELS[0] and app.play.card is not None
    app.handle_event(key(pygame.K_RETURN))
    app.frame(1 / 60)
    assert app.world.level.path.name == LEVELS[1].name and app.play.card is None


def test_the_card_keeps_clear_of_the_player():
    from game import resolvers
    from game.sim.world import load_world

    pygame.display.init()
    pygame.font.init()
    cfg = config.Config()
    world = load_world(LEVELS[0], cfg, resolvers.create("axis"))
    card = Summary("Level 1: First Steps", 11.0, (3, 4), 2, ("axis",), 12.0, 1, 5,
                   "Level 2: Every Tile", False)
    for at in ((460, 200), (460, 330), (100, 500), (800, 40)):
        player = pygame.Rect(at, (36, 42))
        surface = pygame.Surface((960, 540))
        painter = TextPainter(Recent())
        draw_hud(painter, surface, HudInfo(world=world, scale=2, player=player, card=card))
        drawn = dict(painter.drawn)
        assert CARD_COMPLETE in drawn and "new best! (was 12.00 s)" in " ".join(drawn)
        assert not any(r.colliderect(player) for r in painter.panels), at


@pytest.mark.slow
def test_best_times_are_remembered_and_shown_on_the_next_runs_title(cfg, tmp_path,
                                                                    monkeypatch):
    monkeypatch.delenv(st.NO_SETTINGS_ENV, raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    levels = tmp_path / "levels"
    shutil.copytree(ROOT / "levels", levels)
    shutil.copytree(ROOT / "assets", tmp_path / "assets")
    store = st.Store(st.settings_path())
    app = App(cfg, levels / LEVELS[0].name, title=True, levels_dir=levels, store=store,
              max_frames=1, frame_time=1 / 60)
    app.handle_event(key(pygame.K_DOWN))
    app.handle_event(key(pygame.K_RETURN))
    reach_goal(app, 90)
    best = app.play.card.time
    # Saved at once, not only when the game closes: a crash later keeps it.
    saved = st.load(st.settings_path(), pytest.fail)
    assert [(Path(f.level).name, f.best_time, f.resolver) for f in saved.finished] == [
        (LEVELS[1].name, best, app.world.resolver.name)]
    app.run()
    pygame.init()
    # The next run: the title screen shows it.
    s = cli.setup(cli.make_parser().parse_args([]))
    c = replace(s.config, display=replace(s.config.display, vsync=False))
    again = App(c, levels / LEVELS[0].name, title=True, levels_dir=levels, store=s.store,
                max_frames=1, frame_time=1 / 60)
    again.frame(1 / 60)
    shown = again.title_screen.drawn_text
    assert f"best {time_text(best)}" in shown
    assert any("1 finished" in t for t in shown)
