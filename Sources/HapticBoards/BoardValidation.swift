import HapticRenderer

/// The schema's rules for a decoded board file, and the profile it implies.
enum BoardValidation {
  static let supportedBauds: Set<Int> = [9_600, 19_200, 38_400, 57_600, 115_200, 230_400, 460_800, 500_000, 921_600, 1_000_000, 2_000_000]

  static func problems(_ file: BoardFile) -> [BoardFileError.Problem] {
    var problems: [BoardFileError.Problem] = []
    func check(_ condition: Bool, _ path: String, _ message: String) {
      if !condition { problems.append(.init(path, message)) }
    }
    check(file.schema == 1, "schema", "version \(file.schema) is not supported (this hapticctl reads schema 1)")
    let idCharacters = file.id.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
    check(!file.id.isEmpty && file.id.count <= 32 && idCharacters, "id", "1–32 lower-case letters, digits or dashes")
    check(!file.name.isEmpty, "name", "must not be empty")
    let family = DriverFamilies.named(file.driver)
    check(family != nil, "driver", "unknown driver family '\(file.driver)' (known: \(DriverFamilies.all.map { $0.name }.joined(separator: ", ")))")
    for (index, usb) in file.usb.enumerated() {
      check(isHex4(usb.vid), "usb[\(index)].vid", "4 hexadecimal digits, e.g. \"2341\"")
      check(isHex4(usb.pid), "usb[\(index)].pid", "4 hexadecimal digits, e.g. \"0043\"")
    }
    check(supportedBauds.contains(file.link.baud), "link.baud", "\(file.link.baud) is not a supported rate (1200 resets boards)")
    check(file.framePeriodMs >= 0.1 && file.framePeriodMs <= 100, "framePeriodMs", "must be 0.1–100 ms")
    check((2...16).contains(file.levels.bits), "levels.bits", "must be 2–16")
    func checkBand(_ band: [Double]?, _ path: String) {
      guard let band else { return }
      check(band.count == 2 && band[0] > 0 && band[0] < band[1] && band[1] <= 2_000, path, "[min, max] with 0 < min < max ≤ 2000 Hz")
    }
    checkBand(file.frequencyControlHz, "frequencyControlHz")
    check(!file.channels.isEmpty && file.channels.count <= 8, "channels", "1–8 channels")
    for (index, channel) in file.channels.enumerated() {
      let path = "channels[\(index)]"
      check(channel.actuator == "lra" || channel.actuator == "erm", "\(path).actuator", "\"lra\" or \"erm\"")
      checkBand(channel.frequencyControlHz, "\(path).frequencyControlHz")
      if channel.actuator == "erm" && channel.frequencyControlHz != nil {
        check(false, "\(path).frequencyControlHz", "an ERM's frequency follows its speed: no frequency control")
      }
      check(channel.f0Hz > 0 && channel.f0Hz <= 1_000, "\(path).f0Hz", "must be in (0, 1000] Hz")
      check(channel.ratedVoltage > 0 && channel.ratedVoltage <= 100, "\(path).ratedVoltage", "must be in (0, 100] V")
      // Beyond 10× the rated drive would get under a tenth of the level range (and a ratio of
      // 1e128 made the renderer's stop never end: found by the board-file fuzzer).
      check(
        channel.overdriveVoltage >= channel.ratedVoltage && channel.overdriveVoltage <= 10 * channel.ratedVoltage,
        "\(path).overdriveVoltage", "must be 1–10 × ratedVoltage")
      check(channel.ratedAccelerationG > 0 && channel.ratedAccelerationG <= 20, "\(path).ratedAccelerationG", "must be in (0, 20] G")
      if channel.actuator == "lra" {
        check((channel.q ?? 0) > 0.5 && (channel.q ?? 0) <= 200, "\(path).q", "an LRA needs its quality factor (0.5–200)")
      } else if channel.actuator == "erm" {
        check(
          (channel.riseMs ?? 0) > 0 && (channel.riseMs ?? 0) <= 2_000 && (channel.coastMs ?? 0) > 0
            && (channel.coastMs ?? 0) <= 2_000,
          "\(path).riseMs", "an ERM needs riseMs and coastMs (time constants, 0–2000 ms)")
        if let start = channel.startVoltage {
          check(start > 0 && start <= channel.ratedVoltage, "\(path).startVoltage", "must be in (0, ratedVoltage]")
        }
      }
      if channel.actuator == "lra" {
        check(channel.startVoltage == nil, "\(path).startVoltage", "only an ERM has a break-away voltage")
      }
    }
    if let firmware = file.firmware {
      check(isRelative(firmware.source), "firmware.source", "a folder relative to the board file's folder, inside it")
      check(!firmware.build.isEmpty, "firmware.build", "the build command, e.g. [\"make\"]")
      check(isRelative(firmware.artifact), "firmware.artifact", "a file relative to the source folder, inside it")
      for (index, folder) in (firmware.shared ?? []).enumerated() {
        check(isRelative(folder), "firmware.shared[\(index)]", "a folder relative to the board file's folder, inside it")
      }
    }
    if let flash = file.flash {
      check(!flash.tool.isEmpty, "flash.tool", "must name the flashing tool")
      check(flash.arguments.contains { $0.contains("{port}") }, "flash.arguments", "must contain {port}")
      check(flash.arguments.contains { $0.contains("{firmware}") }, "flash.arguments", "must contain {firmware}")
      check(file.firmware != nil, "firmware", "a board with a flash method needs a firmware section")
    }
    if let emulator = file.emulator {
      check(isRelative(emulator.source), "emulator.source", "a folder relative to the board file's folder, inside it")
      check(!emulator.build.isEmpty, "emulator.build", "the build command, e.g. [\"make\"]")
      check(isRelative(emulator.program), "emulator.program", "a file relative to the emulator's source folder, inside it")
      check(isRelative(emulator.firmwareImage), "emulator.firmwareImage", "a file relative to the firmware's source folder, inside it")
      if let bootloader = emulator.bootloader {
        check(isRelative(bootloader), "emulator.bootloader", "a file relative to the emulator's source folder, inside it")
      }
      check(file.firmware != nil, "firmware", "a board with an emulator needs a firmware section (the emulator runs it)")
    }
    if let family, problems.isEmpty { problems += family.problems(file) }
    return problems
  }

  static func profile(_ file: BoardFile) -> BoardProfile {
    let family = DriverFamilies.named(file.driver) ?? SimulatorDriver.self
    let channels = file.channels.map { channel -> ActuatorModel in
      let rated = family.ratedAmplitude(channel)
      if channel.actuator == "erm" {
        return ActuatorModel(
          kind: .erm, resonantFrequency: channel.f0Hz, qualityFactor: nil, ratedAcceleration: channel.ratedAccelerationG,
          ratedAmplitude: rated, driveTimeConstant: (channel.riseMs ?? 50) / 1000, coastTimeConstant: (channel.coastMs ?? 80) / 1000,
          startLevel: channel.startVoltage.map { rated * $0 / channel.ratedVoltage })
      }
      // An LRA's own range, else the board's; an ERM has none.
      var lra = ActuatorModel.lra(f0: channel.f0Hz, q: channel.q ?? 11, ratedAcceleration: channel.ratedAccelerationG, ratedAmplitude: rated)
      lra.frequencyControl = (channel.frequencyControlHz ?? file.frequencyControlHz).flatMap { $0.count == 2 ? $0[0]...$0[1] : nil }
      return lra
    }
    return BoardProfile(
      id: file.id, name: file.name, channels: channels, frequencyControl: nil, framePeriod: file.framePeriodMs / 1000,
      amplitudeBits: file.levels.bits, amplitudeSigned: file.levels.signed, shaping: family.shaping)
  }

  private static func isHex4(_ text: String) -> Bool {
    text.count == 4 && text.allSatisfy(\.isHexDigit)
  }

  private static func isRelative(_ path: String) -> Bool {
    !path.isEmpty && !path.hasPrefix("/") && !path.split(separator: "/").contains("..")
  }
}
