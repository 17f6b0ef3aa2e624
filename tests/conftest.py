"""Shared test set-up: no real window or sound device, and hypothesis profiles."""

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
# Never the real user's remembered settings (game/runs/settings.py): a test that wants them removes
# this and points the config folder at its tmp_path.
os.environ["TILECOLLIDE_NO_SETTINGS"] = "1"

from hypothesis import HealthCheck, settings  # noqa: E402

settings.register_profile("default", deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("ci", parent=settings.get_profile("default"), max_examples=300,
                          derandomize=True)
settings.load_profile("ci" if os.environ.get("CI") else "default")
