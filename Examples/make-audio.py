#!/usr/bin/env python3
"""Regenerates click.wav, the sound of the AudioCustom event in audio-click.ahap.

A 60 ms click: a 1.2 kHz tone with a fast exponential decay, over a short burst of
pseudo-random noise for the attack. Mono, 16-bit, 48 kHz, about 6 KB. Uses only the
standard library, and is deterministic (the same file every run).

    python3 Examples/make-audio.py            # writes Examples/click.wav
    python3 Examples/make-audio.py OUT.wav
"""
import math
import os
import struct
import sys
import wave

RATE = 48_000
SECONDS = 0.06
TONE_HZ = 1_200.0
DECAY_S = 0.012   # time constant of the tone's decay
NOISE_S = 0.003   # length of the noise burst at the attack
PEAK = 0.8        # of full scale


def samples():
    seed = 1  # a small linear congruential generator: the same noise every run
    for n in range(int(RATE * SECONDS)):
        t = n / RATE
        seed = (seed * 1_103_515_245 + 12_345) & 0x7FFF_FFFF
        noise = (seed / 0x3FFF_FFFF - 1.0) * max(0.0, 1.0 - t / NOISE_S)
        tone = math.sin(2 * math.pi * TONE_HZ * t) * math.exp(-t / DECAY_S)
        fade = min(1.0, (SECONDS - t) / 0.005)  # no click at the end of the click
        yield PEAK * fade * (0.75 * tone + 0.25 * noise)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "click.wav")
    frames = b"".join(struct.pack("<h", round(max(-1.0, min(1.0, s)) * 32767)) for s in samples())
    with wave.open(out, "wb") as f:
        f.setnchannels(1)
        f.setsampwidth(2)
        f.setframerate(RATE)
        f.writeframes(frames)
    print(f"{out}: {len(frames) // 2} samples, {RATE} Hz, mono 16-bit")


if __name__ == "__main__":
    main()
