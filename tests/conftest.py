"""Shared test set-up: no real window or sound device, hypothesis profiles, and the test tiers.

Tiers: ``uv run pytest -m "not slow"`` is the quick tier a contributor runs before each commit;
``uv run pytest`` (and ``.ci/run``) runs everything. A test is ``slow`` when it is marked so, or
when one of its parameters is (see ``helpers.slow_param``).

Hypothesis example counts come from the profile named by ``TILECOLLIDE_HYPOTHESIS`` (``dev``,
the default; ``ci``, which ``.ci/run`` chooses and which the variable ``CI`` also selects; or
``thorough``), never from the tests: a test whose examples cost more than most asks for a share
of the profile's count with ``helpers.examples(weight)``.
"""

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
# Never the real user's remembered settings (game/runs/settings.py): a test that wants them removes
# this and points the config folder at its tmp_path.
os.environ["TILECOLLIDE_NO_SETTINGS"] = "1"

from hypothesis import HealthCheck, settings  # noqa: E402

PROFILES = {
    # A contributor's run: enough examples to catch a broken invariant, quickly.
    "dev": dict(max_examples=10),
    # CI: many examples, the same ones every run, so a red CI can be repeated.
    "ci": dict(max_examples=300, derandomize=True),
    # Hunting a rare case by hand: TILECOLLIDE_HYPOTHESIS=thorough uv run pytest tests/test_x.py
    "thorough": dict(max_examples=2000),
}
for _name, _values in PROFILES.items():
    settings.register_profile(_name, deadline=None, print_blob=True,
                              suppress_health_check=[HealthCheck.too_slow], **_values)


def _profile() -> str:
    chosen = os.environ.get("TILECOLLIDE_HYPOTHESIS") or ("ci" if os.environ.get("CI") else "dev")
    if chosen not in PROFILES:
        raise SystemExit(f"error: TILECOLLIDE_HYPOTHESIS={chosen!r}: use one of "
                         f"{', '.join(PROFILES)}")
    return chosen


settings.load_profile(_profile())


def pytest_report_header(config):
    return f"hypothesis profile: {settings.default.max_examples} examples ({_profile()})"


def pytest_collection_modifyitems(config, items):
    """A test that runs real Tiled (``tiled``, ``tmxrasterizer``) is slow too: each run starts Qt."""
    import pytest

    for item in items:
        if item.get_closest_marker("tiled") and not item.get_closest_marker("slow"):
            item.add_marker(pytest.mark.slow)
