/// A board plugin file (schema 1): one JSON object per board under `Boards/` or a user boards
/// folder. docs/boards.md documents every field.
public struct BoardFile: Sendable, Hashable, Codable {
  /// A USB vendor/product pair the board enumerates as.
  public struct USBID: Sendable, Hashable, Codable {
    /// Vendor id, 4 hex digits.
    public var vid: String
    /// Product id, 4 hex digits.
    public var pid: String
    /// What the pair is (free text).
    public var note: String?
  }

  /// The serial link.
  public struct Link: Sendable, Hashable, Codable {
    /// Baud rate.
    public var baud: Int
  }

  /// Level format of the drive.
  public struct Levels: Sendable, Hashable, Codable {
    /// Bits per level, the sign bit included.
    public var bits: Int
    /// Negative levels reverse the drive (braking).
    public var signed: Bool
  }

  /// One actuator channel.
  public struct Channel: Sendable, Hashable, Codable {
    /// `lra` or `erm`.
    public var actuator: String
    /// LRA: resonant frequency; ERM: vibration frequency at rated drive (Hz).
    public var f0Hz: Double
    /// LRA quality factor.
    public var q: Double?
    /// Rated drive voltage (V, rms for LRAs).
    public var ratedVoltage: Double
    /// Largest drive voltage (overdrive, V); full-scale drive.
    public var overdriveVoltage: Double
    /// Steady-state acceleration at rated drive, G.
    public var ratedAccelerationG: Double
    /// ERM: spin-up time constant, ms.
    public var riseMs: Double?
    /// ERM: coast-down time constant, ms.
    public var coastMs: Double?
    /// ERM: the smallest voltage that starts the motor from rest (break-away), V; by default
    /// 0.3 × the rated voltage.
    public var startVoltage: Double?
    /// LRA: this channel's drive-frequency range `[min, max]` in Hz, when it differs from the
    /// board's `frequencyControlHz` (a board mixing actuators).
    public var frequencyControlHz: [Double]?
  }

  /// How to build the firmware.
  public struct Firmware: Sendable, Hashable, Codable {
    /// Source folder, relative to the folder holding the board file.
    public var source: String
    /// Build command (run in the source folder), as arguments.
    public var build: [String]
    /// The flashable artifact, relative to the source folder.
    public var artifact: String
    /// Other folders the build reads, relative to the folder holding the board file (a
    /// firmware core shared by several boards): a change in them rebuilds the image too.
    public var shared: [String]?
  }

  /// How to flash the firmware.
  public struct Flash: Sendable, Hashable, Codable {
    /// The flashing tool (looked up on PATH).
    public var tool: String
    /// Its arguments; `{port}`, `{firmware}` and `{baud}` are substituted.
    public var arguments: [String]
  }

  /// How to build and start the board's emulator (`hapticctl emulate`): a program run as
  /// `PROGRAM --firmware ELF [--bootloader HEX [--blank] [--auto-reset]] [--link PATH]
  /// [--trace REGISTERS.csv] [--events EVENTS.csv] [--no-chip]` that prints its
  /// pseudo-terminal's path as its first line (docs/boards.md §6).
  public struct Emulator: Sendable, Hashable, Codable {
    /// Source folder, relative to the folder holding the board file.
    public var source: String
    /// Build command (run in the source folder), as arguments.
    public var build: [String]
    /// The emulator program, relative to its source folder.
    public var program: String
    /// The firmware image it runs (an ELF), relative to the firmware's source folder.
    public var firmwareImage: String
    /// The board's bootloader (Intel hex), relative to the emulator's folder, made by its
    /// build: given, the emulator starts it on every reset and models the port's auto-reset.
    public var bootloader: String?
    /// Debian packages the build and the program need (named in the error when a tool is missing).
    public var packages: [String]
  }

  /// Schema version: 1.
  public var schema: Int
  /// Board id (lower-case letters, digits and dashes).
  public var id: String
  /// Human-readable name.
  public var name: String
  /// Who makes it.
  public var vendor: String
  /// Microcontroller, if any (e.g. `atmega328p`).
  public var mcu: String?
  /// Driver family (one of ``DriverFamilies/all``).
  public var driver: String
  /// USB ids for recognising the board on a port.
  public var usb: [USBID]
  /// Serial link settings.
  public var link: Link
  /// Frame period of segment playback, ms.
  public var framePeriodMs: Double
  /// Level format.
  public var levels: Levels
  /// Drive-frequency band `[min, max]` in Hz, when the board controls the frequency.
  public var frequencyControlHz: [Double]?
  /// The actuator channels.
  public var channels: [Channel]
  /// Firmware build, for boards hapticctl can flash.
  public var firmware: Firmware?
  /// Flash method.
  public var flash: Flash?
  /// Emulator, for boards that have one.
  public var emulator: Emulator?

  /// The keys each object may have (unknown keys are errors: they are usually typos).
  static let knownKeys: [String: Set<String>] = [
    "": [
      "schema", "id", "name", "vendor", "mcu", "driver", "usb", "link", "framePeriodMs", "levels",
      "frequencyControlHz", "channels", "firmware", "flash", "emulator",
    ],
    "usb": ["vid", "pid", "note"],
    "link": ["baud"],
    "levels": ["bits", "signed"],
    "channels": [
      "actuator", "f0Hz", "q", "ratedVoltage", "overdriveVoltage", "ratedAccelerationG", "riseMs", "coastMs",
      "startVoltage", "frequencyControlHz",
    ],
    "firmware": ["source", "build", "artifact", "shared"],
    "flash": ["tool", "arguments"],
    "emulator": ["source", "build", "program", "firmwareImage", "bootloader", "packages"],
  ]
}
