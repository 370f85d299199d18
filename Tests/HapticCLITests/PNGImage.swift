import Foundation

/// An 8-bit RGB(A) PNG decoded to RGBA pixels: what rsvg-convert makes of a plot, for tests that
/// check the image rather than the SVG text.
struct PNGImage {
  let width: Int
  let height: Int
  /// RGBA, row by row.
  private(set) var pixels: [UInt8]

  /// A decode failure, or a PNG kind these tests do not need (palette, 16-bit, interlaced).
  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  init(_ data: Data) throws {
    let bytes = [UInt8](data)
    guard bytes.count > 8, bytes[0..<8] == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] else {
      throw Failure(description: "not a PNG file")
    }
    func integer(_ at: Int) -> Int { bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
    var position = 8
    var header: [UInt8] = []
    var compressed: [UInt8] = []
    while position + 8 <= bytes.count {
      let length = integer(position)
      let type = String(decoding: bytes[position + 4..<position + 8], as: UTF8.self)
      guard position + 12 + length <= bytes.count else { throw Failure(description: "truncated \(type) chunk") }
      let body = bytes[position + 8..<position + 8 + length]
      if type == "IHDR" { header = Array(body) }
      if type == "IDAT" { compressed += body }
      if type == "IEND" { break }
      position += 12 + length
    }
    guard header.count == 13 else { throw Failure(description: "no IHDR chunk") }
    width = header[0..<4].reduce(0) { $0 << 8 | Int($1) }
    height = header[4..<8].reduce(0) { $0 << 8 | Int($1) }
    let (depth, colour, interlace) = (header[8], header[9], header[12])
    guard depth == 8, colour == 6 || colour == 2, interlace == 0 else {
      throw Failure(description: "unsupported PNG: depth \(depth), colour type \(colour), interlace \(interlace)")
    }
    let channels = colour == 6 ? 4 : 3
    let raw = try Inflate.zlib(compressed)
    let rowBytes = width * channels
    guard raw.count >= height * (rowBytes + 1) else { throw Failure(description: "image data too short") }
    var rows = Array(repeating: UInt8(0), count: height * rowBytes)
    for y in 0..<height {
      let filter = raw[y * (rowBytes + 1)]
      let source = y * (rowBytes + 1) + 1
      for x in 0..<rowBytes {
        let a = x >= channels ? Int(rows[y * rowBytes + x - channels]) : 0
        let b = y > 0 ? Int(rows[(y - 1) * rowBytes + x]) : 0
        let c = x >= channels && y > 0 ? Int(rows[(y - 1) * rowBytes + x - channels]) : 0
        let predictor: Int
        switch filter {
        case 0: predictor = 0
        case 1: predictor = a
        case 2: predictor = b
        case 3: predictor = (a + b) / 2
        case 4:
          let p = a + b - c
          let (pa, pb, pc) = (abs(p - a), abs(p - b), abs(p - c))
          predictor = pa <= pb && pa <= pc ? a : pb <= pc ? b : c
        default: throw Failure(description: "bad filter \(filter) on row \(y)")
        }
        rows[y * rowBytes + x] = UInt8((Int(raw[source + x]) + predictor) & 0xFF)
      }
    }
    if channels == 4 {
      pixels = rows
    } else {
      pixels = []
      pixels.reserveCapacity(width * height * 4)
      for index in stride(from: 0, to: rows.count, by: 3) { pixels += [rows[index], rows[index + 1], rows[index + 2], 255] }
    }
  }

  /// The pixel at (`x`, `y`) composited on white; white outside the image.
  func rgb(_ x: Int, _ y: Int) -> (r: Int, g: Int, b: Int) {
    guard x >= 0, y >= 0, x < width, y < height else { return (255, 255, 255) }
    let index = (y * width + x) * 4
    let alpha = Int(pixels[index + 3])
    func over(_ value: UInt8) -> Int { (Int(value) * alpha + 255 * (255 - alpha)) / 255 }
    return (over(pixels[index]), over(pixels[index + 1]), over(pixels[index + 2]))
  }

  /// Dark and grey: axis lines, tick marks, text (not a trace colour, not a light grid line).
  func isDark(_ x: Int, _ y: Int) -> Bool {
    let (r, g, b) = rgb(x, y)
    return max(r, g, b) < 120
  }

  /// Anything that is not (near) white: ink of any kind.
  func isInk(_ x: Int, _ y: Int) -> Bool {
    let (r, g, b) = rgb(x, y)
    return min(r, g, b) < 200
  }

  /// A saturated colour: a trace, an event mark or a legend swatch, never text or an axis.
  func isColoured(_ x: Int, _ y: Int) -> Bool {
    let (r, g, b) = rgb(x, y)
    return max(r, g, b) - min(r, g, b) > 50
  }

  /// How many pixels of the rectangle (`x0`..<`x1`, `y0`..<`y1`) satisfy `test`.
  func count(_ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int, where test: (Int, Int) -> Bool) -> Int {
    let (left, top, right, bottom) = (max(0, x0), max(0, y0), min(width, x1), min(height, y1))
    guard left < right, top < bottom else { return 0 }
    var total = 0
    for y in top..<bottom {
      for x in left..<right where test(x, y) { total += 1 }
    }
    return total
  }
}

/// Renders SVG to PNG with rsvg-convert (Debian librsvg2-bin, which
/// `Scripts/install-system-deps.sh` installs) at one pixel per user unit.
enum SVGRaster {
  /// rsvg-convert is missing or failed.
  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  /// rsvg-convert on `PATH`.
  static func converter() throws -> URL {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for folder in path.split(separator: ":") {
      let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent("rsvg-convert")
      if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
    }
    throw Failure(
      description: "rsvg-convert is not on PATH: the plot tests render SVG to PNG with it; "
        + "install Debian's librsvg2-bin (bash Scripts/install-system-deps.sh)")
  }

  /// The image of `svg`.
  static func render(_ svg: String) throws -> PNGImage {
    let folder = try CLIRunner.scratchFolder("raster")
    defer { try? FileManager.default.removeItem(at: folder) }
    let input = folder.appendingPathComponent("plot.svg")
    let output = folder.appendingPathComponent("plot.png")
    try Data(svg.utf8).write(to: input)
    let process = Process()
    process.executableURL = try converter()
    process.arguments = ["--format", "png", "--output", output.path, input.path]
    let errors = Pipe()
    process.standardError = errors
    try process.run()
    let message = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      let reason = String(decoding: message, as: UTF8.self)
      throw Failure(description: "rsvg-convert failed (\(process.terminationStatus)): \(reason)")
    }
    return try PNGImage(Data(contentsOf: output))
  }
}
