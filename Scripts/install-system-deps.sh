#!/usr/bin/env bash
# Installs the Debian packages hapticctl needs to build and test. Safe to re-run.
# Needs root (or sudo). Swift itself is expected on PATH (6.1 or newer).
set -euo pipefail

packages=(
  libserialport-dev   # serial ports (the wire transport)
  libsndfile1-dev     # audio files of audio events (WAV, CAF, …)
  libasound2-dev      # ALSA: audio events played on the host
  pkg-config          # lets SwiftPM find libserialport (and the emulator's build find simavr)
  make                # firmware and emulator builds
  gcc                 # host-side firmware tests and the emulated board
  gcc-avr             # Arduino Uno firmware (ATmega328P)
  avr-libc
  binutils-avr        # avr-size, avr-objcopy
  simavr              # the AVR emulator behind the emulated board
  libsimavr-dev
  libelf-dev          # simavr loads the firmware ELF
  avrdude             # hapticctl flash
  arduino-core-avr    # Optiboot's source: the emulated Uno's bootloader (built by its make)
  librsvg2-bin        # rsvg-convert: the plot tests render the SVG plots to PNG and check the image
  fonts-dejavu-core   # the font the plots ask for first (the tests' text-width rule assumes it)
  python3             # Examples/python, run by the tests against a served board
  python3-websocket   # websocket-client, the Python example's one library
  python3-venv        # Scripts/schemathesis.sh installs schemathesis (PyPI) into a venv
  chromium            # the studio's page tested in a real browser, headless (Scripts/studio-test.sh)
  chromium-driver     # chromedriver: Selenium (PyPI) drives chromium through it
  ser2net             # boards on another machine (tcp://, rfc2217://): the tests run it on 127.0.0.1
)

if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "Installing: ${missing[*]}"
  $sudo apt-get update
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends "${missing[@]}"
else
  echo "System packages already installed: ${packages[*]}"
fi
command -v swift >/dev/null || { echo "error: swift is not on PATH (Swift 6.1 or newer is required)" >&2; exit 1; }
