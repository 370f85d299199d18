import ArgumentParser
import Foundation
import HapticBoards
import HapticTransport
import HapticWire

/// `hapticctl calibrate --port PATH [--channel N] [--write] [--json]`.
struct Calibrate: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "calibrate",
    abstract: "Run the board driver's calibration and optionally keep its measured f0 in a user board file.",
    discussion: """
      Probes the board, sends `calibrate` for the channel and prints the result: the actuator's \
      measured resonance f0 beside the board file's, and the driver's compensation values \
      (DRV2605L: A_CAL_COMP, A_CAL_BEMF). The channel plays nothing meanwhile (about 1 s). \
      Boards keep their calibration themselves (the Uno firmware in EEPROM, restored at boot: \
      `probe` then says "calibrated" and shows the measured f0, and `send` plays with it). \
      Calibrating gives a board that keeps no serial yet one (protocol v1.1 identity), so this \
      one board can be told from others of its type. --write also keeps the result on this \
      host for this board alone (under its USB serial number, else that serial), in \
      calibrations/ of the first --boards-dir, else ~/.config/hapticctl/boards: `probe`, \
      `boards show` and `send` use it for this board; other boards of the type keep theirs.
      """)

  @OptionGroup var connection: PortOptions

  @Option(parsing: .unconditional, help: "The channel to calibrate.")
  var channel = 0


  @Flag(help: "Keep the measured f0 on this host for this board (not for every board of its type).")
  var write = false

  @Flag(help: "Print the result as JSON.")
  var json = false

  @OptionGroup var boardOptions: BoardOptions

  func validate() throws {
    _ = try connection.required()
    if !(0...7).contains(channel) { throw ValidationError("--channel must be 0–7") }
  }

  func run() throws {
    let rates = connection.rates(boardOptions)
    let (port, transport) = try connection.open(at: rates)
    let origin = MonotonicTime.seconds()
    let link: ReliableLink
    let probe: ProbeResult
    do {
      // A board that keeps no serial yet gets one, drawn at random (docs/protocol.md §6.11).
      let prober = Prober(timeout: 3, clockSamples: 0, assignSerial: UInt32.random(in: 1...UInt32.max))
      let found = try prober.probe(transport, rates: rates) { MonotonicTime.seconds() - origin }
      (probe, link) = (found.result, found.link)
    } catch {
      transport.close()
      throw CLIError(error.description)
    }
    guard let capabilities = probe.capabilities else {
      transport.close()
      throw CLIError("\(port): no hapticctl board answered: \(probe.reason ?? "no answer")")
    }
    guard capabilities.features.contains(.calibration) else {
      transport.close()
      throw CLIError("\(port): the \(capabilities.boardID) board cannot calibrate (no calibration feature)")
    }
    guard channel < capabilities.channels.count else {
      transport.close()
      throw CLIError("\(port): the \(capabilities.boardID) board has \(capabilities.channels.count) channel(s); no channel \(channel)")
    }
    let outcome = try Self.calibrate(transport: transport, link: link, origin: origin, capabilities: capabilities, channel: channel)
    let result: CalibrationResult
    switch outcome {
    case .success(let value): result = value
    case .failure(let error): throw error
    }
    let definition = boardOptions.catalog().board(capabilities.boardID)
    let fileF0 = definition?.file.channels[safe: channel]?.f0Hz
    var written: String?
    if write && result.succeeded {
      written = try keep(result, board: capabilities.boardID, identity: probe.identity)
    }
    if json {
      var object: [(String, JSONText)] = [
        ("port", .string(port)), ("board", .string(capabilities.boardID)),
        ("identity", probe.identity.key.map { .string($0) } ?? .null), ("channel", .number(Double(channel))),
        ("succeeded", .bool(result.succeeded)), ("f0_hz", .number(result.resonantFrequency)),
        ("board_file_f0_hz", fileF0.map { .number($0) } ?? .null),
        ("compensation", .number(Double(result.compensation))), ("back_emf", .number(Double(result.backEMF))),
      ]
      object.append(("written", written.map { .string($0) } ?? .null))
      print(JSONText.object(object).rendered)
    } else {
      let versus = fileF0.map { String(format: " (board file %.1f Hz, %+.1f %%)", $0, (result.resonantFrequency / $0 - 1) * 100) } ?? ""
      print(
        "\(capabilities.boardID) channel \(channel): \(result.succeeded ? "calibrated" : "calibration FAILED"), "
          + String(format: "f0 %.1f Hz", result.resonantFrequency) + versus
          + String(format: ", compensation 0x%02X, back-EMF 0x%02X", result.compensation, result.backEMF))
      print("  this board: \(probe.identity.description)")
      if let written {
        print(
          String(format: "kept in %@: this board's channel %d plays with f0 %.1f Hz; other %@ boards keep theirs",
            written, channel, result.resonantFrequency, capabilities.boardID))
      }
    }
    if !result.succeeded { throw ExitCode(1) }
  }

  /// Keeps `result` on this host under the board's identity (merged with what is kept for its
  /// other channels); returns the file written.
  private func keep(_ result: CalibrationResult, board: String, identity: BoardIdentity) throws -> String {
    guard let key = identity.key else {
      throw CLIError(
        "--write: this board cannot be told from others of its type (\(identity.description)); "
          + "its own calibration is kept on the board (probe shows it), but none can be kept on this host")
    }
    let folders = BoardCatalog.searchPath(boardOptions.boardsDirectories)
    guard let folder = folders.first else {
      throw CLIError("--write: no HOME to find ~/.config/hapticctl/boards; pass --boards-dir")
    }
    let store = CalibrationStore.load(folders: folders)
    let date = ISO8601DateFormatter().string(from: Date())
    let record =
      store.calibration(identity: key).flatMap { $0.board == board ? $0 : nil }?
      .with(channel: channel, f0Hz: result.resonantFrequency, at: date)
      ?? BoardCalibration(identity: key, board: board, channels: [.init(channel: channel, f0Hz: result.resonantFrequency)], calibratedAt: date)
    do {
      return try CalibrationStore.write(record, folder: folder)
    } catch {
      throw CLIError("--write: \(error)")
    }
  }

  /// Sends `calibrate` on a connection continuing the probe's session and waits for the
  /// result (or the board's error) for up to 5 s; the connection is closed on return.
  static func calibrate(
    transport: any ByteTransport, link: ReliableLink, origin: Double, capabilities: BoardCapabilities, channel: Int
  ) throws -> Result<CalibrationResult, CLIError> {
    let answer = CalibrationAnswer()
    let connection = BoardConnection(
      transport: transport, clockFrequency: Double(capabilities.clockFrequency), continuing: link, origin: origin,
      onMessage: { message in
        switch message {
        case .calibrationResult(let result) where Int(result.channel) == channel: answer.set(.success(result))
        case .error(let error) where error.messageType == WireMessage.Kind.calibrate.rawValue:
          answer.set(.failure(CLIError("the board refused to calibrate: \(error.code) (detail \(error.detail))")))
        default: break
        }
      },
      onEvent: { event in
        switch event {
        case .boardReset: answer.set(.failure(CLIError("the board reset during calibration")))
        case .disconnected(let reason): answer.set(.failure(CLIError("the board went away: \(reason)")))
        }
      })
    defer { connection.close() }
    do {
      try connection.send(.calibrate(channel: UInt8(channel)))
    } catch {
      return .failure(CLIError(error.description))
    }
    guard let outcome = answer.wait(timeout: 5) else {
      return .failure(CLIError("no calibration result within 5 s"))
    }
    return outcome
  }
}

/// The one answer a calibration waits for, set on the connection's reader thread. Unchecked:
/// `outcome` is read and written only with `condition` locked (a condition variable, which a
/// value box cannot wait on).
private final class CalibrationAnswer: @unchecked Sendable {
  private let condition = NSCondition()
  private var outcome: Result<CalibrationResult, CLIError>?

  func set(_ value: Result<CalibrationResult, CLIError>) {
    condition.withLock {
      if outcome == nil { outcome = value }
      condition.broadcast()
    }
  }

  func wait(timeout: Double) -> Result<CalibrationResult, CLIError>? {
    let deadline = Date(timeIntervalSinceNow: timeout)
    return condition.withLock {
      while outcome == nil && condition.wait(until: deadline) {}
      return outcome
    }
  }
}

extension Array {
  fileprivate subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
