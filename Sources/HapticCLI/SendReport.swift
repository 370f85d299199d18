import HapticEngine

/// What `hapticctl send` reports at the end of a run: one line, or one JSON object with
/// `--json` (docs/semantics.md §13.7).
struct SendReport {
  /// The board's id.
  var board: String
  /// The file or preset played.
  var source: String
  /// The engine's counters of the run.
  var engine: HapticEngine.Report
  /// The pattern's duration (Apple's, docs/semantics.md §5; the longest of several), nil for
  /// a ROM effect.
  var patternDuration: Double?
  /// Board seconds from the player's start until the drive came to rest (the same as
  /// `render`'s for the same pattern), nil for a ROM effect (its length is the driver's).
  var driveDuration: Double?
  /// Wall-clock seconds of the whole command.
  var wall: Double
  /// The largest onset error measured, and what from (nil error when none was).
  var onsets: OnsetMeasurement
  /// Why the run ended: `end`, `stop`, `signal` or `reset`.
  var stoppedBy: String

  /// The `--json` object.
  var json: String {
    JSONText.object([
      ("board", .string(board)),
      ("source", .string(source)),
      ("pattern_duration_s", patternDuration.map { .number($0) } ?? .null),
      ("drive_duration_s", driveDuration.map { .fixed($0, digits: 6) } ?? .null),
      ("frames", .int(engine.framesRendered)),
      ("segments", .int(engine.segments)),
      ("wire_bytes", .int(engine.wireBytes)),
      ("retransmits", .int(engine.retransmissions)),
      ("recoveries", .int(engine.recoveries)),
      ("lookahead_ms", .fixed(engine.lookahead * 1000, digits: 1)),
      ("underruns", engine.runUnderruns.map { .int($0) } ?? .null),
      ("late_segments", engine.runLateSegments.map { .int($0) } ?? .null),
      ("board_status_answered", .bool(engine.boardStatusAnswered)),
      ("max_onset_error_ms", onsets.error.map { .fixed($0 * 1000, digits: 3) } ?? .null),
      ("onset_error_basis", .string(onsets.basis)),
      ("stopped_by", .string(stoppedBy)),
      ("wall_s", .fixed(wall, digits: 3)),
    ]).rendered
  }

  /// The one-line summary.
  var line: String {
    let onsetText = onsets.error.map { Decimal6.string($0 * 1000, digits: 3) + " ms (\(onsets.basis))" } ?? "n/a (\(onsets.basis))"
    let durations = [
      patternDuration.map { "pattern \(Decimal6.string($0, digits: 3)) s" },
      driveDuration.map { "drive \(Decimal6.string($0, digits: 3)) s" },
    ].compactMap { $0 }.joined(separator: ", ")
    return "played on \(board): \(durations.isEmpty ? "" : durations + ", ")\(engine.framesRendered) frames, "
      + "\(engine.wireBytes) wire bytes, \(engine.retransmissions) retransmits, \(engine.boardCountsText), "
      + "lookahead up to \(Decimal6.string(engine.lookahead * 1000, digits: 1)) ms, "
      + "max onset error \(onsetText)"
  }
}

extension HapticEngine.Report {
  /// Host and board underruns of the run, nil when the board did not answer the final status
  /// (its own counts would be those of an earlier status: too few, so none is claimed).
  var runUnderruns: Int? { boardStatusAnswered ? underruns + boardUnderruns : nil }
  /// Batches the board received late, nil when it did not answer the final status.
  var runLateSegments: Int? { boardStatusAnswered ? lateSegments : nil }

  /// "2 underruns, 0 late segments", or why the board's counts are not known.
  var boardCountsText: String {
    guard let underruns = runUnderruns, let late = runLateSegments else {
      return "underruns and late segments unknown (the board did not answer its final status; the host's underruns: \(underruns))"
    }
    return "\(underruns) underruns, \(late) late segments"
  }
}
