import ArgumentParser
import Foundation
import HapticSimulator

/// `sim serve --trace FILE.csv`: what the served board did, written as it happens.
///
/// `FILE.csv` gets `time_s,channel,drive,accel_g` rows as `simulate --format csv` writes them
/// (time in seconds since the board started, drive as a fraction of full scale, acceleration
/// in G); at a `rate` below the physics rate each row covers a window of steps: the drive at
/// its end and the acceleration of largest magnitude in it, so peaks survive. Beside it,
/// `FILE.events.csv` gets `time_s,event,channel,detail` rows (``BoardEvent``). Both files are
/// written while the board runs (flushed every 0.1 s) so they can be followed live. With
/// `hostTime`, both files get a last column `host_s`: the row's time on the host's monotonic
/// clock (CLOCK_MONOTONIC seconds, the clock every process on the machine shares), so the rows of
/// several boards compare (a rig's onset skew, docs/rigs.md).
final class BoardTraceFile: ServedBoardTrace {
  private struct Window {
    var count = 0
    var peak = 0.0
  }

  private let steps: FileHandle
  private let events: FileHandle
  private let stepsPath: String
  private let eventsPath: String
  private let stepsPerRow: Int
  private var windows: [Window] = []
  private var stepRows = ""
  private var eventRows = ""
  /// The first write that failed; serving goes on, the command reports it at the end.
  private(set) var failure: CLIError?
  /// Host monotonic seconds at board time 0, when rows carry `host_s` (nil: they do not).
  private var hostEpoch: Double?
  private let hostTime: Bool

  /// The events file beside `path`: `trace.csv` → `trace.events.csv`.
  static func eventsPath(for path: String) -> String {
    (path.hasSuffix(".csv") ? String(path.dropLast(4)) : path) + ".events.csv"
  }

  /// Creates (or truncates) both files. `stepsPerRow` physics steps make one row.
  init(path: String, stepsPerRow: Int, hostTime: Bool = false) throws {
    self.hostTime = hostTime
    stepsPath = path
    eventsPath = Self.eventsPath(for: path)
    self.stepsPerRow = max(stepsPerRow, 1)
    steps = try Self.create(stepsPath)
    events = try Self.create(eventsPath)
    stepRows = "time_s,channel,drive,accel_g" + (hostTime ? ",host_s\n" : "\n")
    eventRows = "time_s,event,channel,detail" + (hostTime ? ",host_s\n" : "\n")
    flush()
  }

  deinit {
    try? steps.close()
    try? events.close()
  }

  /// Removes both files (the board never started: nothing to trace).
  func discard() {
    try? FileManager.default.removeItem(atPath: stepsPath)
    try? FileManager.default.removeItem(atPath: eventsPath)
  }

  /// Fails unless the folder of `path` exists.
  static func checkFolder(of path: String) throws {
    let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
      throw CLIError("cannot write the trace \(path): the folder \(directory) does not exist")
    }
  }

  private static func create(_ path: String) throws -> FileHandle {
    try checkFolder(of: path)
    guard FileManager.default.createFile(atPath: path, contents: nil), let handle = FileHandle(forWritingAtPath: path)
    else {
      throw CLIError("cannot write the trace \(path): permission denied or read-only folder")
    }
    return handle
  }

  func step(time: Double, channel: Int, drive: Double, acceleration: Double) {
    while windows.count <= channel { windows.append(Window()) }
    windows[channel].count += 1
    if abs(acceleration) >= abs(windows[channel].peak) { windows[channel].peak = acceleration }
    guard windows[channel].count >= stepsPerRow else { return }
    stepRows += Decimal6.string(time, digits: 7)
    stepRows += ","
    stepRows += String(channel)
    stepRows += ","
    stepRows += Decimal6.string(drive, digits: 6)
    stepRows += ","
    stepRows += Decimal6.string(windows[channel].peak, digits: 6)
    stepRows += hostColumn(time)
    stepRows += "\n"
    windows[channel] = Window()
  }

  func event(_ event: BoardEvent) {
    eventRows +=
      "\(Decimal6.string(event.time, digits: 7)),\(event.name),\(event.channel.map(String.init) ?? ""),\(event.detail)\(hostColumn(event.time))\n"
  }

  func started(atHostSeconds epoch: Double) {
    if hostTime { hostEpoch = epoch }
  }

  /// `,host_s` for board time `time` (microseconds: the row's own time has 7 digits), or nothing.
  private func hostColumn(_ time: Double) -> String {
    guard hostTime else { return "" }
    return "," + Decimal6.string((hostEpoch ?? 0) + time, digits: 6)
  }

  /// An event row made elsewhere in this file's format (`time_s,event,channel,detail`): an
  /// emulated board's events.
  func eventRow(_ row: String) {
    eventRows += row
    if hostTime, let time = Double(row.prefix { $0 != "," }) { eventRows += hostColumn(time) }
    eventRows += "\n"
  }

  func flush() {
    write(&stepRows, to: steps, path: stepsPath)
    write(&eventRows, to: events, path: eventsPath)
  }

  private func write(_ rows: inout String, to handle: FileHandle, path: String) {
    guard !rows.isEmpty else { return }
    defer { rows.removeAll(keepingCapacity: true) }
    guard failure == nil else { return }
    do {
      try handle.write(contentsOf: Data(rows.utf8))
    } catch {
      failure = CLIError("cannot write the trace \(path): \(error.localizedDescription)")
    }
  }
}

/// `--trace FILE.csv [--trace-rate HZ]`, shared by the commands that serve a board (`sim serve`,
/// `emulate`).
struct TraceOptions: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "Write what the board did to this CSV file (time_s,channel,drive,accel_g) and its events to FILE.events.csv.",
      valueName: "FILE.csv"))
  var trace: String?

  @Option(parsing: .unconditional, help: "Trace rows per second per channel (default: every physics step); each row keeps its window's peak.")
  var traceRate: Double?

  @Flag(help: "Give each trace row the host's monotonic time too (a last column host_s, CLOCK_MONOTONIC seconds): rows of several boards compare.")
  var traceHostTime = false

  func validate() throws {
    if let traceRate, !(traceRate >= 1 && traceRate <= 1_000_000) { throw ValidationError("--trace-rate must be 1–1000000") }
    if traceRate != nil && trace == nil { throw ValidationError("--trace-rate needs --trace") }
    if traceHostTime && trace == nil { throw ValidationError("--trace-host-time needs --trace") }
  }

  /// Fails early when the trace's folder does not exist (before anything starts).
  func checkFolder() throws {
    if let trace { try BoardTraceFile.checkFolder(of: trace) }
  }

  /// The trace files (created now), when --trace was given, for physics at `physicsRate`.
  func file(physicsRate: Double) throws -> BoardTraceFile? {
    try trace.map { path in
      try BoardTraceFile(
        path: path, stepsPerRow: traceRate.map { Int((physicsRate / $0).rounded()) } ?? 1, hostTime: traceHostTime)
    }
  }
}
