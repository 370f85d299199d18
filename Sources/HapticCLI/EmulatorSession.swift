import Foundation
import HapticSimulator
import HapticTransport

/// One emulator process for `hapticctl emulate`: started with its pseudo-terminal's path read
/// from its first output line, followed while it runs (its register and event files turned
/// into a board trace), stopped with SIGTERM.
///
/// Unchecked: `stopRequested` and `follower` are read and written only under `lock`; the rest
/// are `let`s set before the follower thread starts.
final class EmulatorSession: @unchecked Sendable {
  /// How the run ended.
  struct Outcome {
    var summary: String
    var failure: CLIError?
  }

  /// What a trace needs: the file, and how the emulator's drive trace becomes drive (the
  /// replay of the board's driver through its channels' physics).
  typealias TraceSettings = (file: BoardTraceFile, replay: EmulatedDriveReplay)

  /// The pseudo-terminal the firmware's UART is on.
  let ptyPath: String
  private let process = Process()
  private let lock = NSLock()
  private var stopRequested = false
  private var follower: TraceFollower?
  private let scratch: URL?
  /// When the emulator printed its path: its simulated time starts about then.
  private let started: Double

  /// Starts `program` on `firmware` (with a blank board, read for its symbols only) with
  /// `options` (`--bootloader HEX`, `--blank`, `--auto-reset`, `--no-chip`).
  init(program: String, firmware: String, link: String?, options: [String], trace: TraceSettings?) throws {
    var arguments = ["--firmware", firmware] + options
    if let link { arguments += ["--link", link] }
    if let trace {
      let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hapticctl-emulate-\(UUID().uuidString)")
      do {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      } catch {
        throw CLIError("cannot create a scratch folder for the trace in \(folder.deletingLastPathComponent().path)")
      }
      let registers = folder.appendingPathComponent("registers.csv").path
      let events = folder.appendingPathComponent("events.csv").path
      arguments += ["--trace", registers, "--events", events]
      scratch = folder
      follower = TraceFollower(
        registers: FileTail(path: registers), events: FileTail(path: events),
        replay: trace.replay, sink: trace.file)
    } else {
      scratch = nil
    }
    let output = Pipe()
    process.executableURL = URL(fileURLWithPath: program)
    process.arguments = arguments
    process.standardOutput = output
    process.standardInput = FileHandle.nullDevice
    do {
      try process.run()
    } catch {
      if let scratch { try? FileManager.default.removeItem(at: scratch) }
      throw CLIError("cannot start the emulator \(program): \(error.localizedDescription)")
    }
    // The emulator prints its path, then closes its standard output: read to the end.
    let data = output.fileHandleForReading.readDataToEndOfFile()
    started = MonotonicTime.seconds()
    let line = String(decoding: data, as: UTF8.self).split(separator: "\n").first.map(String.init) ?? ""
    guard line.hasPrefix("/") else {
      process.waitUntilExit()
      if let scratch { try? FileManager.default.removeItem(at: scratch) }
      throw CLIError("the emulator \(program) exited (status \(process.terminationStatus)) before printing its pseudo-terminal")
    }
    ptyPath = line
  }

  /// Asks ``run()`` to stop the emulator and return (from a signal handler's queue).
  func requestStop() {
    lock.withLock { stopRequested = true }
  }

  /// Power-cycles the emulated board (the emulator's SIGUSR1).
  func powerCycle() {
    if process.isRunning { kill(process.processIdentifier, SIGUSR1) }
  }

  /// Follows the emulator until it exits or a stop is requested; then stops it.
  func run() -> Outcome {
    while process.isRunning && !lock.withLock({ stopRequested }) {
      usleep(50_000)
      follower?.poll()
    }
    let stoppedByUs = process.isRunning
    if stoppedByUs { process.terminate() }
    process.waitUntilExit()
    let ended = MonotonicTime.seconds() - started
    // Ctrl-C reaches the emulator too: it ends by itself with status 0.
    var outcome = Outcome(summary: stoppedByUs ? "stopped" : "the emulator exited with status \(process.terminationStatus)")
    if process.terminationStatus != 0 {
      outcome.failure = CLIError("the emulator exited with status \(process.terminationStatus) (its messages are above)")
    }
    if var follower {
      follower.finish(at: ended)
      outcome.summary += "; trace to \(String(format: "%.3f", follower.replayed)) s"
      if follower.outOfOrder > 0 { outcome.summary += ", \(follower.outOfOrder) trace rows out of order" }
      self.follower = follower
    }
    if let scratch { try? FileManager.default.removeItem(at: scratch) }
    return outcome
  }
}

/// The new complete lines of a file another process appends to.
struct FileTail {
  let path: String
  private var handle: FileHandle?
  private var partial = ""

  init(path: String) { self.path = path }

  /// Lines completed since the last call.
  mutating func newLines() -> [Substring] {
    if handle == nil { handle = FileHandle(forReadingAtPath: path) }
    guard let handle, let data = try? handle.readToEnd(), !data.isEmpty else { return [] }
    partial += String(decoding: data, as: UTF8.self)
    guard let end = partial.lastIndex(of: "\n") else { return [] }
    let complete = String(partial[..<end])
    partial = String(partial[partial.index(after: end)...])
    return complete.split(separator: "\n", omittingEmptySubsequences: true)
  }
}

/// How an emulator's drive trace becomes drive through the actuator physics: a DRV2605L's
/// register writes (`time_us,register,value`, channel 0) or a PWM bridge's input duties
/// (`time_us,channel,in1,in2`, every channel).
enum EmulatedDriveReplay {
  case drv2605l(DRV2605LTraceReplay)
  case pwm(PWMTraceReplay)

  /// Seconds of board time replayed.
  var time: Double {
    switch self {
    case .drv2605l(let replay): replay.time
    case .pwm(let replay): replay.time
    }
  }

  /// Trace rows that arrived behind the time already replayed.
  var outOfOrder: Int {
    switch self {
    case .drv2605l(let replay): replay.writesOutOfOrder
    case .pwm(let replay): replay.rowsOutOfOrder
    }
  }

  /// Applies one trace row; returns its time (nil for a malformed row) and an events-file row
  /// for an operation it started, if any.
  mutating func apply(_ line: Substring, sink: BoardTraceFile) -> (time: Double, event: String?)? {
    let fields = line.split(separator: ",")
    switch self {
    case .drv2605l(var replay):
      guard fields.count == 3, let microseconds = UInt64(fields[0]), let register = UInt8(fields[1]),
        let value = UInt8(fields[2])
      else { return nil }
      let t = Double(microseconds) / 1e6
      let operation = replay.write(at: t, register: register, value: value, sink: sink)
      self = .drv2605l(replay)
      switch operation {
      case .romEffect(let effect)?: return (t, "\(Decimal6.string(t, digits: 7)),rom_effect,0,effect=\(effect)")
      case .calibration?: return (t, "\(Decimal6.string(t, digits: 7)),calibration,0,")
      case nil: return (t, nil)
      }
    case .pwm(var replay):
      guard fields.count == 4, let microseconds = Double(fields[0]), let channel = Int(fields[1]),
        let in1 = Int(fields[2]), let in2 = Int(fields[3])
      else { return nil }
      let t = microseconds / 1e6
      replay.row(at: t, channel: channel, in1: in1, in2: in2, sink: sink)
      self = .pwm(replay)
      return (t, nil)
    }
  }

  /// Steps the physics to `t` with the drive held.
  mutating func advance(to t: Double, sink: BoardTraceFile) {
    switch self {
    case .drv2605l(var replay):
      replay.advance(to: t, sink: sink)
      self = .drv2605l(replay)
    case .pwm(var replay):
      replay.advance(to: t, sink: sink)
      self = .pwm(replay)
    }
  }
}

/// Turns an emulated board's drive-trace and event files into a ``BoardTraceFile``.
struct TraceFollower {
  var registers: FileTail
  var events: FileTail
  var replay: EmulatedDriveReplay
  let sink: BoardTraceFile
  private var lastWrite = 0.0
  /// The simulated time the emulator stopped at, once its last row arrived.
  private var end: Double?

  init(registers: FileTail, events: FileTail, replay: EmulatedDriveReplay, sink: BoardTraceFile) {
    self.registers = registers
    self.events = events
    self.replay = replay
    self.sink = sink
  }

  /// Seconds of board time replayed.
  var replayed: Double { replay.time }
  /// Trace rows that arrived behind the time already replayed.
  var outOfOrder: Int { replay.outOfOrder }

  /// Replays the drive-trace rows that arrived (up to the latest: the drive after it is not
  /// known yet) and passes the events on.
  mutating func poll() {
    for line in registers.newLines() where !line.hasPrefix("time_") {
      if let anchor = Self.anchor(line) {
        // The rows before the tie are on the old one.
        replay.advance(to: anchor.time, sink: sink)
        sink.started(atHostSeconds: anchor.epoch)
        continue
      }
      guard let applied = replay.apply(line, sink: sink) else { continue }
      lastWrite = max(lastWrite, applied.time)
      if let event = applied.event { sink.eventRow(event) }
    }
    for line in events.newLines() where !line.hasPrefix("time_") {
      // The emulator's last row marks the end of the board's time line.
      if line.hasSuffix(",stopped,,"), let t = Double(line.prefix { $0 != "," }) { end = t }
      sink.eventRow(String(line))
    }
    sink.flush()
  }

  /// An anchor row of the drive trace (`TIME_US,anchor,HOST_NS`, the emulator's `--anchors`):
  /// its board time and the host's monotonic seconds board time 0 stands for; nil for others.
  static func anchor(_ line: Substring) -> (time: Double, epoch: Double)? {
    let fields = line.split(separator: ",")
    guard fields.count == 3, fields[1] == "anchor", let microseconds = Double(fields[0]), let nanoseconds = UInt64(fields[2])
    else { return nil }
    return (microseconds / 1e6, Double(nanoseconds) / 1e9)
  }

  /// The last of both files, and the drive held to the emulator's end (its `stopped` row, else
  /// `wallEnd`, seconds since it started by the wall clock).
  mutating func finish(at wallEnd: Double) {
    poll()
    replay.advance(to: max(end ?? wallEnd, lastWrite), sink: sink)
    sink.flush()
  }
}
