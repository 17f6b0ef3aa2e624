"""``game.config``: defaults < the config file < map properties < the command line."""

from __future__ import annotations

import dataclasses
import json
import re
import shutil
import tomllib
from dataclasses import dataclass, fields
from pathlib import Path

import pytest

from game import config as cfgmod
from game import resolvers
from game.cli import main
from game.config import (Config, DisplayConfig, PhysicsConfig, PlayerConfig, load,
                         with_map_properties)
from game.errors import UserError
from game.maps.level import load_level
from game.resolvers.axis import AxisResolver

DATA = Path(__file__).parent / "data"
ROOT = Path(__file__).resolve().parent.parent


def write(tmp_path: Path, text: str, name: str = "c.toml") -> Path:
    p = tmp_path / name
    p.write_text(text, "utf-8")
    return p


def error_of(tmp_path: Path, text: str) -> UserError:
    p = write(tmp_path, text)
    with pytest.raises(UserError) as info:
        load(p)
    assert Path(info.value.where) == p
    return info.value


# ----------------------------------------------------------------------------------------------
# Defaults and overriding
# ----------------------------------------------------------------------------------------------

def test_defaults():
    c = Config()
    assert c.resolver == "axis"
    assert c.physics.tick_rate == 60.0
    assert c.physics.dt == pytest.approx(1 / 60)
    assert c.physics.gravity == 1500.0
    assert c.physics.jump_speed == 410.0
    assert c.physics.run_speed == 130.0
    assert c.physics.coyote_time == 0.1 and c.physics.jump_buffer == 0.1
    assert (c.player.width, c.player.height) == (12.0, 14.0)
    assert c.display.vsync is True and c.display.fullscreen is False
    assert dict(c.resolvers) == {}


def test_every_field_has_a_unit():
    for cls in (PhysicsConfig, PlayerConfig, DisplayConfig, cfgmod.AudioConfig,
                cfgmod.GamepadConfig):
        for name, _default, unit in cfgmod.describe_fields(cls):
            assert unit, f"{cls.__name__}.{name} has no unit"


def test_empty_file_gives_the_defaults(tmp_path):
    c = load(write(tmp_path, "# nothing\n"))
    assert c.physics == PhysicsConfig()
    assert c.player == PlayerConfig()
    assert c.display == DisplayConfig()
    assert c.resolver == "axis"


def test_file_overrides_only_the_keys_it_names(tmp_path):
    c = load(write(tmp_path, "[physics]\ngravity = 1000\n\n[display]\nvsync = false\n"))
    assert c.physics.gravity == 1000.0 and isinstance(c.physics.gravity, float)
    assert c.display.vsync is False
    # everything else is left alone
    for f in fields(PhysicsConfig):
        if f.name != "gravity":
            assert getattr(c.physics, f.name) == getattr(PhysicsConfig(), f.name), f.name
    assert c.player == PlayerConfig()
    assert c.display.width == DisplayConfig().width


def test_level_in_the_file_is_relative_to_the_file(tmp_path):
    (tmp_path / "sub").mkdir()
    c = load(write(tmp_path / "sub", 'level = "maps/a.tmx"\n'))
    assert Path(c.level) == tmp_path / "sub" / "maps" / "a.tmx"


def test_default_level_is_relative_to_the_repository(tmp_path):
    c = load(write(tmp_path, ""))
    assert Path(c.level) == ROOT / Config().level


# ----------------------------------------------------------------------------------------------
# Mistakes in the file
# ----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text,key", [
    ("[physics]\ngravty = 1000\n", "gravty"),
    ("[player]\ncolour = 'red'\n", "colour"),
    ("[display]\nfps = 60\n", "fps"),
    ("speed = 3\n", "speed"),
    ("[sound]\nvolume = 1\n", "sound"),
])
def test_unknown_key_is_an_error_naming_it(tmp_path, text, key):
    err = error_of(tmp_path, text)
    assert key in err.message
    assert "unknown" in err.message


def test_unknown_key_lists_the_known_ones(tmp_path):
    err = error_of(tmp_path, "[physics]\ngravty = 1000\n")
    assert "gravity" in err.message


@pytest.mark.parametrize("text,key", [
    ("[physics]\ngravity = true\n", "gravity"),           # bool is not a number
    ("[physics]\ngravity = '1500'\n", "gravity"),         # a string is not a number
    ("[physics]\nrun_speed = [1, 2]\n", "run_speed"),
    ("[player]\nwidth = false\n", "width"),
    ("[display]\nwidth = 1280.5\n", "width"),             # not a whole number
    ("[display]\nscale = true\n", "scale"),               # bool is not a whole number either
    ("[display]\nvsync = 1\n", "vsync"),                  # a number is not true/false
    ("[display]\nfullscreen = 'yes'\n", "fullscreen"),
    ("resolver = 3\n", "resolver"),
    ("level = true\n", "level"),
    ("physics = 3\n", "physics"),
])
def test_wrong_type_is_an_error_naming_the_key(tmp_path, text, key):
    err = error_of(tmp_path, text)
    assert key in err.message


@pytest.mark.parametrize("text,key", [
    ("[physics]\ntick_rate = 5\n", "tick_rate"),
    ("[physics]\ntick_rate = 1001\n", "tick_rate"),
    ("[physics]\ngravity = 0\n", "gravity"),            # must be strictly positive
    ("[physics]\ngravity = -10\n", "gravity"),
    ("[physics]\nmax_fall_speed = 0\n", "max_fall_speed"),
    ("[physics]\nrun_speed = -1\n", "run_speed"),
    ("[physics]\njump_cut = 1.5\n", "jump_cut"),
    ("[physics]\ncoyote_time = -0.1\n", "coyote_time"),
    ("[physics]\ndrop_through_time = 0\n", "drop_through_time"),
    ("[physics]\ngravity = inf\n", "gravity"),
    ("[physics]\ngravity = nan\n", "gravity"),
    ("[player]\nwidth = 0\n", "width"),
    ("[display]\nwidth = 100\n", "width"),
    ("[display]\nscale = 17\n", "scale"),
    ("[display]\nmax_ticks_per_frame = 0\n", "max_ticks_per_frame"),
])
def test_out_of_range_is_an_error_naming_the_key(tmp_path, text, key):
    err = error_of(tmp_path, text)
    assert key in err.message


@pytest.mark.parametrize("text,key,value", [
    ("[physics]\ntick_rate = 10\n", "tick_rate", 10.0),       # inclusive bounds
    ("[physics]\ntick_rate = 1000\n", "tick_rate", 1000.0),
    ("[physics]\nrun_speed = 0\n", "run_speed", 0.0),
    ("[physics]\njump_cut = 1\n", "jump_cut", 1.0),
    ("[physics]\njump_cut = 0\n", "jump_cut", 0.0),
    ("[physics]\ncoyote_time = 0\n", "coyote_time", 0.0),
    ("[physics]\ngravity = 100\n", "gravity", 100.0),
    ("[physics]\ndrop_through_time = 0.1\n", "drop_through_time", 0.1),
])
def test_values_at_the_bounds_are_accepted(tmp_path, text, key, value):
    assert getattr(load(write(tmp_path, text)).physics, key) == value


def test_bad_toml_is_an_error(tmp_path):
    err = error_of(tmp_path, "[physics\ngravity = 1\n")
    assert "TOML" in err.message


def test_missing_config_file_is_an_error(tmp_path):
    with pytest.raises(UserError) as info:
        load(tmp_path / "none.toml")
    assert "none.toml" in str(info.value)
    assert "not found" in info.value.message


def test_unknown_resolver_names_the_choices(tmp_path):
    err = error_of(tmp_path, 'resolver = "magic"\n')
    assert "magic" in err.message
    for name in resolvers.names():
        assert name in err.message


# ----------------------------------------------------------------------------------------------
# [resolvers.<name>] tables
# ----------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class FakeOptions:
    depth: int = 2
    eager: bool = False
    ratio: float = 0.5


class FakeResolver(AxisResolver):
    """The axis resolver under another name, with options to check."""

    name = "fake"
    Options = FakeOptions

    def __init__(self, options=None):
        super().__init__(None)
        self.options = options or FakeOptions()


@pytest.fixture
def fake(monkeypatch):
    monkeypatch.setitem(resolvers.REGISTRY, "fake", FakeResolver)
    return FakeResolver


def test_resolver_table_sets_its_options(tmp_path, fake):
    c = load(write(tmp_path, "[resolvers.fake]\ndepth = 5\n"))
    assert c.resolver_options("fake") == FakeOptions(depth=5)
    assert c.resolver_options("axis") == resolvers.REGISTRY["axis"].Options()


@pytest.mark.parametrize("table,key", [
    ("depth = 2.5", "depth"), ("depth = true", "depth"), ("eager = 1", "eager"),
    ("ratio = 'half'", "ratio"), ("speed = 3", "speed"),
])
def test_resolver_table_is_checked_against_its_options(tmp_path, fake, table, key):
    err = error_of(tmp_path, f"[resolvers.fake]\n{table}\n")
    assert key in err.message
    assert "resolvers.fake" in err.message


def test_resolver_table_for_an_unknown_resolver(tmp_path):
    err = error_of(tmp_path, "[resolvers.nosuch]\nx = 1\n")
    assert "nosuch" in err.message


def _toml_literal(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    return json.dumps(value)


@pytest.mark.parametrize("name", resolvers.names())
def test_every_registered_resolver_accepts_its_own_defaults(tmp_path, name):
    cls = resolvers.REGISTRY[name]
    defaults = cls.Options()
    lines = [f"{f.name} = {_toml_literal(getattr(defaults, f.name))}" for f in fields(cls.Options)]
    c = load(write(tmp_path, f"[resolvers.{name}]\n" + "\n".join(lines) + "\n"))
    assert c.resolver_options(name) == defaults
    err = error_of(tmp_path, f"[resolvers.{name}]\nno_such_option_here = 1\n")
    assert "no_such_option_here" in err.message


@pytest.mark.parametrize("name", resolvers.names())
def test_every_registered_resolver_rejects_wrong_types(tmp_path, name):
    cls = resolvers.REGISTRY[name]
    for f in fields(cls.Options):
        default = getattr(cls.Options(), f.name)
        wrong = '"text"' if not isinstance(default, str) else "1"
        err = error_of(tmp_path, f"[resolvers.{name}]\n{f.name} = {wrong}\n")
        assert f.name in err.message


@pytest.mark.parametrize("text", [
    'resolver = "axis"\n[resolver.axis]\nx = 1\n',
    '[resolver.axis]\nx = 1\n',
])
def test_singular_resolver_table_gives_the_hint(tmp_path, text):
    err = error_of(tmp_path, text)
    assert "[resolvers.<name>]" in err.message


@pytest.mark.parametrize(("line", "fixed"), [("vsync = true", "vsync = yes"),
                                              ('# resolver = "axis"', "resolver = sweep")])
def test_a_syntax_error_in_the_shipped_file_gets_the_quotes_hint_not_the_tables_one(
        tmp_path, line, fixed):
    # The shipped config.toml's own comments mention [resolver.<name>]: they must not count.
    text = (ROOT / "config.toml").read_text("utf-8")
    assert "[resolver.<name>]" in text and line in text
    err = error_of(tmp_path, text.replace(line, fixed, 1))
    assert "TOML" in err.message
    assert "[resolvers.<name>]" not in err.message
    assert 'in quotes (resolver = "sweep"' in err.message and "true or false" in err.message


@pytest.mark.parametrize(("written", "meant"), [("Axis", "axis"), ("SWEEP", "sweep"),
                                                (" pixel ", "pixel")])
def test_resolver_names_are_read_in_any_case(tmp_path, written, meant):
    p = tmp_path / "c.toml"
    p.write_text(f'resolver = "{written}"\n', "utf-8")
    assert load(p).resolver == meant


@pytest.mark.parametrize(("written", "guess"), [("swep", "sweep"), ("corner", "corners"),
                                                ("Overlaps", "overlap")])
def test_an_unknown_resolver_gets_a_did_you_mean(tmp_path, written, guess):
    err = error_of(tmp_path, f'resolver = "{written}"\n')
    assert "did you mean " in err.message
    assert guess in err.message.split("did you mean ")[1].split("?")[0]
    assert all(n in err.message for n in resolvers.names())
    err = error_of(tmp_path, f"[resolvers.{written}]\n")
    assert f"[resolvers.{guess}]" in err.message.split("did you mean ")[1]


def test_a_name_like_no_resolver_gets_no_guess(tmp_path):
    err = error_of(tmp_path, 'resolver = "quantum"\n')
    assert "did you mean" not in err.message and "axis" in err.message


def test_duplicate_key_error_does_not_talk_about_resolvers(tmp_path):
    err = error_of(tmp_path, "[physics]\ngravity = 1\ngravity = 2\n")
    assert "TOML" in err.message
    assert "resolver" not in err.message


# ----------------------------------------------------------------------------------------------
# Map properties
# ----------------------------------------------------------------------------------------------

def test_map_properties_override_physics_keys():
    c = Config()
    out = with_map_properties(c, {"gravity": 900.0, "jump_speed": 300, "title": "x",
                                  "next_level": "b.tmx"}, "m.tmx")
    assert out.physics.gravity == 900.0
    assert out.physics.jump_speed == 300.0
    assert out.physics.run_speed == c.physics.run_speed
    assert out.player == c.player and out.display == c.display
    assert with_map_properties(c, {"title": "x"}, "m.tmx") == c


@pytest.mark.parametrize("props,key", [
    ({"gravity": "heavy"}, "gravity"), ({"run_speed": True}, "run_speed"),
    ({"gravity": -1.0}, "gravity"), ({"tick_rate": 5}, "tick_rate"),
])
def test_badly_typed_map_property_is_an_error_naming_the_map(props, key):
    with pytest.raises(UserError) as info:
        with_map_properties(Config(), props, "levels/a.tmx")
    assert info.value.where == "levels/a.tmx"
    assert key in info.value.message


def map_with_properties(tmp_path: Path, props: str, name: str = "m.tmx") -> Path:
    shutil.copy(DATA / "tiles4.png", tmp_path / "tiles4.png")
    text = (DATA / "flat.tmx").read_text("utf-8")
    head, sep, rest = text.partition("\n <tileset")
    path = tmp_path / name
    path.write_text(f"{head}\n <properties>{props}</properties>{sep}{rest}", "utf-8")
    return path


def test_map_property_from_a_tmx_overrides_the_config_file(tmp_path):
    cfg = load(write(tmp_path, "[physics]\ngravity = 1000\njump_speed = 300\n"))
    path = map_with_properties(tmp_path, '<property name="jump_speed" type="float" value="350"/>')
    level = load_level(path)
    physics = with_map_properties(cfg, level.properties, level.path).physics
    assert physics.jump_speed == 350.0  # map over config file
    assert physics.gravity == 1000.0  # config file over defaults
    assert physics.run_speed == PhysicsConfig().run_speed  # defaults


def test_string_map_property_is_an_error_naming_the_map(tmp_path):
    path = map_with_properties(tmp_path, '<property name="gravity" value="lots"/>')
    level = load_level(path)
    with pytest.raises(UserError) as info:
        with_map_properties(Config(), level.properties, level.path)
    assert Path(info.value.where).name == "m.tmx"
    assert "gravity" in info.value.message


# ----------------------------------------------------------------------------------------------
# Precedence through the command line: defaults < config file < map properties < command line
# ----------------------------------------------------------------------------------------------

def run_cli(tmp_path: Path, *args: str) -> list[dict]:
    script = write(tmp_path, "0 right\n", "right.txt")
    trace = tmp_path / "trace.jsonl"
    rc = main(["--headless", "--ticks", "90", "--input", str(script), "--trace", str(trace),
               *args])
    assert rc == 0
    return [json.loads(line) for line in trace.read_text().splitlines()]


def test_precedence_through_the_command_line(tmp_path, fake, capsys):
    plain = map_with_properties(tmp_path, "", "plain.tmx")
    slow = map_with_properties(tmp_path, '<property name="run_speed" type="float" value="60"/>',
                               "slow.tmx")
    cfg = write(tmp_path, 'resolver = "fake"\n[physics]\nrun_speed = 100\n')
    empty = write(tmp_path, "", "empty.toml")

    # defaults only
    recs = run_cli(tmp_path, "--config", str(empty), "--level", str(plain))
    assert max(r["vx"] for r in recs) == PhysicsConfig().run_speed
    assert {r["resolver"] for r in recs} == {"axis"}
    # the config file beats the defaults
    recs = run_cli(tmp_path, "--config", str(cfg), "--level", str(plain))
    assert max(r["vx"] for r in recs) == 100.0
    assert {r["resolver"] for r in recs} == {"fake"}
    # the map's property beats the config file
    recs = run_cli(tmp_path, "--config", str(cfg), "--level", str(slow))
    assert max(r["vx"] for r in recs) == 60.0
    # the command line beats the config file
    recs = run_cli(tmp_path, "--config", str(cfg), "--level", str(slow), "--resolver", "axis")
    assert {r["resolver"] for r in recs} == {"axis"}
    assert max(r["vx"] for r in recs) == 60.0


def test_level_from_the_config_file_is_used_and_command_line_level_wins(tmp_path, capsys):
    shutil.copy(DATA / "tiles4.png", tmp_path / "tiles4.png")
    shutil.copy(DATA / "flat.tmx", tmp_path / "a.tmx")
    cfg = write(tmp_path, 'level = "a.tmx"\n')
    assert main(["--headless", "--ticks", "1", "--config", str(cfg)]) == 0
    assert "a.tmx" in capsys.readouterr().out
    assert main(["--headless", "--ticks", "1", "--config", str(cfg),
                 "--level", str(tmp_path / "nope.tmx")]) == 2
    assert "nope.tmx" in capsys.readouterr().err


# ----------------------------------------------------------------------------------------------
# The repository's config.toml
# ----------------------------------------------------------------------------------------------

# Accepted ways of writing each unit in a comment.
UNIT_SPELLINGS = {
    "Hz": [r"\bHz\b", r"ticks? per second", r"ticks?/s\b"],
    "px/s^2": [r"px/s(\^2|²|/s)", r"px per second squared", r"pixels per second squared",
               r"px/s2\b"],
    "px/s": [r"px/s\b", r"px per second", r"pixels per second"],
    "s": [r"(?<![\w/])s\b", r"\bsec(ond)?s?\b"],
    "px": [r"\bpx\b", r"\bpixels?\b"],
    "fraction": [r"fraction", r"\b0(\.0)?\s*(\.\.|-|to|–)\s*1(\.0)?\b", r"ratio", r"%"],
}


def unit_key(unit: str) -> str:
    first = unit.split()[0].rstrip(":")
    return first if first in UNIT_SPELLINGS else unit.split(":")[0]


def key_comments(text: str) -> dict[tuple[str, str], str]:
    """(section, key) -> its comment: the comment on its line and the comment lines right above."""
    out: dict[tuple[str, str], str] = {}
    section = ""
    above: list[str] = []
    for raw in text.splitlines():
        line = raw.strip()
        m = re.fullmatch(r"\[\s*([\w.\-]+)\s*\]", line)
        if m:
            section, above = m.group(1), []
            continue
        m = re.match(r"#?\s*([A-Za-z_][\w-]*)\s*=\s*[^#]*(#.*)?$", line)
        if m and "=" in line.split("#", 1)[0 if not line.startswith("#") else 1]:
            out.setdefault((section, m.group(1)), " ".join(above + [m.group(2) or ""]))
            above = []
            continue
        if line.startswith("#"):
            above.append(line)
        else:
            above = []
    return out


CONFIG_TOML = ROOT / "config.toml"


@pytest.mark.skipif(not CONFIG_TOML.exists(),
                    reason="config.toml is not in the repository root (yet)")
def test_repository_config_toml_parses_and_documents_units():
    c = load(CONFIG_TOML)
    assert c.resolver in resolvers.names()
    data = tomllib.loads(CONFIG_TOML.read_text("utf-8"))
    assert isinstance(data, dict)
    comments = key_comments(CONFIG_TOML.read_text("utf-8"))
    missing, unitless = [], []
    for section, cls in (("physics", PhysicsConfig), ("player", PlayerConfig)):
        for name, _default, unit in cfgmod.describe_fields(cls):
            comment = comments.get((section, name))
            if comment is None:
                missing.append(f"[{section}] {name}")
                continue
            patterns = UNIT_SPELLINGS.get(unit_key(unit), [re.escape(unit)])
            if not any(re.search(p, comment, re.IGNORECASE) for p in patterns):
                unitless.append(f"[{section}] {name} (unit {unit!r}; comment {comment!r})")
    assert not missing, f"config.toml does not mention: {missing}"
    assert not unitless, f"config.toml comments without the unit: {unitless}"


def test_key_comment_reader_understands_both_comment_styles():
    text = ("[physics]\n# px/s^2, pulls down\ngravity = 1500\n"
            "run_speed = 130  # px/s\n\n# no key below\n\n[player]\n# width = 12  # px\n")
    got = key_comments(text)
    assert "px/s^2" in got[("physics", "gravity")]
    assert "px/s" in got[("physics", "run_speed")]
    assert "px" in got[("player", "width")]


# Keys config.toml shows only as comments (``# key = default``), so that the settings the game
# remembers (game/runs/settings.py) apply: a key written out in the config file wins over them.
REMEMBERED = {("", "resolver"), ("", "level"), ("display", "width"), ("display", "height"),
              ("audio", "volume")}


def commented_keys(text: str) -> dict[tuple[str, str], object]:
    """(section, key) -> value of each ``# key = value`` line."""
    out: dict[tuple[str, str], object] = {}
    section = ""
    for raw in text.splitlines():
        line = raw.strip()
        m = re.fullmatch(r"\[\s*([\w.\-]+)\s*\]", line)
        if m:
            section = m.group(1)
            continue
        m = re.fullmatch(r"#\s*([A-Za-z_]\w*)\s*=\s*(\"[^\"]*\"|[\w.+\-]+)\s*(#.*)?", line)
        if m:
            out[(section, m.group(1))] = tomllib.loads(f"v = {m.group(2)}")["v"]
    return out


def test_repository_config_toml_leaves_the_remembered_keys_as_comments_with_their_defaults():
    text = CONFIG_TOML.read_text("utf-8")
    data = tomllib.loads(text)
    shown = commented_keys(text)
    for section, key in REMEMBERED:
        table = data.get(section, {}) if section else data
        assert key not in table, f"{key} is set in config.toml: remembered settings never apply"
    assert shown[("", "resolver")] == cfgmod.Config().resolver
    assert shown[("", "level")] == cfgmod.Config().level
    assert shown[("display", "width")] == cfgmod.DisplayConfig().width
    assert shown[("display", "height")] == cfgmod.DisplayConfig().height
    assert shown[("audio", "volume")] == cfgmod.AudioConfig().volume


def test_repository_config_toml_shows_every_key_with_its_default_and_a_comment():
    """config.toml is the documentation: every key is in it, commented, with the default value."""
    text = CONFIG_TOML.read_text("utf-8")
    data = tomllib.loads(text)
    comments = key_comments(text)
    tables = [("physics", PhysicsConfig, data["physics"]), ("player", PlayerConfig, data["player"]),
              ("display", cfgmod.DisplayConfig, data["display"]),
              ("audio", cfgmod.AudioConfig, data["audio"]),
              ("gamepad", cfgmod.GamepadConfig, data["gamepad"])]
    for name in resolvers.names():
        opts = resolvers.REGISTRY[name].Options
        if dataclasses.fields(opts):
            tables.append((f"resolvers.{name}", opts, data["resolvers"][name]))
    for section, cls, table in tables:
        for f in dataclasses.fields(cls):
            assert comments.get((section, f.name), "").strip("# "), f"[{section}] {f.name} has no comment"
            if (section, f.name) in REMEMBERED:
                continue  # shown as a comment: see the test above
            assert f.name in table, f"[{section}] {f.name} is not in config.toml"
            assert table[f.name] == getattr(cls(), f.name), f"[{section}] {f.name} is not the default"


def test_repository_config_toml_states_the_range_of_each_physics_and_player_key():
    comments = key_comments(CONFIG_TOML.read_text("utf-8"))
    for section, cls in (("physics", PhysicsConfig), ("player", PlayerConfig)):
        for f in dataclasses.fields(cls):
            comment = comments[(section, f.name)]
            for bound in (f.metadata["lo"], f.metadata["hi"]):
                assert bound is not None, f"[{section}] {f.name} has no range"
                number = re.escape(f"{bound:g}")
                assert re.search(rf"(?<![\d.]){number}(?![\d.])", comment), \
                    f"[{section}] {f.name}: {bound:g} is not in its comment {comment!r}"


@pytest.mark.parametrize("text,words", [
    ("[physics]\njump_speed = 5001\n", "jump_speed must be from 0 to 5000 (px/s), not 5001.0"),
    ("[physics]\ngravity = 0\n", "gravity must be from 100 to 100000 (px/s^2), not 0.0"),
    ("[player]\nheight = 257\n", "height must be from 1 to 256 (px), not 257.0"),
    ("[display]\nwidth = 100\n", "width must be from 320 to 7680 (px), not 100"),
])
def test_an_out_of_range_error_states_the_range(tmp_path, text, words):
    assert words in error_of(tmp_path, text).message


@pytest.mark.parametrize("key", ["gravity", "max_fall_speed", "run_speed", "jump_speed",
                                 "ground_accel", "air_decel"])
def test_values_at_the_upper_bounds_are_accepted(tmp_path, key):
    hi = next(f for f in fields(PhysicsConfig) if f.name == key).metadata["hi"]
    assert getattr(load(write(tmp_path, f"[physics]\n{key} = {hi!r}\n")).physics, key) == hi


def test_a_huge_map_property_is_refused_with_its_range():
    with pytest.raises(UserError) as info:
        with_map_properties(Config(), {"jump_speed": 1e7}, "levels/fast.tmx")
    assert "levels/fast.tmx" in str(info.value) and "from 0 to 5000" in str(info.value)


@pytest.mark.parametrize("typo,key", [("gravty", "gravity"), ("jumpspeed", "jump_speed"),
                                      ("tickrate", "tick_rate")])
def test_a_map_property_one_typo_away_from_a_physics_key_is_an_error(typo, key):
    with pytest.raises(UserError) as info:
        with_map_properties(Config(), {typo: 700.0}, "levels/moon.tmx")
    assert "levels/moon.tmx" in str(info.value) and key in str(info.value)


def test_other_map_properties_are_the_authors_business():
    c = Config()
    assert with_map_properties(c, {"title": "x", "music": "song.ogg", "speed": 3}, "m.tmx") == c
