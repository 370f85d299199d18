import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Seconds on the monotonic clock (for host-side timing against the emulated board).
func emulatorMonotonicSeconds() -> Double {
  // DispatchTime is CLOCK_MONOTONIC on Linux (`timespec`'s fields are ambiguous once NIO, which
  // the serve tests use, brings CDispatch's declaration into the module).
  Double(DispatchTime.now().uptimeNanoseconds) * 1e-9
}

/// The Uno boards' firmware and their simavr emulator (Boards/uno-drv2605l, Boards/uno-hbridge,
/// Boards/uno-emulator built once per board): what the build needs, how to build it, and where
/// the results are. The unqualified names are the Uno + DRV2605L's.
enum EmulatorToolchain {
  static let boardDirectory = CLIRunner.packageRoot.appendingPathComponent("Boards/uno-drv2605l")
  static let firmwareDirectory = boardDirectory.appendingPathComponent("firmware")
  static let emulatorDirectory = CLIRunner.packageRoot.appendingPathComponent("Boards/uno-emulator")
  static let firmwareELF = firmwareDirectory.appendingPathComponent("build/hapticctl-uno.elf")
  static let emulatorBinary = emulatorDirectory.appendingPathComponent("build/uno-drv2605l/hapticctl-emu-uno")
  static let bootloader = emulatorDirectory.appendingPathComponent("build/optiboot_atmega328.hex")
  /// The Uno + DRV8833 H-bridge board's.
  static let hbridgeFirmwareELF = CLIRunner.packageRoot.appendingPathComponent(
    "Boards/uno-hbridge/firmware/build/hapticctl-uno-hbridge.elf")
  static let hbridgeEmulatorBinary = emulatorDirectory.appendingPathComponent("build/uno-hbridge/hapticctl-emu-uno")

  /// Every build the emulated tests need: `make -C directory arguments…`.
  static let builds: [(directory: String, arguments: [String])] = [
    ("Boards/uno-drv2605l/firmware", []), ("Boards/uno-hbridge/firmware", []),
    ("Boards/uno-emulator", ["BOARD=uno-drv2605l"]), ("Boards/uno-emulator", ["BOARD=uno-hbridge"]),
  ]

  /// What flashing through the emulated bootloader needs beyond ``missing``: avrdude.
  static let flashMissing: [String] = which("avrdude") == nil ? ["avrdude not found in PATH"] : []

  /// The full path of `name` in PATH, if it is there.
  static func which(_ name: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for directory in path.split(separator: ":") {
      let candidate = "\(directory)/\(name)"
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return nil
  }

  /// What is missing to build the firmware and the emulator (empty when everything is there).
  static let missing: [String] = {
    var missing: [String] = []
    for tool in ["make", "avr-gcc", "avr-objcopy", "avr-size", "cc"] where which(tool) == nil {
      missing.append("\(tool) not found in PATH")
    }
    // The simavr headers: where pkg-config says, else the usual places.
    var includeDirectories = ["/usr/include/simavr", "/usr/local/include/simavr"]
    if which("pkg-config") != nil,
      let flags = try? run("pkg-config", ["--cflags", "simavr"]), flags.status == 0
    {
      includeDirectories += flags.output.split(whereSeparator: \.isWhitespace)
        .filter { $0.hasPrefix("-I") }.map { String($0.dropFirst(2)) }
    }
    if !includeDirectories.contains(where: { FileManager.default.fileExists(atPath: "\($0)/sim_avr.h") }) {
      missing.append("simavr headers (sim_avr.h) not found (Debian: libsimavr-dev)")
    }
    // The emulator's make builds Optiboot from its source.
    if !FileManager.default.fileExists(atPath: "/usr/share/arduino/hardware/arduino/avr/bootloaders/optiboot/optiboot.c") {
      missing.append("Optiboot's source not found (Debian: arduino-core-avr)")
    }
    return missing
  }()

  /// Why the emulated-board tests do not run, for the skip message.
  static var skipReason: String {
    "emulated board tests need avr-gcc, make and simavr: " + missing.joined(separator: "; ")
  }

  /// Runs `executable` (looked up in PATH) with `arguments` in the package root; returns the
  /// exit status and standard output and error together.
  static func run(_ executable: String, _ arguments: [String], directory: URL? = nil) throws -> (
    status: Int32, output: String
  ) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [executable] + arguments
    process.currentDirectoryURL = directory ?? CLIRunner.packageRoot
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
  }

  /// `make -C directory arguments…` from the package root.
  static func make(_ directory: String, _ arguments: [String] = []) throws -> (status: Int32, output: String) {
    try run("make", ["-C", directory] + arguments)
  }

  /// Builds the firmware and the emulator once per test process (make is incremental);
  /// nil when both built, else the failing command's output.
  /// The firmwares' host tests, run after the builds.
  static let hostTests: [(directory: String, arguments: [String])] = [
    ("Boards/uno-drv2605l/firmware", ["test"]), ("Boards/uno-hbridge/firmware", ["test"]),
  ]

  /// Every build, then the host tests, once per test process and one after the other (two makes
  /// in one folder at once would race): the command, its exit status (-1: it did not start) and
  /// output.
  static let runs: [(command: String, status: Int32, output: String)] = (builds + hostTests).map { directory, arguments in
    let command = (["make -C", directory] + arguments).joined(separator: " ")
    do {
      let result = try make(directory, arguments)
      return (command, result.status, result.output)
    } catch {
      return (command, -1, "\(error)")
    }
  }

  /// Nil when the firmware and the emulators built, else the failing command's output.
  static let buildFailure: String? = runs.prefix(builds.count).first { $0.status != 0 }.map {
    "\($0.command): exit \($0.status)\n\($0.output)"
  }
}

/// One `hapticctl-emu-uno` process: started with its arguments, its pty path read from the
/// first line of its standard output, stopped with SIGTERM (and killed if it lingers, or when
/// the object goes away first).
///
/// Spawned with posix_spawn and an empty signal mask rather than Foundation's `Process`: a
/// child inherits the blocked signals of the thread that starts it, and Swift Testing's worker
/// threads block SIGTERM and SIGINT, which the emulator (sigaction only) would then never see.
final class EmulatorProcess {
  let pid: pid_t
  /// The pseudo-terminal the firmware's UART is on.
  private(set) var ptyPath = ""
  private let stdoutFD: Int32
  private let stderrPath: String
  private var result: (status: Int32, stderr: String)?

  /// Starts the emulator on the built firmware; `trace` is the CSV to write register writes to,
  /// `events` the one for the firmware's events.
  convenience init(trace: URL? = nil, events: URL? = nil, noChip: Bool = false, lineTimeout: Double = 10) throws {
    var arguments = [EmulatorToolchain.emulatorBinary.path, "--firmware", EmulatorToolchain.firmwareELF.path]
    if let trace { arguments += ["--trace", trace.path] }
    if let events { arguments += ["--events", events.path] }
    if noChip { arguments.append("--no-chip") }
    try self.init(arguments: arguments, lineTimeout: lineTimeout)
  }

  /// Starts `arguments` (a program that prints a pty path first: the emulator, or
  /// `hapticctl emulate`).
  init(arguments: [String], lineTimeout: Double = 10) throws {
    stderrPath = FileManager.default.temporaryDirectory
      .appendingPathComponent("hapticctl-emu-\(UUID().uuidString).log").path

    var fds: [Int32] = [-1, -1]
    guard pipe(&fds) == 0 else { throw EmulatorError("pipe: \(String(cString: strerror(errno)))") }
    for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
    posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    // Leave no other descriptor of the test process (other tests' pipes) open in the child.
    if let closeFrom = Self.addCloseFrom { _ = closeFrom(&actions, 3) }
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var mask = sigset_t()
    sigemptyset(&mask)
    posix_spawnattr_setsigmask(&attributes, &mask)
    var defaults = sigset_t()
    sigemptyset(&defaults)
    for signal in [SIGTERM, SIGINT, SIGPIPE, SIGCHLD] { sigaddset(&defaults, signal) }
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

    let cArguments = arguments.map { strdup($0) } + [nil]
    defer { cArguments.forEach { free($0) } }
    var child: pid_t = 0
    let spawned = posix_spawn(&child, arguments[0], &actions, &attributes, cArguments, environ)
    close(fds[1])
    guard spawned == 0 else {
      close(fds[0])
      throw EmulatorError("cannot start \(arguments[0]): \(String(cString: strerror(spawned)))")
    }
    pid = child
    stdoutFD = fds[0]
    do {
      ptyPath = try readFirstLine(timeout: lineTimeout)
    } catch {
      stop(timeout: 2)
      throw error
    }
  }

  /// glibc ≥ 2.34's posix_spawn_file_actions_addclosefrom_np (not in Swift's Glibc module).
  private static let addCloseFrom: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? = {
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np")
    else { return nil }
    return unsafeBitCast(
      symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
  }()

  /// Reads stdout up to the first newline, waiting at most `timeout` seconds.
  private func readFirstLine(timeout: Double) throws -> String {
    let deadline = emulatorMonotonicSeconds() + timeout
    var line: [UInt8] = []
    while true {
      let left = deadline - emulatorMonotonicSeconds()
      guard left > 0 else {
        throw EmulatorError("no pty path on the emulator's stdout within \(timeout) s\n\(stderrText)")
      }
      var pfd = pollfd(fd: stdoutFD, events: Int16(POLLIN), revents: 0)
      let ready = poll(&pfd, 1, Int32(min(left, 1) * 1000))
      if ready < 0 && errno == EINTR { continue }
      guard ready > 0 else { continue }
      var byte: UInt8 = 0
      let count = Glibc.read(stdoutFD, &byte, 1)
      if count < 0 && errno == EINTR { continue }
      guard count == 1 else {
        throw EmulatorError("the emulator exited before printing its pty path\n\(stderrText)")
      }
      if byte == UInt8(ascii: "\n") { break }
      line.append(byte)
    }
    return String(decoding: line, as: UTF8.self)
  }

  /// What the emulator wrote to standard error so far.
  var stderrText: String {
    (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? ""
  }

  /// The exit status once the process ended (128 + the signal when killed by one), else nil.
  private func reap(blocking: Bool) -> Int32? {
    var status: Int32 = 0
    while true {
      let done = waitpid(pid, &status, blocking ? 0 : WNOHANG)
      if done < 0 && errno == EINTR { continue }
      guard done == pid else { return done < 0 ? -1 : nil }
      let signal = status & 0x7F
      return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
    }
  }

  /// Sends SIGTERM (once) and waits for the exit, killing the process after `timeout` seconds;
  /// returns the exit status (128 + the signal when killed) and its standard error.
  @discardableResult
  func stop(timeout: Double = 10) -> (status: Int32, stderr: String) {
    if let result { return result }
    kill(pid, SIGTERM)
    let deadline = emulatorMonotonicSeconds() + timeout
    var status = reap(blocking: false)
    while status == nil && emulatorMonotonicSeconds() < deadline {
      usleep(5_000)
      status = reap(blocking: false)
    }
    if status == nil {
      kill(pid, SIGKILL)
      status = reap(blocking: true)
    }
    let finished = (status ?? -1, stderrText)
    result = finished
    close(stdoutFD)
    unlink(stderrPath)
    return finished
  }

  /// The emulator's own summary: how often it fell behind real time (from its exit line).
  /// What the emulator said of keeping real time (its exit summary: how far its simulated
  /// time fell behind the wall clock), and of bytes its UART lost as a real one would: a
  /// failure's message carries it, so that a machine too busy to run the board in real time is
  /// told apart from a firmware or host fault.
  static func realTimeNote(in stderr: String) -> String {
    stderr.split(separator: "\n").filter { $0.contains("real time:") || $0.contains("UART overruns") || $0.contains("fell behind") }
      .map { String($0) }.joined(separator: "\n")
  }

  static func slips(in stderr: String) -> Int {
    guard let range = stderr.range(of: #"(\d+) slips"#, options: .regularExpression) else { return 0 }
    return Int(stderr[range].split(separator: " ")[0]) ?? 0
  }

  deinit {
    if result == nil {
      kill(pid, SIGKILL)
      _ = reap(blocking: true)
      close(stdoutFD)
      unlink(stderrPath)
    }
  }
}

struct EmulatorError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}

/// The emulator's register trace (`time_us,register,value`, one line per DRV2605L write).
struct EmulatorTrace {
  struct Write: Equatable {
    /// Simulated microseconds since reset.
    let microseconds: Int
    let register: Int
    let value: Int
  }

  /// DRV2605L RTP_INPUT.
  static let rtpInput = 2

  let writes: [Write]

  init(contentsOf url: URL) throws {
    let text = try String(contentsOf: url, encoding: .utf8)
    var lines = text.split(separator: "\n", omittingEmptySubsequences: true)
    guard let header = lines.first, header == "time_us,register,value" else {
      throw EmulatorError("trace \(url.path): header is \(lines.first.map(String.init) ?? "missing")")
    }
    lines.removeFirst()
    writes = try lines.map { line in
      let fields = line.split(separator: ",")
      guard fields.count == 3, let t = Int(fields[0]), let r = Int(fields[1]), let v = Int(fields[2]) else {
        throw EmulatorError("trace \(url.path): bad line '\(line)'")
      }
      return Write(microseconds: t, register: r, value: v)
    }
  }

  /// RTP_INPUT writes, in order.
  var rtp: [Write] { writes.filter { $0.register == Self.rtpInput } }

  /// The events file `--trace FILE.csv` writes beside it: FILE.events.csv.
  static func eventsURL(for trace: URL) -> URL {
    trace.deletingPathExtension().appendingPathExtension("events.csv")
  }

  /// The rows of an events file (`time_s,event,channel,detail`): simulated µs and event name.
  static func events(contentsOf url: URL) throws -> [(microseconds: Int, name: String)] {
    let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n")
    guard lines.first == "time_s,event,channel,detail" else {
      throw EmulatorError("events \(url.path): header is \(lines.first.map(String.init) ?? "missing")")
    }
    return try lines.dropFirst().map { line in
      let fields = line.split(separator: ",", omittingEmptySubsequences: false)
      guard fields.count == 4, let seconds = Double(fields[0]) else {
        throw EmulatorError("events \(url.path): bad line '\(line)'")
      }
      return (Int((seconds * 1e6).rounded()), String(fields[1]))
    }
  }
}

/// RTP_INPUT over simulated time as a step function, compared frame by frame with the levels
/// the renderer computed.
struct RTPComparison {
  /// One board-clock period of Timer1 (65 536 ticks at 2 MHz) in simulated µs.
  static let timer1Period = 32_768.0

  /// Frames compared (from the first non-zero frame to the last frame).
  var framesCompared = 0
  /// The largest time shift (µs) a frame needed to find its level within ±1.
  var worstTimingMicroseconds = 0.0
  /// The largest level difference at the best-matching time (0 or 1 when every frame matched).
  var worstValueDeviation = 0
  /// Frames whose level (±1) was not the one in force at their nominal time.
  var framesNeedingTimingSlack = 0
  /// Frames matched only within ±1 level.
  var framesOffByOne = 0
  /// Descriptions of frames that did not match (at most a few).
  var failures: [String] = []
  var failureCount = 0
  /// Mismatched frames that do match once moved by a whole number of Timer1 periods (±32.768 or
  /// ±65.536 ms): the signature of a board clock that lost or gained an overflow.
  var failuresMatchingShifted = 0
  /// Mismatched frames where the board played (±1) the level of a frame one or two before or
  /// after: a ramp frame played late or early (a value held past its frame), not a wrong value.
  var failuresMatchingNeighbourFrames = 0
  /// Where the comparison anchored: frame index of the first non-zero frame, and simulated µs
  /// of the first non-zero RTP write.
  var firstFrame = 0
  var firstWriteMicroseconds = 0
  /// Non-zero writes after the last frame's slot (there must be none).
  var lateNonZeroWrites = 0

  var summary: String {
    "\(framesCompared) frames compared from frame \(firstFrame) (RTP anchor \(firstWriteMicroseconds) µs): "
      + "worst timing \(Int(worstTimingMicroseconds)) µs (\(framesNeedingTimingSlack) frames off their nominal time), "
      + "worst value deviation \(worstValueDeviation) (\(framesOffByOne) frames ±1), \(failureCount) mismatches"
      + (failuresMatchingShifted > 0 ? " (\(failuresMatchingShifted) of them match shifted by a Timer1 period)" : "")
  }

  /// Compares `writes` (RTP_INPUT) with `levels` (one per 1 ms frame from frame 0): aligned on
  /// the first non-zero level and the first non-zero write, frame k must find its level ±1 in
  /// force somewhere in [t − tolerance, t + tolerance], t = anchor + (k − first)·period.
  static func compare(
    writes: [EmulatorTrace.Write], levels: [Int], period: Double = 1000, tolerance: Double = 1000,
    valueTolerance: Int = 1
  ) -> RTPComparison? {
    guard let first = levels.firstIndex(where: { $0 != 0 }),
      let anchorIndex = writes.firstIndex(where: { $0.value != 0 })
    else { return nil }
    var result = RTPComparison()
    result.firstFrame = first
    let anchor = Double(writes[anchorIndex].microseconds)
    result.firstWriteMicroseconds = writes[anchorIndex].microseconds
    let times = writes.map { Double($0.microseconds) }
    /// Index of the write in force at `t` (the last at or before it), or nil before the first.
    func index(at t: Double) -> Int? {
      var low = 0
      var high = times.count
      while low < high {
        let mid = (low + high) / 2
        if times[mid] <= t { low = mid + 1 } else { high = mid }
      }
      return low == 0 ? nil : low - 1
    }
    /// The pieces of the step function inside [t − tolerance, t + tolerance]: [start, end) and value.
    func pieces(around t: Double) -> [(start: Double, end: Double, value: Int)] {
      let lower = t - tolerance
      let upper = t + tolerance
      var pieces: [(start: Double, end: Double, value: Int)] = []
      var start = lower
      let before = index(at: lower)
      var value = before.map { writes[$0].value } ?? 0
      var next = (before ?? -1) + 1
      while next < writes.count && times[next] <= upper {
        pieces.append((start, times[next], value))
        start = times[next]
        value = writes[next].value
        next += 1
      }
      pieces.append((start, upper + 1, value))
      return pieces
    }
    /// The matching piece nearest to t (shift 0 when the level in force at t matches).
    func match(_ level: Int, at t: Double) -> (shift: Double, deviation: Int)? {
      var best: (shift: Double, deviation: Int)?
      for piece in pieces(around: t) {
        let deviation = abs(piece.value - level)
        guard deviation <= valueTolerance else { continue }
        let shift = t < piece.start ? piece.start - t : t >= piece.end ? t - piece.end : 0
        if best == nil || shift < best!.shift || (shift == best!.shift && deviation < best!.deviation) {
          best = (shift, deviation)
        }
      }
      return best
    }
    for k in first..<levels.count {
      let level = levels[k]
      let t = anchor + Double(k - first) * period
      result.framesCompared += 1
      if let best = match(level, at: t) {
        result.worstTimingMicroseconds = max(result.worstTimingMicroseconds, best.shift)
        if best.shift > 0 { result.framesNeedingTimingSlack += 1 }
        if best.deviation > 0 { result.framesOffByOne += 1 }
        result.worstValueDeviation = max(result.worstValueDeviation, best.deviation)
      } else {
        let around = pieces(around: t)
        result.failureCount += 1
        let nearest = around.map { abs($0.value - level) }.min() ?? level
        result.worstValueDeviation = max(result.worstValueDeviation, nearest)
        if [-2.0, -1, 1, 2].contains(where: { match(level, at: t + $0 * timer1Period) != nil }) {
          result.failuresMatchingShifted += 1
        }
        // The value in force at the frame's own time is a neighbouring frame's level.
        let inForce = index(at: t).map { writes[$0].value } ?? 0
        let neighbours = [k - 2, k - 1, k + 1, k + 2].filter { levels.indices.contains($0) }.map { levels[$0] }
        if neighbours.contains(where: { abs($0 - inForce) <= valueTolerance }) {
          result.failuresMatchingNeighbourFrames += 1
        }
        if result.failures.count < 8 {
          let seen = around.map { "\($0.value)@\(Int($0.start - anchor))µs" }.joined(separator: " ")
          result.failures.append("frame \(k) (t+\(Int(t - anchor)) µs): level \(level), RTP \(seen)")
        }
      }
    }
    let end = anchor + Double(levels.count - first) * period + tolerance
    result.lateNonZeroWrites = writes.filter { Double($0.microseconds) > end && $0.value != 0 }.count
    return result
  }

  /// Whether `deviation` (µs) is within `slack` of a non-zero whole number of Timer1 periods.
  static func isTimer1Multiple(_ deviation: Double, slack: Double = 3000) -> Bool {
    let periods = (deviation / timer1Period).rounded()
    return periods != 0 && abs(deviation - periods * timer1Period) <= slack
  }
}
