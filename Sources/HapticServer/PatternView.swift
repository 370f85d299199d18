import Foundation
import HapticAHAP
import HapticClip
import HapticCore
import HapticRenderer
import HapticSimulator

/// What the studio draws of a pattern on a board (`POST /v1/boards/{id}/render`, issue 29): the
/// events and parameter curves as the document gives them, and per channel what the board does
/// with them — the drive's level and frequency each frame, and the simulated actuator's
/// acceleration (its peak in each frame), with the detection threshold to read it against.
struct PatternView {
  /// One event: a transient's stem, a continuous event's band with its envelope, an audio span.
  struct Event: Encodable {
    var index: Int
    /// `transient`, `continuous` or `audio`.
    var type: String
    var time: Double
    var duration: Double
    var intensity: Double?
    var sharpness: Double?
    /// A continuous event's envelope as (seconds, level × intensity) corners.
    var envelope: [[Double]]?
  }

  /// A dynamic parameter's control points over time, (seconds, value): a curve's points, or the
  /// single parameter entries of one ID as steps.
  struct Curve: Encodable {
    /// `intensity`, `sharpness`, `attack`, `decay`, `release` (audio: `audio_volume`, …).
    var parameter: String
    /// `curve` (linear between points) or `steps` (each value holds until the next).
    var kind: String
    var points: [[Double]]
  }

  /// What one board channel does, a value per drive frame from time 0 (written by
  /// ``answer()``).
  struct Channel {
    var channel: Int
    var kind: String
    /// Values per second (1 / frame period).
    var rate: Double
    /// Drive level, a fraction of full scale (negative: reverse drive).
    var level: [Double]
    /// Drive frequency, Hz (0: none, or the board sets it).
    var hz: [Double]
    /// The simulated acceleration's peak magnitude in the frame, G.
    var g: [Double]
  }

  /// A repair the reader made, with the moment of its entry when the document gives one.
  struct Warning: Encodable {
    var message: String
    var path: String
    var time: Double?
  }

  var board: String
  var source: String
  var format: String
  var duration: Double
  var framePeriod: Double
  var thresholdG: Double
  var events: [Event]
  var curves: [Curve]
  var channels: [Channel]
  var warnings: [Warning]

  /// The view of `document` (read from `bytes`, in `format`) played on `board` (its profile).
  ///
  /// - Throws: ``ServerError`` `badRequest` when the pattern does not render on the board (too
  ///   long, a profile the renderer refuses).
  init(
    document: AHAPDocument, bytes: [UInt8], format: PatternFormat, source: String, board: String, profile: BoardProfile
  ) throws(ServerError) {
    let pattern = document.pattern
    self.board = board
    self.source = source
    self.format = format.rawValue
    duration = pattern.duration
    framePeriod = profile.framePeriod
    thresholdG = ResponseAnalyzer.detectionThreshold
    events = Self.events(of: pattern)
    curves = Self.curves(of: pattern)
    let times = format == .ahap ? Self.entryTimes(bytes) : []
    warnings = document.warnings.map { warning in
      Warning(message: "\(warning)", path: warning.path, time: Self.entryIndex(warning.path).flatMap { times.indices.contains($0) ? times[$0] : nil })
    }
    do {
      channels = try Self.channels(pattern, profile: profile)
    } catch {
      throw ServerError(.badRequest, field: "body", "\(board): \(error.message)")
    }
  }

  static func events(of pattern: HapticPattern) -> [Event] {
    let controls = ControlTimeline(pattern)
    return pattern.events.enumerated().map { index, event in
      switch event.type {
      case .hapticTransient:
        return Event(
          index: index, type: "transient", time: event.time, duration: 0, intensity: event.value(of: .hapticIntensity),
          sharpness: event.value(of: .hapticSharpness))
      case .hapticContinuous:
        let intensity = event.value(of: .hapticIntensity)
        let envelope = EventEnvelope(event, controls: controls)
        let moments = Set(([0] + envelope.corners + [envelope.length]).filter(\.isFinite)).sorted()
        return Event(
          index: index, type: "continuous", time: event.time, duration: event.duration ?? 0, intensity: intensity,
          sharpness: event.value(of: .hapticSharpness),
          envelope: moments.map { [rounded(event.time + $0), rounded(envelope.value(at: $0) * intensity)] })
      case .audioContinuous, .audioCustom:
        return Event(index: index, type: "audio", time: event.time, duration: event.duration ?? 0)
      }
    }
  }

  static func curves(of pattern: HapticPattern) -> [Curve] {
    var curves = pattern.curves.map { curve in
      Curve(
        parameter: name(of: curve.id), kind: "curve",
        points: curve.controlPoints.map { [curve.time + $0.time, $0.value] })
    }
    var steps: [DynamicParameterID: [[Double]]] = [:]
    for parameter in pattern.parameters { steps[parameter.id, default: []].append([parameter.time, parameter.value]) }
    for id in DynamicParameterID.allCases {
      if let points = steps[id] { curves.append(Curve(parameter: name(of: id), kind: "steps", points: points)) }
    }
    return curves
  }

  /// A parameter's short name: `HapticIntensityControl` → `intensity`, `AudioVolumeControl` →
  /// `audio_volume`.
  static func name(of id: DynamicParameterID) -> String {
    var text = id.rawValue
    if text.hasSuffix("Control") { text.removeLast("Control".count) }
    if text.hasSuffix("Time") { text.removeLast("Time".count) }
    let audio = text.hasPrefix("Audio")
    text.removeFirst(audio ? "Audio".count : "Haptic".count)
    return (audio ? "audio_" : "") + text.lowercased()
  }

  /// `value` to 1e-4.
  static func rounded(_ value: Double) -> Double { (value * 1e4).rounded() / 1e4 }
}

extension PatternView {
  /// Where renders run, one at a time: off the event loops (a long pattern takes seconds, and
  /// they carry live parameters), and at most one core however many clients ask at once (a
  /// thread each let a burst of 900 s renders take the whole machine, boards included).
  static let renders = DispatchQueue(label: "hapticctl.render", qos: .utility)

  /// `POST /v1/boards/{id}/render`: the document in `body`, or the library file the `file` field
  /// names (then with an empty body), drawn for `board`, on ``renders``.
  ///
  /// - Throws: ``ServerError`` `badRequest` for a bad document (its first bad entry) or both a
  ///   file and a body; as ``PatternLibrary/document(_:)`` for the file.
  static func render(
    _ fields: RequestFields, body: [UInt8], board: String, profile: BoardProfile, library: PatternLibrary?
  ) async throws(ServerError) -> PatternView {
    let file = try fields.string("file")
    let named = try PatternSource.format(try fields.string("format"))
    return try await onRenderQueue { () throws(ServerError) -> PatternView in
      try view(file: file, format: named, body: body, board: board, profile: profile, library: library)
    }
  }

  /// Runs `work` on ``renders`` (after the renders before it) and returns what it returns.
  static func onRenderQueue<T: Sendable>(_ work: @escaping @Sendable () throws(ServerError) -> T) async throws(ServerError) -> T {
    let result: Result<T, ServerError> = await withCheckedContinuation { continuation in
      renders.async { continuation.resume(returning: Result { () throws(ServerError) -> T in try work() }) }
    }
    return try result.get()
  }

  private static func view(
    file: String?, format named: PatternFormat?, body: [UInt8], board: String, profile: BoardProfile,
    library: PatternLibrary?
  ) throws(ServerError) -> PatternView {
    guard let file else {
      let format = named ?? PatternFormat.sniff(body)
      let document = try PatternSource.read(body, format: format, file: "body")
      return try PatternView(document: document, bytes: body, format: format, source: "body", board: board, profile: profile)
    }
    guard body.isEmpty else { throw ServerError(.badRequest, field: "body", "give a file or a body, not both") }
    guard named == nil else { throw ServerError(.badRequest, field: "format", "a library file's format is its extension's") }
    guard let library else {
      throw ServerError(.notFound, field: "file", "this server has no library (start it with --library DIR)")
    }
    let document = try library.document(file)
    let bytes = (try? Data(contentsOf: URL(fileURLWithPath: try library.resolve(file)))).map(Array.init) ?? []
    return try PatternView(
      document: document, bytes: bytes, format: PatternFormat(extensionOf: file) ?? .ahap, source: file, board: board,
      profile: profile)
  }
}
