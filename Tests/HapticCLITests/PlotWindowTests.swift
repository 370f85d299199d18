import Foundation
import Testing

/// `--from S --to S`: a window of a long pattern, at full resolution and in pattern time, and the
/// errors for windows that cannot be plotted.
@Suite("plots: --from/--to windows of a long pattern", .serialized)
struct PlotWindowTests {
  /// The x tick labels of every panel, as numbers.
  private func timeTicks(_ svg: String) -> [Double] {
    PlotText.all(in: svg).filter { $0.role == "tick x" }.compactMap { Double($0.text) }
  }

  @Test("render --from 30 --to 32 of a 10-minute pattern: its four transients apart, the axis in pattern time")
  func renderWindow() throws {
    let (folder, path) = try CLIRunner.scratchFile("ten-minutes.ahap", PlotFixtures.transients(every: 0.5, for: 600))
    defer { try? FileManager.default.removeItem(at: folder) }
    let svg = try PlotFixtures.svg(["render", path, "--board", "sim-lra", "--format", "svg", "--from", "30", "--to", "32"])
    let ticks = timeTicks(svg)
    #expect(ticks.count >= 6 && ticks.allSatisfy { (30...32).contains($0) }, "time ticks \(ticks)")
    #expect(ticks.first == 30 && ticks.last == 32, "time ticks \(ticks)")
    #expect(PlotText.hoverTitles(in: svg).count == 5, "the transients at 30, 30.5, 31, 31.5 and 32 s are marked")
    let image = try SVGRaster.render(svg)
    let amplitude = try #require(image.foundAxes().first, "an amplitude panel")
    let bursts = PlotFixtures.bursts(in: image, amplitude, zeroRow: (amplitude.top + amplitude.bottom) / 2)
    #expect(bursts.runs == 4, "one burst per transient in [30, 32) s: \(bursts)")
    #expect(bursts.active < (amplitude.right - amplitude.left) / 5, "mostly quiet, not a solid block: \(bursts)")
  }

  @Test("simulate --from 10 --to 11 of a 20-second pattern: two transients' vibration, the axis in pattern time")
  func simulateWindow() throws {
    let (folder, path) = try CLIRunner.scratchFile("twenty-seconds.ahap", PlotFixtures.transients(every: 0.5, for: 20))
    defer { try? FileManager.default.removeItem(at: folder) }
    let svg = try PlotFixtures.svg(["simulate", path, "--board", "sim-lra", "--format", "svg", "--from", "10", "--to", "11"])
    let ticks = timeTicks(svg)
    #expect(ticks.count >= 6 && ticks.allSatisfy { (10...11).contains($0) }, "time ticks \(ticks)")
    let image = try SVGRaster.render(svg)
    let axes = image.foundAxes()
    #expect(axes.count == 2, "drive and acceleration panels")
    let acceleration = try #require(axes.last)
    let bursts = PlotFixtures.bursts(in: image, acceleration, zeroRow: (acceleration.top + acceleration.bottom) / 2)
    #expect(bursts.runs == 2, "the transients at 10 and 10.5 s: \(bursts)")
    #expect(bursts.active < (acceleration.right - acceleration.left) / 5, "mostly at rest: \(bursts)")
  }

  @Test("Bad windows: clear errors naming the option and value, non-zero exit, nothing written")
  func badWindows() throws {
    let folder = try CLIRunner.scratchFolder("window")
    defer { try? FileManager.default.removeItem(at: folder) }
    let out = folder.appendingPathComponent("plot.svg").path
    let pattern = "Examples/pair-lra.ahap"
    for command in ["render", "simulate"] {
      let base = [command, pattern, "--board", "sim-lra", "-o", out]
      let negative = try CLIRunner.run(base + ["--format", "svg", "--from=-1"])
      #expect(negative.status == 64, "\(command): \(negative.stderr)")
      #expect(
        negative.stderr.contains("--from -1: the window's start must be a time in seconds, 0 or more"), "\(negative.stderr)")
      let backwards = try CLIRunner.run(base + ["--format", "svg", "--from", "0.5", "--to", "0.25"])
      #expect(backwards.status == 64, "\(command): \(backwards.stderr)")
      #expect(backwards.stderr.contains("--to 0.25: the window's end must come after --from 0.5 s"), "\(backwards.stderr)")
      let late = try CLIRunner.run(base + ["--format", "svg", "--from", "700"])
      #expect(late.status == 1, "\(command): \(late.stderr)")
      #expect(late.stderr.contains("--from 700: the \(command == "render" ? "render" : "simulation") ends at"), "\(late.stderr)")
      let otherFormat = try CLIRunner.run(base + ["--format", "csv", "--to", "0.5"])
      #expect(otherFormat.status == 64, "\(command): \(otherFormat.stderr)")
      #expect(otherFormat.stderr.contains("use them with --format svg"), "\(otherFormat.stderr)")
      #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty, "\(command): nothing written")
    }
    let help = try CLIRunner.run(["render", "--help"])
    #expect(help.stdout.contains("--from <seconds>") && help.stdout.contains("SVG only"), "the options are documented")
  }
}
