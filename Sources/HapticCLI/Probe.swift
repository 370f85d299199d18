import ArgumentParser
import HapticBoards
import HapticTransport
import HapticWire

/// `hapticctl probe (--port PATH [--baud N] [--timeout S] | --server URL [--board ID]) [--json]`.
struct Probe: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "probe",
    abstract: "Ask a board what it can do, and whether it supports haptics.",
    discussion: """
      Sends identify, waits for the capabilities, then measures the round-trip time and the \
      board clock's offset and drift. Exit status 0 when the board supports haptics, 1 when it \
      does not (the reason is printed) or the port fails. With --json: one object with \
      supports_haptics, reason, port, board, firmware, protocol_version, channels, features, \
      answer_ms (identify to capabilities), round_trip_ms, clock_offset_s, drift_ppm, \
      drift_uncertainty_ppm (the half width of the 1 s estimate's 95 % interval), identity (the key \
      a calibration of this one board is kept under: its USB serial number, else the serial \
      the board keeps), usb_serial, board_serial. Each LRA channel's f0 is the one it plays \
      with, f0_source saying whence: calibrated on the board, a calibration kept on this host \
      for this board (calibrate --write), or the board file.
      --server URL asks a running hapticctl serve instead (the board stays open): its boards \
      (or --board ID) with their channels, firmware, protocol version and link health (round \
      trip, lookahead, underruns, late segments, retransmits); --json prints the server's \
      board objects (docs/api.yaml).
      """)

  @OptionGroup var connection: PortOptions

  @Option(parsing: .unconditional, help: "Seconds to wait for the board's answer.")
  var timeout: Double = 2

  @Flag(help: "Print one JSON object.")
  var json = false

  @Option(help: "Ask a running hapticctl serve at this URL (http://HOST:PORT) instead of opening the port.")
  var server: String?

  @Option(help: "With --server: the server's token, if it has one.")
  var token: String?

  @Option(help: "With --server: only this board.")
  var board: String?

  @OptionGroup var boardOptions: BoardOptions

  func validate() throws {
    if server != nil {
      if connection.port != nil { throw ValidationError("give --port PATH or --server URL, not both") }
      return
    }
    if board != nil || token != nil { throw ValidationError("--board and --token go with --server") }
    _ = try connection.required()
    guard timeout > 0 && timeout <= 120 else { throw ValidationError("--timeout must be in (0, 120] seconds") }
  }

  func run() throws {
    if let server { return try probeServer(server) }
    let rates = connection.rates(boardOptions)
    let (_, transport) = try connection.open(at: rates)
    defer { transport.close() }
    let result: ProbeResult
    do {
      let origin = MonotonicTime.seconds()
      result = try Prober(timeout: timeout).probe(transport, rates: rates) { MonotonicTime.seconds() - origin }.result
    } catch {
      throw CLIError(error.description)
    }
    let calibrated = result.capabilities.map {
      CalibratedBoard.resolve($0, identity: result.identity, catalog: boardOptions.catalog(), store: CalibratedBoard.store(boardOptions))
    }
    if json {
      print(ProbeReport.json(result, calibrated: calibrated).rendered)
    } else {
      print(ProbeReport.text(result, calibrated: calibrated))
    }
    if !result.supportsHaptics { throw ExitCode(1) }
  }
}

/// Renders probe results.
enum ProbeReport {
  static func featureNames(_ features: BoardCapabilities.Features) -> [String] {
    var names: [String] = []
    if features.contains(.braking) { names.append("braking") }
    if features.contains(.overdrive) { names.append("overdrive") }
    if features.contains(.frequencyControl) { names.append("frequency control") }
    if features.contains(.calibration) { names.append("calibration") }
    if features.contains(.romEffects) { names.append("ROM effects") }
    if features.contains(.signedLevels) { names.append("signed levels") }
    if features.contains(.identity) { names.append("identity") }
    return names
  }

  static func calibrationName(_ state: BoardCapabilities.Calibration) -> String {
    switch state {
    case .notApplicable: return "not applicable"
    case .uncalibrated: return "uncalibrated"
    case .calibrated: return "calibrated"
    case .failed: return "failed"
    }
  }

  static func kindName(_ kind: BoardCapabilities.ActuatorKind) -> String {
    switch kind {
    case .none: return "none"
    case .lra: return "LRA"
    case .erm: return "ERM"
    }
  }

  static func channelJSON(_ channel: BoardCapabilities.Channel, _ calibrated: CalibratedBoard.Channel?) -> JSONText {
    let q: JSONText = optional(channel.qualityFactor) { .fixed($0, digits: 2) }
    let range: JSONText = optional(channel.frequencyRange) { .array([.int($0.lowerBound), .int($0.upperBound)]) }
    let lra = channel.kind == .lra
    return .object([
      ("kind", .string(kindName(channel.kind))),
      // An ERM has no resonance: its f0 on the wire means nothing (issue 32 point 7).
      ("f0_hz", lra ? .fixed(calibrated?.f0 ?? channel.resonantFrequency, digits: 1) : .null),
      ("f0_source", lra ? .string((calibrated?.source ?? .boardFile).rawValue) : .null),
      ("q", q),
      ("frequency_range_hz", range),
      ("amplitude_bits", .int(channel.amplitudeBits)),
      ("calibration", .string(calibrationName(channel.calibration))),
    ])
  }

  /// `transform(value)`, or JSON null.
  private static func optional<T>(_ value: T?, _ transform: (T) -> JSONText) -> JSONText {
    guard let value else { return .null }
    return transform(value)
  }

  static func json(_ result: ProbeResult, calibrated: CalibratedBoard? = nil) -> JSONText {
    let capabilities = result.capabilities
    var members: [(String, JSONText)] = [
      ("supports_haptics", .bool(result.supportsHaptics)),
      ("reason", optional(result.reason) { .string($0) }),
      ("port", .string(result.port)),
    ]
    members.append(("board", optional(capabilities) { .string($0.boardID) }))
    members.append(("firmware", optional(capabilities) { .string($0.firmwareName + " " + $0.firmwareVersion) }))
    members.append(("protocol_version", optional(result.protocolVersion) { .int(Int($0)) }))
    members.append(("boot_count", optional(capabilities) { .int(Int($0.bootCount)) }))
    members.append(("clock_frequency_hz", optional(capabilities) { .int(Int($0.clockFrequency)) }))
    members.append(("frame_period_us", optional(capabilities) { .int(Int($0.framePeriodMicroseconds)) }))
    members.append(("queue_depth", optional(capabilities) { .int(Int($0.queueDepth)) }))
    members.append(("watchdog_ms", optional(capabilities) { .int(Int($0.watchdogMilliseconds)) }))
    let features: [String] = capabilities.map { featureNames($0.features) } ?? []
    members.append(("features", .array(features.map { JSONText.string($0) })))
    let channels: [BoardCapabilities.Channel] = capabilities?.channels ?? []
    members.append(("channels", .array(channels.enumerated().map { channelJSON($1, calibrated?.channel($0)) })))
    members.append(("identity", optional(result.identity.key) { .string($0) }))
    members.append(("usb_serial", optional(result.identity.usbSerial) { .string($0) }))
    members.append(("board_serial", optional(result.identity.boardSerial.flatMap { $0 == 0 ? nil : $0 }) { .string(BoardIdentity.hex($0)) }))
    members.append(("baud", optional(result.baud) { .int($0) }))
    members.append(("answer_ms", optional(result.answerTime) { .fixed($0 * 1000, digits: 3) }))
    members.append(("round_trip_ms", optional(result.roundTrip) { .fixed($0 * 1000, digits: 3) }))
    members.append(("clock_offset_s", optional(result.clockOffset) { .fixed($0, digits: 6) }))
    members.append(("drift_ppm", optional(result.driftPPM) { .fixed($0, digits: 1) }))
    members.append(("drift_uncertainty_ppm", optional(result.driftUncertaintyPPM) { .fixed($0, digits: 1) }))
    members.append(("retransmissions", .int(result.retransmissions)))
    return .object(members)
  }

  static func text(_ result: ProbeResult, calibrated: CalibratedBoard? = nil) -> String {
    var lines: [String] = []
    guard let capabilities = result.capabilities else {
      return "\(result.port): haptics not supported: \(result.reason ?? "unknown")"
    }
    lines.append(
      "\(result.port): \(capabilities.boardID), firmware \(capabilities.firmwareName) \(capabilities.firmwareVersion), protocol \(capabilities.protocolVersion), boot #\(capabilities.bootCount)")
    lines.append(
      (result.baud.map { "  link \($0) baud, " } ?? "  ")
        + "clock \(capabilities.clockFrequency) Hz, frames \(capabilities.framePeriodMicroseconds) µs, queue \(capabilities.queueDepth), watchdog \(capabilities.watchdogMilliseconds) ms")
    let features = featureNames(capabilities.features)
    lines.append("  features: \(features.isEmpty ? "none" : features.joined(separator: ", "))")
    for (index, channel) in capabilities.channels.enumerated() {
      var text = "  channel \(index): \(kindName(channel.kind))"
      if channel.kind != .none {
        if channel.kind == .lra {
          let resolved = calibrated?.channel(index)
          text += " f0 \(Decimal6.string(resolved?.f0 ?? channel.resonantFrequency, digits: 1)) Hz"
          text += " (\((resolved?.source ?? .boardFile).rawValue)),"
        }
        if let q = channel.qualityFactor { text += " Q \(Decimal6.string(q, digits: 1)),"}
        if let range = channel.frequencyRange { text += " drive \(range.lowerBound)–\(range.upperBound) Hz," }
        text += " \(channel.amplitudeBits)-bit, calibration: \(calibrationName(channel.calibration))"
      }
      lines.append(text)
    }
    lines.append("  this board: \(result.identity.description)")
    if let rtt = result.roundTrip, let offset = result.clockOffset, let drift = result.driftPPM {
      lines.append(
        "  round trip \(Decimal6.string(rtt * 1000, digits: 3)) ms, clock offset \(Decimal6.string(offset, digits: 6)) s, drift "
          + Decimal6.string(drift, digits: 1)
          + (result.driftUncertaintyPPM.map { " ± " + Decimal6.string($0, digits: 0) + " ppm (a 1 s probe; the engine keeps measuring)" }
            ?? " ppm (too few samples to tell)"))
    }
    lines.append(result.supportsHaptics ? "  haptics: supported" : "  haptics: NOT supported: \(result.reason ?? "unknown")")
    return lines.joined(separator: "\n")
  }
}
