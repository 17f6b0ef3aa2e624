"""Synthesise the game's sound effects and save them as WAV files in assets/sounds/.

Run with `uv run python tools/make_sounds.py` (or `--out DIR` to write elsewhere). Only the
standard library: tones and noise are computed sample by sample (the noise from a fixed-seed
generator), so every run writes the same bytes.

Outputs (16-bit mono, 22,050 samples per second), in assets/sounds/:
  jump.wav         a quick upward chirp
  land.wav         a soft low thud
  respawn.wav      a rising four-note arpeggio
  coin.wav         two bright notes, the second ringing
  checkpoint.wav   a three-note chime
  stomp.wav        a falling squash with a puff of noise
  goal.wav         a short fanfare ending on a chord
  level_start.wav  two rising notes
  hurt.wav         a harsh falling buzz over a crunch of noise
  switch.wav       a lever's click: two short knocks
  door.wav         a door sliding: a low rumble gliding up
  throw.wav        a spear leaving the hand: a quick swish of noise
  stick.wav        a spear striking a wall: a wooden thunk
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import wave
from array import array

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "assets", "sounds")
RATE = 22050  # samples per second
PEAK = 0.8  # loudest sample, as a fraction of full scale: headroom for the mixer


def note(name: str) -> float:
    """The frequency of a note like 'C5' or 'F#4' (A4 = 440 Hz, equal temperament)."""
    steps = {"C": -9, "D": -7, "E": -5, "F": -4, "G": -2, "A": 0, "B": 2}[name[0]]
    steps += name.count("#") - name.count("b")
    octave = int(name.lstrip("ABCDEFG#b"))
    return 440.0 * 2.0 ** ((steps + 12 * (octave - 4)) / 12)


def wave_at(shape: str, phase: float) -> float:
    """One of the simple waveforms at ``phase`` (in cycles), from -1 to 1."""
    t = phase % 1.0
    if shape == "sine":
        return math.sin(2 * math.pi * t)
    if shape == "triangle":
        return 4 * t - 1 if t < 0.5 else 3 - 4 * t
    if shape == "square":  # a 25% pulse: thinner and brighter than a half-and-half square
        return 1.0 if t < 0.25 else -1.0
    raise ValueError(shape)


def envelope(i: int, n: int, attack: float = 0.004, curve: float = 1.0) -> float:
    """Loudness at sample ``i`` of ``n``: a short ramp up (no click), then a fall to silence."""
    a = max(1, int(attack * RATE))
    if i < a:
        return i / a
    return (1.0 - (i - a) / max(1, n - a)) ** curve


def tone(seconds: float, start_hz: float, end_hz: float | None = None, shape: str = "square",
         curve: float = 1.0, volume: float = 1.0) -> list[float]:
    """A tone gliding (exponentially) from ``start_hz`` to ``end_hz``, fading out."""
    end_hz = start_hz if end_hz is None else end_hz
    n = int(seconds * RATE)
    out, phase = [], 0.0
    for i in range(n):
        hz = start_hz * (end_hz / start_hz) ** (i / n)
        phase += hz / RATE
        out.append(volume * wave_at(shape, phase) * envelope(i, n, curve=curve))
    return out


def noise(seconds: float, smooth: float = 0.0, curve: float = 2.0, volume: float = 1.0,
          seed: int = 1) -> list[float]:
    """Fading white noise from a 32-bit linear congruential generator; ``smooth`` (0 to 1)
    dulls it (a one-pole low-pass)."""
    n = int(seconds * RATE)
    out, state, last = [], seed, 0.0
    for i in range(n):
        state = (1664525 * state + 1013904223) & 0xFFFFFFFF
        white = state / 0x7FFFFFFF - 1.0
        last = smooth * last + (1.0 - smooth) * white
        out.append(volume * last * envelope(i, n, 0.002, curve))
    return out


def mix(*parts: tuple[float, list[float]]) -> list[float]:
    """Sounds laid over each other, each starting at its time in seconds."""
    length = max(int(at * RATE) + len(s) for at, s in parts)
    out = [0.0] * length
    for at, s in parts:
        start = int(at * RATE)
        for i, v in enumerate(s):
            out[start + i] += v
    return out


def notes(names: str, each: float, last: float, shape: str, volume: float = 1.0,
          curve: float = 1.0) -> list[tuple[float, list[float]]]:
    """A run of notes, ``each`` seconds apart, the last one ringing for ``last`` seconds."""
    seq = names.split()
    return [(i * each, tone(last if i == len(seq) - 1 else each * 1.3, note(n), shape=shape,
                            curve=curve, volume=volume)) for i, n in enumerate(seq)]


def effects() -> dict[str, list[float]]:
    return {
        "jump": tone(0.14, 280, 640, "square", curve=1.5),
        "land": mix((0, tone(0.09, 150, 55, "sine", curve=2.0)),
                    (0, noise(0.06, smooth=0.85, volume=0.7))),
        "respawn": mix(*notes("C5 E5 G5 C6", 0.07, 0.2, "triangle")),
        "coin": mix((0, tone(0.07, note("B5"), shape="square", volume=0.8)),
                    (0.07, tone(0.28, note("E6"), shape="square", curve=2.0, volume=0.8))),
        "checkpoint": mix(*notes("G5 C6 E6", 0.1, 0.4, "triangle", curve=1.5)),
        "stomp": mix((0, tone(0.11, 520, 110, "square", curve=1.5)),
                     (0, noise(0.05, smooth=0.5, volume=0.6, seed=7))),
        "goal": mix(*notes("C5 E5 G5", 0.1, 0.12, "square", volume=0.7),
                    (0.3, tone(0.6, note("C6"), shape="triangle", curve=1.5)),
                    (0.3, tone(0.6, note("E6"), shape="triangle", curve=1.5)),
                    (0.3, tone(0.6, note("G6"), shape="triangle", curve=1.5))),
        "level_start": mix(*notes("G5 D6", 0.12, 0.3, "triangle", curve=1.5)),
        "hurt": mix((0, tone(0.22, 330, 90, "square", curve=1.2)),
                    (0, tone(0.22, 347, 95, "square", curve=1.2, volume=0.6)),
                    (0, noise(0.12, smooth=0.3, volume=0.8, seed=11))),
        "switch": mix((0, noise(0.025, smooth=0.2, volume=0.9, seed=3)),
                      (0, tone(0.04, 900, 700, "triangle", curve=2.0, volume=0.6)),
                      (0.06, noise(0.03, smooth=0.3, volume=0.7, seed=5)),
                      (0.06, tone(0.05, 600, 450, "triangle", curve=2.0, volume=0.5))),
        "door": mix((0, tone(0.38, 70, 120, "square", curve=0.8, volume=0.5)),
                    (0, noise(0.38, smooth=0.92, curve=0.8, volume=0.9, seed=13))),
        "throw": mix((0, noise(0.12, smooth=0.6, curve=1.0, volume=0.8, seed=17)),
                     (0, tone(0.12, 700, 1400, "sine", curve=1.5, volume=0.25))),
        "stick": mix((0, tone(0.09, 220, 140, "triangle", curve=2.0)),
                     (0, noise(0.04, smooth=0.5, volume=0.8, seed=19))),
    }


def samples16(sound: list[float]) -> array:
    """The sound scaled to ``PEAK`` of full scale as signed 16-bit little-endian samples."""
    loudest = max(abs(v) for v in sound) or 1.0
    data = array("h", (round(v / loudest * PEAK * 32767) for v in sound))
    if sys.byteorder == "big":
        data.byteswap()  # WAV samples are little-endian
    return data


def write_wav(path: str, sound: list[float]) -> None:
    with wave.open(path, "wb") as f:
        f.setnchannels(1)
        f.setsampwidth(2)
        f.setframerate(RATE)
        f.writeframes(samples16(sound).tobytes())


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=OUT, help="folder to write the WAV files to "
                    "(default: assets/sounds)")
    args = ap.parse_args(argv)
    try:
        os.makedirs(args.out, exist_ok=True)
        for name, sound in effects().items():
            path = os.path.join(args.out, f"{name}.wav")
            write_wav(path, sound)
            print(f"wrote {path} ({len(sound) / RATE:.2f} s)")
    except OSError as exc:
        print(f"error: {args.out}: cannot write the sounds there ({exc.strerror or exc}); give "
              "--out a folder you can write to", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
