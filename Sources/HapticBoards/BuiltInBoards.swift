// The built-in board files, compiled in so that an installed hapticctl copied alone still
// knows them (no resource lookup at run time). Each literal is byte-for-byte the file of the
// same name under Boards/ — BoardCatalogTests fails when they differ or a file is missing here.
// After editing a file under Boards/, paste it here (keep the blank line before the closing
// delimiter: it is the file's final newline).

enum BuiltInBoards {
  /// (file name, contents) of every board file under Boards/.
  static let files: [(name: String, json: String)] = [
    (
      "sim-lra.json",
      #"""
{
  "schema": 1,
  "id": "sim-lra",
  "name": "Simulated LRA (170 Hz, frequency control)",
  "vendor": "hapticctl",
  "driver": "simulator",
  "usb": [],
  "link": { "baud": 115200 },
  "framePeriodMs": 1,
  "levels": { "bits": 8, "signed": true },
  "frequencyControlHz": [80, 300],
  "channels": [
    { "actuator": "lra", "f0Hz": 170, "q": 11, "ratedVoltage": 1.0, "overdriveVoltage": 2.0, "ratedAccelerationG": 1.5 }
  ]
}

"""#
    ),
    (
      "sim-erm.json",
      #"""
{
  "schema": 1,
  "id": "sim-erm",
  "name": "Simulated ERM (coin motor)",
  "vendor": "hapticctl",
  "driver": "simulator",
  "usb": [],
  "link": { "baud": 115200 },
  "framePeriodMs": 1,
  "levels": { "bits": 8, "signed": true },
  "channels": [
    {
      "actuator": "erm", "f0Hz": 200, "ratedVoltage": 3.0, "overdriveVoltage": 4.0, "ratedAccelerationG": 1.0,
      "riseMs": 50, "coastMs": 80
    }
  ]
}

"""#
    ),
    (
      "uno-drv2605l.json",
      #"""
{
  "schema": 1,
  "id": "uno-drv2605l",
  "name": "Arduino Uno + DRV2605L (LRA, closed-loop RTP)",
  "vendor": "Arduino (board), Texas Instruments (driver)",
  "mcu": "atmega328p",
  "driver": "drv2605l-rtp",
  "usb": [
    { "vid": "2341", "pid": "0043", "note": "Arduino Uno R3 (ATmega16U2)" },
    { "vid": "2341", "pid": "0001", "note": "Arduino Uno (ATmega8U2)" },
    { "vid": "2A03", "pid": "0043", "note": "Arduino Uno R3 (arduino.org)" },
    { "vid": "1A86", "pid": "7523", "note": "CH340 clones" }
  ],
  "link": { "baud": 115200 },
  "framePeriodMs": 1,
  "levels": { "bits": 8, "signed": false },
  "channels": [
    { "actuator": "lra", "f0Hz": 175, "q": 11, "ratedVoltage": 2.0, "overdriveVoltage": 3.0, "ratedAccelerationG": 1.5 }
  ],
  "firmware": {
    "source": "uno-drv2605l/firmware",
    "build": ["make"],
    "artifact": "build/hapticctl-uno.hex"
  },
  "flash": {
    "tool": "avrdude",
    "arguments": ["-p", "atmega328p", "-c", "arduino", "-x", "attempts=4", "-P", "{port}", "-b", "115200", "-D", "-U", "flash:w:{firmware}:i"]
  },
  "emulator": {
    "source": "uno-drv2605l/emulator",
    "build": ["make"],
    "program": "build/hapticctl-emu-uno",
    "firmwareImage": "build/hapticctl-uno.elf",
    "bootloader": "build/optiboot_atmega328.hex",
    "packages": ["make", "gcc", "pkg-config", "gcc-avr", "avr-libc", "binutils-avr", "simavr", "libsimavr-dev", "libelf-dev", "arduino-core-avr"]
  }
}

"""#
    ),
  ]
}
