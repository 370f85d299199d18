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
      Flash.self, Calibrate.self, Sim.self, Emulate.self, Characterize.self, Convert.self,
    ]
  )

  /// Creates the command (argument-parser fills it in).
  public init() {}
}

/// The version printed by `hapticctl --version`.
public enum HapticctlVersion {
  /// Semantic version of this build.
  public static let string = "0.9.0"
}
