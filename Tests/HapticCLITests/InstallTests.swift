import Foundation
import Testing

/// Scripts/install.sh (issue "A newcomer's machine", point 3: installed, it cannot flash): a
/// hapticctl installed under a prefix and run from a folder outside the checkout finds its
/// board data and prebuilt images there, and the completions (and man page) are installed.
///
/// The install uses this test build's own hapticctl (`--binary`): the release build and the
/// man-page plugin compile the package, too slow for `swift test`; the man page is then checked
/// only when the script could make one (else it must say it skipped it).
@Suite("Scripts/install.sh")
struct InstallTests {
  /// Runs `Scripts/install.sh arguments…` from the package root: exit status and output.
  static func install(_ arguments: [String]) throws -> (status: Int32, output: String) {
    try EmulatorToolchain.run("bash", ["Scripts/install.sh"] + arguments)
  }

  /// The environment of a user who installed into `prefix`: its `bin` first on PATH, HOME a
  /// scratch folder (no user boards), none of hapticctl's data and board variables.
  static func environment(prefix: URL, home: URL) -> [String: String] {
    var environment = ProcessInfo.processInfo.environment
    environment["PATH"] = prefix.appendingPathComponent("bin").path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
    environment["HOME"] = home.path
    for name in ["HAPTICCTL_DATA_DIR", "HAPTICCTL_BOARDS_PATH", "HAPTICCTL_CONFIG"] { environment[name] = nil }
    return environment
  }

  /// Runs `hapticctl arguments…`, found on `environment`'s PATH, in `folder`; its output goes
  /// through files (no pipe to fill).
  static func hapticctl(_ arguments: [String], in folder: URL, environment: [String: String]) throws -> CLIRunner.Result {
    let out = folder.appendingPathComponent("stdout-\(UUID().uuidString).txt")
    let err = folder.appendingPathComponent("stderr-\(UUID().uuidString).txt")
    _ = FileManager.default.createFile(atPath: out.path, contents: nil)
    _ = FileManager.default.createFile(atPath: err.path, contents: nil)
    defer {
      try? FileManager.default.removeItem(at: out)
      try? FileManager.default.removeItem(at: err)
    }
    let outHandle = try FileHandle(forWritingTo: out)
    let errHandle = try FileHandle(forWritingTo: err)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["hapticctl"] + arguments
    process.environment = environment
    process.currentDirectoryURL = folder
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = outHandle
    process.standardError = errHandle
    try process.run()
    process.waitUntilExit()
    try? outHandle.close()
    try? errHandle.close()
    let stdout = try String(contentsOf: out, encoding: .utf8)
    let stderr = try String(contentsOf: err, encoding: .utf8)
    return CLIRunner.Result(status: process.terminationStatus, stdout: stdout, stderr: stderr)
  }

  @Test("--help; a bad option or a missing value is a usage error (exit 2) that installs nothing")
  func usage() throws {
    let help = try Self.install(["--help"])
    #expect(help.status == 0, "\(help.output)")
    #expect(help.output.contains("--prefix DIR") && help.output.contains("--binary PATH"), "\(help.output)")
    let bad = try Self.install(["--no-such-option"])
    #expect(bad.status == 2, "\(bad.output)")
    #expect(bad.output.contains("unknown option") && bad.output.contains("Usage:"), "\(bad.output)")
    let missing = try Self.install(["--prefix"])
    #expect(missing.status == 2, "\(missing.output)")
    #expect(missing.output.contains("--prefix needs a value"), "\(missing.output)")
  }

  @Test(
    "Installed into a temporary prefix, hapticctl runs from outside the checkout: boards, emulate, flash, completions",
    .enabled(if: EmulatorToolchain.missing.isEmpty, Comment(rawValue: EmulatorToolchain.skipReason)))
  func installed() throws {
    let prefix = try CLIRunner.scratchFolder("install-prefix")
    let home = try CLIRunner.scratchFolder("install-home")
    defer {
      try? FileManager.default.removeItem(at: prefix)
      try? FileManager.default.removeItem(at: home)
    }
    let installed = try Self.install(["--prefix", prefix.path, "--binary", CLIRunner.executable.path])
    try #require(installed.status == 0, "install.sh exit \(installed.status)\n\(installed.output)")
    for board in ["uno-drv2605l", "uno-hbridge"] {
      #expect(installed.output.contains("built the \(board) firmware"), "\(installed.output)")
      #expect(installed.output.contains("built the \(board) emulator"), "\(installed.output)")
    }
    // hapticctl resolves its own path: compare with the prefix's real path.
    let share = prefix.resolvingSymlinksInPath().path + "/share/hapticctl"
    // Sources only from the checkout: its build folders (host tests, fuzzers) stay behind.
    #expect(!FileManager.default.fileExists(atPath: share + "/Boards/uno-drv2605l/firmware/build/host-tests"))
    let environment = Self.environment(prefix: prefix, home: home)

    let boards = try Self.hapticctl(["boards", "list"], in: home, environment: environment)
    #expect(boards.status == 0, "\(boards.stderr)")
    #expect(boards.stdout.contains("uno-hbridge"), "\(boards.stdout)")

    // The blank Uno and the H-bridge board start on the installed, prebuilt images: no build.
    let path = environment["PATH"] ?? ""
    for (name, options) in [("blank", ["--blank"]), ("hbridge", ["--board", "uno-hbridge"])] {
      let link = home.appendingPathComponent("uno-\(name)")
      let emulate = try EmulatorProcess(
        arguments: [
          "/usr/bin/env", "-u", "HAPTICCTL_DATA_DIR", "-u", "HAPTICCTL_BOARDS_PATH", "PATH=\(path)", "HOME=\(home.path)",
          "/bin/sh", "-c", "cd \"$1\" && shift && exec hapticctl emulate \"$@\"", "sh", home.path, "--link", link.path,
        ] + options, lineTimeout: 60)
      let pty = emulate.ptyPath
      var linked: String?
      for _ in 0..<40 where linked == nil {
        linked = try? FileManager.default.destinationOfSymbolicLink(atPath: link.path)
        if linked == nil { usleep(50_000) }
      }
      let stopped = emulate.stop()
      #expect(pty.hasPrefix("/dev/"), "emulate \(options): first line \(pty)\n\(stopped.stderr)")
      #expect(linked == pty, "emulate \(options): link \(linked ?? "missing") for \(pty)")
      #expect(stopped.status == 0, "emulate \(options): exit \(stopped.status)\n\(stopped.stderr)")
      #expect(!stopped.stderr.contains("building"), "emulate \(options) rebuilt the installed images:\n\(stopped.stderr)")
    }

    let flash = try Self.hapticctl(
      ["flash", "--board", "uno-drv2605l", "--port", home.appendingPathComponent("uno").path, "--dry-run"], in: home,
      environment: environment)
    #expect(flash.status == 0, "\(flash.stderr)")
    #expect(
      flash.stdout.contains("flash:w:\(share)/Boards/uno-drv2605l/firmware/build/hapticctl-uno.hex:i"),
      "not the installed image:\n\(flash.stdout)")
    #expect(!flash.stdout.contains("(cd "), "the installed image needs a build:\n\(flash.stdout)")

    let manPage = prefix.appendingPathComponent("share/man/man1/hapticctl.1")
    if FileManager.default.fileExists(atPath: manPage.path) {
      let text = try String(contentsOf: manPage, encoding: .utf8)
      #expect(text.contains("flash"), "the man page does not mention flash")
    } else {
      #expect(installed.output.contains("man page: skipped"), "no man page, and no word why:\n\(installed.output)")
    }
    for file in [
      "share/bash-completion/completions/hapticctl", "share/zsh/site-functions/_hapticctl",
      "share/fish/vendor_completions.d/hapticctl.fish",
    ] {
      let text = (try? String(contentsOf: prefix.appendingPathComponent(file), encoding: .utf8)) ?? ""
      #expect(text.contains("emulate"), "\(file) is missing or does not complete emulate")
    }

    let removed = try Self.install(["--uninstall", "--prefix", prefix.path])
    #expect(removed.status == 0, "\(removed.output)")
    #expect(!FileManager.default.fileExists(atPath: prefix.appendingPathComponent("bin/hapticctl").path))
    #expect(!FileManager.default.fileExists(atPath: share))
  }
}
