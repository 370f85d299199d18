import Foundation
import HapticAHAP
import HapticAudio
import HapticCore
import HapticLocks

/// Players' audio events on the host (docs/semantics.md §13.9). As the scheduler renders a
/// player's frames it marks what its audio does and from which frame (``AudioMark``: a start,
/// a loop wrap, a seek, a resume, a rate change, an unmute play from a pattern offset; a stop,
/// a pause, a mute fall silent); the engine takes the marks after every scheduler operation and
/// puts them on the ``HapticEngine/Configuration/audioOutput`` at the host time of their frame.
/// The pattern's audio events are mixed into one track per playback rate (`AudioRenderer`,
/// files through libsndfile) the first time they are needed.
extension HapticEngine {
  /// The frames a start of `player` must lie ahead so its audio is not late (the output's
  /// latency), 0 when it plays no audio.
  func audioLead(for action: TrackAction, player: EnginePlayer, audio: AudioSettings) -> Int {
    guard case .start = action, let output = configuration.audioOutput, !audio.hapticsOnly, !audio.muted,
      player.pattern.events.contains(where: { !$0.type.isHaptic })
    else { return 0 }
    return Int((output.latency / framePeriod).rounded(.up))
  }

  /// Puts the marks not yet routed on the output.
  func route(_ marks: [(id: Int, mark: AudioMark)]) {
    guard let output = configuration.audioOutput, !marks.isEmpty else { return }
    for (id, mark) in marks {
      let plan = state.withLock { state -> (skip: Bool, track: [Float]?) in
        guard var player = state.players[id], !player.routedAudio.contains(mark) else { return (true, nil) }
        // A mark at frame F supersedes what was routed from F on (a re-render changed it).
        player.routedAudio.removeAll { $0.frame >= mark.frame }
        player.routedAudio.append(mark)
        if player.routedAudio.count > 64 { player.routedAudio.removeFirst(player.routedAudio.count - 64) }
        var track: [Float]?
        if let offset = mark.offset, !state.audio.hapticsOnly, !state.audio.muted {
          track = audioTrack(&player, from: offset, rate: mark.rate, midEvent: mark.midEvent, sampleRate: output.sampleRate)
        }
        state.players[id] = player
        return (false, track)
      }
      guard !plan.skip, let host = hostTime(atFrame: mark.frame) else { continue }
      let delay = host - link.hostNow
      output.cancel(tag: id, after: delay)
      if let track = plan.track, !track.isEmpty { output.schedule(track, after: delay, tag: id) }
    }
  }

  /// The audio of `player` from `offset` pattern seconds at `rate`: a slice of the whole track
  /// when sounds under way go on (`midEvent`), else the sounds that start at or after it.
  private func audioTrack(
    _ player: inout EnginePlayer, from offset: Double, rate: Double, midEvent: Bool, sampleRate: Double
  ) -> [Float] {
    guard player.pattern.events.contains(where: { !$0.type.isHaptic }) else { return [] }
    if offset > 0 && !midEvent {
      return Self.renderAudio(PlayerTrack.excerpt(player.pattern, from: offset, rate: rate, loopEnd: nil), sampleRate: sampleRate)
    }
    if player.audioTracks[rate] == nil {
      player.audioTracks[rate] = Self.renderAudio(
        PlayerTrack.excerpt(player.pattern, from: 0, rate: rate, loopEnd: nil), sampleRate: sampleRate)
    }
    let whole = player.audioTracks[rate] ?? []
    let start = Int((offset / rate * sampleRate).rounded())
    return start <= 0 ? whole : start < whole.count ? Array(whole[start...]) : []
  }

  /// The pattern's audio events as one track from its start (`[]` without audio). Relative
  /// waveform paths are taken from the working folder; unreadable files are silent.
  static func renderAudio(_ pattern: HapticPattern, sampleRate: Double) -> [Float] {
    guard pattern.events.contains(where: { !$0.type.isHaptic }) else { return [] }
    let renderer = AudioRenderer(sampleRate: sampleRate)
    let (samples, _) = renderer.render(pattern, minimumDuration: 0) { path in try AudioFile.read(path) }
    return samples.contains { $0 != 0 } ? samples : []
  }

  /// Silences every player's audio from now (engine stop, failure).
  func silenceAudio() {
    guard let output = configuration.audioOutput else { return }
    let ids = state.withLock { state -> [Int] in
      for id in state.players.keys { state.players[id]?.routedAudio = [] }
      return Array(state.players.keys)
    }
    for id in ids { output.cancel(tag: id, after: 0) }
  }

  /// The host time at which the board plays `frame` (clock sync is linear: inverted from two
  /// readings), or `nil` before clock sync.
  func hostTime(atFrame frame: Int) -> Double? {
    let now = link.hostNow
    guard let board = engineSeconds(atHost: now), let later = engineSeconds(atHost: now + 1), later > board
    else { return nil }
    return now + (Double(frame) * framePeriod - board) / (later - board)
  }
}
