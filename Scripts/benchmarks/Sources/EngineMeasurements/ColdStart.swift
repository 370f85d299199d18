import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Cold `hapticctl send --sim` start to first frame (issue 6, goal ≤ 50 ms), measured from
/// outside the process: the CLI exposes no timing of its own.
///
/// * Total wall time of `hapticctl send ONE_TRANSIENT.ahap --sim --json` from posix_spawn to
///   waitpid, and the CLI's own `wall_s` (from after `engine.start()` returned to the report:
///   the transient's playback and completion, a status request with a 60 ms wait, and close).
///   total − wall_s = launch → engine started, plus the report print and process exit.
/// * `hapticctl --help`: launch, dynamic linking, Swift runtime and argument parsing alone.
/// * A breakdown under strace (`-f --seccomp-bpf`: only execve, openat, clone, sleeps and
///   exit_group stop the process; markers also: the last shared library opened, the AHAP file
///   opened). Threads cannot be told apart by name (Foundation on Linux does not
///   pass `Thread.name` to the kernel), so the markers are the main thread's: its first
///   `clone` is the `SimulatorBoardLink` thread (arguments parsed, pattern loaded, board
///   booted and identified), and its first 50 ms sleep is `send`'s wait loop, entered right
///   after `player.start` returned (engine started; in process the clock is known at once).
///   The player starts at frame now + 2 (guard time), so the first non-zero drive follows
///   that marker by 1–2 ms: first frame ≈ execve → first 50 ms sleep + ≤ 2 ms.
enum ColdStart {
  struct Run {
    var total: Double
    var output: String
  }

  /// Runs `arguments` (argv[0] = the executable path) with standard output captured; returns
  /// the wall time from spawn to reaped exit.
  static func spawn(_ arguments: [String], stdoutPath: String) -> Run? {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, stdoutPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var pid: pid_t = 0
    let start = ContinuousClock.now
    let rc = posix_spawn(&pid, arguments[0], &actions, nil, argv, environ)
    guard rc == 0 else {
      say("  cannot run \(arguments[0]): \(String(cString: strerror(rc)))")
      return nil
    }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    let total = (ContinuousClock.now - start).seconds
    let output = (try? String(contentsOfFile: stdoutPath, encoding: .utf8)) ?? ""
    return Run(total: total, output: output)
  }

  /// The number after `"key":` in a one-line JSON object.
  static func number(_ key: String, in json: String) -> Double? {
    guard let range = json.range(of: "\"\(key)\":") else { return nil }
    let rest = json[range.upperBound...].drop { $0 == " " }
    return Double(String(rest.prefix { "0123456789.-eE+".contains($0) }))
  }

  static func run(hapticctl: String, runs: Int, straceRuns: Int) {
    guard FileManager.default.isExecutableFile(atPath: hapticctl) else {
      say("  \(hapticctl) not found: build it first (cd /work/main && swift build -c release --product hapticctl)")
      say("  or pass --hapticctl PATH")
      return
    }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hapticctl-coldstart-\(getpid())").path
    try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let ahap = "\(folder)/one-transient.ahap"
    let text = """
      {"Version": 1.0, "Pattern": [{"Event": {"Time": 0.0, "EventType": "HapticTransient", \
      "EventParameters": [{"ParameterID": "HapticIntensity", "ParameterValue": 1.0}, \
      {"ParameterID": "HapticSharpness", "ParameterValue": 0.5}]}}]}
      """
    _ = FileManager.default.createFile(atPath: ahap, contents: Data(text.utf8))
    let out = "\(folder)/stdout.txt"
    say("  binary: \(hapticctl)")
    say("  pattern: one transient at 0 s")

    // Launch cost alone.
    var help: [Double] = []
    for _ in 0..<runs {
      if let run = spawn([hapticctl, "--help"], stdoutPath: out) { help.append(run.total) }
    }
    sayStats("hapticctl --help, spawn → exit (launch + runtime + argument parsing)", help)

    var totals: [Double] = []
    var walls: [Double] = []
    var before: [Double] = []
    var first: (total: Double, wall: Double)?
    var lastOutput = ""
    for _ in 0..<runs {
      guard let run = spawn([hapticctl, "send", ahap, "--sim", "--json"], stdoutPath: out) else { return }
      lastOutput = run.output
      guard let wall = number("wall_s", in: run.output) else {
        say("  unexpected output: \(run.output)")
        continue
      }
      if first == nil { first = (run.total, wall) }
      totals.append(run.total)
      walls.append(wall)
      before.append(run.total - wall)
    }
    if let first {
      say("  first run (least warm): total \(fmt(first.total * 1000, 1)) ms, wall_s \(fmt(first.wall * 1000, 1)) ms")
    }
    sayStats("send --sim --json, spawn → exit (total)", totals, digits: 1)
    sayStats("  of which the CLI's wall_s (engine started → report printed)", walls, digits: 1)
    sayStats("  total − wall_s (launch → engine started, + print and exit)", before, digits: 1)
    say("  last report: \(lastOutput.trimmingCharacters(in: .whitespacesAndNewlines))")

    // Breakdown under strace.
    guard straceRuns > 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/strace") else {
      say("  (strace breakdown skipped)")
      return
    }
    for detailed in [false, true] {
      breakdown(hapticctl: hapticctl, ahap: ahap, folder: folder, runs: straceRuns, detailed: detailed)
    }
  }

  /// Runs `send` under strace `runs` times and prints the markers. `detailed` also traces
  /// openat (the end of dynamic loading, the AHAP file opened), which slows start-up visibly
  /// (Foundation opens many files); the light pass gives the first-frame estimate.
  static func breakdown(hapticctl: String, ahap: String, folder: String, runs: Int, detailed: Bool) {
    var toLibraries: [Double] = []
    var toPattern: [Double] = []
    var toLink: [Double] = []
    var toPlaying: [Double] = []
    var toExit: [Double] = []
    var underStrace: [Double] = []
    let traced = detailed
      ? "execve,openat,clone,clone3,nanosleep,clock_nanosleep,exit_group"
      : "execve,clone,clone3,nanosleep,clock_nanosleep,exit_group"
    let out = "\(folder)/stdout.txt"
    for _ in 0..<runs {
      let trace = "\(folder)/trace.txt"
      guard
        let run = spawn(
          ["/usr/bin/strace", "-f", "--seccomp-bpf", "-ttt", "-e", "trace=\(traced)", "-o", trace,
           hapticctl, "send", ahap, "--sim", "--json"], stdoutPath: out)
      else { return }
      underStrace.append(run.total)
      let lines = ((try? String(contentsOfFile: trace, encoding: .utf8)) ?? "").split(separator: "\n")
      func fields(_ line: Substring) -> (pid: Substring, time: Double)? {
        let parts = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
        guard parts.count >= 2, let time = Double(parts[1]) else { return nil }
        return (parts[0], time)
      }
      guard let execLine = lines.first(where: { $0.contains("execve(") }), let exec = fields(execLine) else { continue }
      let main = lines.filter { fields($0)?.pid == exec.pid }
      if let line = main.last(where: { $0.contains("openat(") && $0.contains(".so") }), let t = fields(line) {
        toLibraries.append(t.time - exec.time)
      }
      if let line = main.first(where: { $0.contains("openat(") && $0.contains("one-transient.ahap") }),
        let t = fields(line)
      {
        toPattern.append(t.time - exec.time)
      }
      if let line = main.first(where: { $0.contains("clone3(") || $0.contains("clone(") }), let t = fields(line) {
        toLink.append(t.time - exec.time)
      }
      if let line = main.first(where: { $0.contains("nanosleep(") && $0.contains("tv_nsec=50000000") }),
        let t = fields(line)
      {
        toPlaying.append(t.time - exec.time)
      }
      if let line = lines.first(where: { $0.contains("exit_group(") }), let t = fields(line) {
        toExit.append(t.time - exec.time)
      }
    }
    say("  under strace, \(detailed ? "detailed" : "light") (\(runs) runs; traced: \(traced)):")
    if detailed {
      sayStats("  execve → last shared library opened (dynamic loading)", toLibraries, digits: 1)
      sayStats("  execve → AHAP file opened (runtime start-up, arguments parsed)", toPattern, digits: 1)
    }
    sayStats("  execve → main thread's first clone (SimulatorBoardLink thread: pattern loaded, board booted, identified)", toLink, digits: 1)
    sayStats("  execve → main thread's first 50 ms sleep (engine started, player.start returned)", toPlaying, digits: 1)
    sayStats("  execve → exit_group", toExit, digits: 1)
    sayStats("  spawn → exit under strace (total; tracing slows the sleeping threads)", underStrace, digits: 1)
    if !detailed, let playing = Summary(toPlaying) {
      say(
        "  => first frame ≈ execve → player started + 1–2 ms (the start goes to frame now + 2, now being the "
          + "frame under way): p50 ≈ \(fmt(playing.p50 * 1000 + 2, 1)) ms, p99 ≈ \(fmt(playing.p99 * 1000 + 2, 1)) ms "
          + "(upper estimate, strace-timed; fork/exec before execve adds ~1 ms)")
    }
  }
}
