public import ArgumentParser

/// The `hapticctl` command: plays Core-Haptics-style patterns on actuator boards from Linux.
public struct Hapticctl: ParsableCommand {
  /// The command's name, abstract and subcommands.
  public static let configuration = CommandConfiguration(
    commandName: "hapticctl",
    abstract: "Validate, render and play Core Haptics (AHAP) patterns on LRA/ERM actuator boards.",
    version: HapticctlVersion.string,
    subcommands: [
      Validate.self, Render.self, Simulate.self, Send.self, Presets.self, Probe.self, Ports.self, BoardsCommand.self,
      Flash.self, Calibrate.self, Sim.self, Emulate.self, Characterize.self, Convert.self, Serve.self, Studio.self,
      RigCommand.self,
    ]
  )

  /// Creates the command (argument-parser fills it in).
  public init() {}

  /// Runs the command line. A first word that names no subcommand is a usage error (exit 64),
  /// `--help` or not: argument-parser would print the root help for `hapticctl rigs --help` and
  /// exit 0, as if `rigs` existed.
  public static func main() {
    let arguments = Array(CommandLine.arguments.dropFirst())
    if let first = arguments.first, !first.hasPrefix("-") {
      let names = configuration.subcommands.compactMap { $0.configuration.commandName }
      if !names.contains(first) && first != "help" {
        exit(withError: ValidationError("unknown subcommand '\(first)' (the subcommands: \(names.joined(separator: ", ")))"))
      }
    }
    main(arguments)
  }
}

/// The version printed by `hapticctl --version`.
public enum HapticctlVersion {
  /// Semantic version of this build.
  public static let string = "0.9.0"
}
