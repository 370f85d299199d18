import ArgumentParser

/// `--from S --to S` of `render` and `simulate`: the window of pattern time an SVG plot shows,
/// at full resolution within it, with the time axis in pattern time. SVG only: the other
/// formats are always whole, and refuse the options.
struct PlotWindowOptions: ParsableArguments {
  @Option(help: ArgumentHelp("SVG only: plot from this pattern time on (seconds, default 0).", valueName: "seconds"))
  var from: Double?

  @Option(
    help: ArgumentHelp(
      "SVG only: plot up to this pattern time (seconds, default the end; past the end plots up to the end).",
      valueName: "seconds"))
  var to: Double?

  /// Checks the options on their own: SVG output, `--from` ≥ 0, `--to` after `--from`.
  func validate(isSVG: Bool) throws {
    guard from != nil || to != nil else { return }
    guard isSVG else {
      throw ValidationError(
        "--from and --to choose the window of an SVG plot: use them with --format svg (the other formats are always whole)")
    }
    if let from, !(from.isFinite && from >= 0) {
      throw ValidationError("--from \(Self.seconds(from)): the window's start must be a time in seconds, 0 or more")
    }
    if let to, !(to.isFinite && to > (from ?? 0)) {
      throw ValidationError("--to \(Self.seconds(to)): the window's end must come after --from \(Self.seconds(from ?? 0)) s")
    }
  }

  /// The window over a plot of `end` seconds of `what` (`render`, `simulation`): `--from` must
  /// come before the end; `--to` past the end stops at the end.
  func window(end: Double, of what: String) throws -> ClosedRange<Double> {
    let start = from ?? 0
    guard start < end else {
      throw CLIError("--from \(Self.seconds(start)): the \(what) ends at \(Self.seconds(end)) s, so the window would be empty")
    }
    return start...min(to ?? end, end)
  }

  /// `window` for a plot's note: `2.036 s` for all of a plot `end` seconds long, else
  /// `30–32 s of 599.517 s`.
  static func describe(_ window: ClosedRange<Double>, end: Double) -> String {
    let whole = "\(Decimal6.string(end, digits: 3)) s"
    return window == 0...end ? whole : "\(seconds(window.lowerBound))–\(seconds(window.upperBound)) s of \(whole)"
  }

  /// `value` in seconds without trailing zeros (`12`, `0.25`).
  static func seconds(_ value: Double) -> String {
    guard value.isFinite else { return "\(value)" }
    var text = Decimal6.string(value, digits: 6)
    while text.hasSuffix("0") { text.removeLast() }
    if text.hasSuffix(".") { text.removeLast() }
    return text
  }
}

/// A signal reduced to `count` columns over a time window: the least, greatest and mean value
/// of the samples in each column, so a long trace draws as small as a short one.
struct PlotColumns {
  /// The time span the columns cover, seconds.
  let window: ClosedRange<Double>
  /// How many columns.
  let count: Int
  private(set) var low: [Double]
  private(set) var high: [Double]
  private(set) var sum: [Double]
  /// How many samples each column holds.
  private(set) var samples: [Int]

  /// Empty columns, at most one per pixel of `width` and at least one per sample when the window
  /// holds fewer samples (`samplePeriod` apart) than that.
  init(window: ClosedRange<Double>, width: Double, samplePeriod: Double) {
    self.window = window
    let inWindow = Int(((window.upperBound - window.lowerBound) / samplePeriod).rounded(.up))
    count = max(1, min(Int(width), inWindow))
    low = Array(repeating: .infinity, count: count)
    high = Array(repeating: -.infinity, count: count)
    sum = Array(repeating: 0, count: count)
    samples = Array(repeating: 0, count: count)
  }

  /// Adds the sample at `time`; samples outside the window (its end excluded) are ignored.
  mutating func add(_ value: Double, at time: Double) {
    let span = window.upperBound - window.lowerBound
    guard time >= window.lowerBound, time < window.upperBound, span > 0 else { return }
    let index = min(count - 1, Int((time - window.lowerBound) / span * Double(count)))
    low[index] = min(low[index], value)
    high[index] = max(high[index], value)
    sum[index] += value
    samples[index] += 1
  }

  /// The mean of column `index` (0 when empty).
  func mean(of index: Int) -> Double {
    samples[index] > 0 ? sum[index] / Double(samples[index]) : 0
  }

  /// The page x of the centre of column `index` in `panel`.
  func centre(of index: Int, in panel: PlotPanel) -> Double {
    let span = window.upperBound - window.lowerBound
    return panel.x(window.lowerBound + (Double(index) + 0.5) * span / Double(count))
  }
}
