import Testing

/// A panel's axes as found in a plot image, from the pixels alone: the x axis is a dark
/// horizontal line at least half the image wide, the y axis the dark vertical line rising from
/// its left end; the tick marks are the dark pixels 3 px outside each.
struct FoundAxes {
  /// Row of the x axis.
  var bottom: Int
  /// Column of the y axis.
  var left: Int
  /// Last column of the x axis.
  var right: Int
  /// Top row of the y axis.
  var top: Int
  /// Centre columns of the tick marks under the x axis.
  var xTicks: [Int]
  /// Centre rows of the tick marks left of the y axis.
  var yTicks: [Int]

  /// The plot area inside the axes, as a box.
  var interior: PlotBox {
    PlotBox(x0: Double(left + 1), y0: Double(top), x1: Double(right), y1: Double(bottom))
  }
}

extension PNGImage {
  /// Every panel's axes, top to bottom.
  func foundAxes() -> [FoundAxes] {
    var found: [FoundAxes] = []
    var y = 0
    while y < height {
      let run = longestRun(count: width) { isDark($0, y) }
      if run.length >= width / 2 {
        // The y axis rises from the run's left end (which a tick mark may extend by a few px).
        let right = run.start + run.length - 1
        let rises = (run.start...min(run.start + 12, right)).map { column in
          var top = y
          while top > 0 && isDark(column, top - 1) { top -= 1 }
          return (column, top)
        }
        if let (left, top) = rises.first(where: { y - $0.1 >= 30 }) {
          let xTicks = runCentres(in: left...right) { isDark($0, y + 3) }
          let yTicks = runCentres(in: top...y) { isDark(left - 3, $0) }
          found.append(FoundAxes(bottom: y, left: left, right: right, top: top, xTicks: xTicks, yTicks: yTicks))
          y += 1
        }
      }
      y += 1
    }
    return found
  }

  /// The longest stretch of consecutive indices in 0..<`count` where `test` holds.
  private func longestRun(count: Int, _ test: (Int) -> Bool) -> (start: Int, length: Int) {
    var best = (start: 0, length: 0)
    var start: Int?
    for index in 0...count {
      if index < count && test(index) {
        if start == nil { start = index }
      } else if let begun = start {
        if index - begun > best.length { best = (begun, index - begun) }
        start = nil
      }
    }
    return best
  }

  /// The centre of every stretch of `range` where `test` holds.
  private func runCentres(in range: ClosedRange<Int>, _ test: (Int) -> Bool) -> [Int] {
    var centres: [Int] = []
    var start: Int?
    for index in range.lowerBound...(range.upperBound + 1) {
      if index <= range.upperBound && test(index) {
        if start == nil { start = index }
      } else if let begun = start {
        centres.append((begun + index - 1) / 2)
        start = nil
      }
    }
    return centres
  }

  /// The most consecutive rows with no ink between the first and the last inked row.
  func widestBlankBand() -> Int {
    let inked = (0..<height).map { y in count(0, y, width, y + 1, where: isInk) > 0 }
    guard let first = inked.firstIndex(of: true), let last = inked.lastIndex(of: true) else { return height }
    var widest = 0
    var blank = 0
    for row in first...last {
      blank = inked[row] ? 0 : blank + 1
      widest = max(widest, blank)
    }
    return widest
  }

  /// Records an issue for everything a reviewer needs on a panel that is missing from `axes`:
  /// x and y ticks with a label at each, both axis titles, and a trace inside.
  func expectComplete(_ axes: FoundAxes, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) {
    let (left, right, top, bottom) = (axes.left, axes.right, axes.top, axes.bottom)
    #expect(axes.xTicks.count >= 3, "\(name): x tick marks \(axes.xTicks)", sourceLocation: sourceLocation)
    #expect(axes.yTicks.count >= 2, "\(name): y tick marks \(axes.yTicks)", sourceLocation: sourceLocation)
    for x in axes.xTicks {
      #expect(
        count(x - 14, bottom + 6, x + 15, bottom + 21, where: isDark) > 0, "\(name): no label under the x tick at \(x)",
        sourceLocation: sourceLocation)
    }
    for y in axes.yTicks {
      #expect(
        count(left - 60, y - 6, left - 5, y + 7, where: isDark) > 0, "\(name): no label left of the y tick at \(y)",
        sourceLocation: sourceLocation)
    }
    #expect(
      count(left, bottom + 22, right, bottom + 40, where: isDark) > 0, "\(name): no x-axis title",
      sourceLocation: sourceLocation)
    #expect(count(left, top - 16, right, top - 1, where: isDark) > 0, "\(name): no y-axis title", sourceLocation: sourceLocation)
    #expect(
      count(left + 1, top, right, bottom, where: isColoured) > 0, "\(name): no trace in the panel",
      sourceLocation: sourceLocation)
  }
}
