import Foundation
import HapticAHAP
import HapticAudio
import HapticCore
import HapticSimulator

/// Players' audio events on the host (docs/semantics.md §13.9): a player's audio events are
/// mixed into one track (`AudioRenderer`, files through libsndfile) at its first start and
/// scheduled on the ``HapticEngine/Configuration/audioOutput`` at the host time of the board
/// frame the start takes effect at; stops, pauses, seeks, rate changes and mutes silence it
/// from their frame.
extension HapticEngine {
  /// The track a `.start` of `id` plays and the frames its start must lie ahead (the output's
  /// latency), or `nil` when no audio plays. Call with the lock held.
  func audioClip(for action: TrackAction, player id: Int) -> (track: [Float], leadFrames: Int)? {
    guard case .start = action, let output = configuration.audioOutput, !audio.hapticsOnly, !audio.muted,
      let player = players[id], !player.muted
    else { return nil }
    if player.audioTrack == nil { players[id]?.audioTrack = Self.renderAudio(player.pattern, sampleRate: output.sampleRate) }
    guard let track = players[id]?.audioTrack, !track.isEmpty else { return nil }
    return (track, Int((output.latency / framePeriod).rounded(.up)))
  }

  /// The pattern's audio events as one track from its start (`[]` without audio events).
  /// Relative waveform paths are taken from the working folder; unreadable files are silent.
  static func renderAudio(_ pattern: HapticPattern, sampleRate: Double) -> [Float] {
    guard pattern.events.contains(where: { !$0.type.isHaptic }) else { return [] }
    let renderer = AudioRenderer(sampleRate: sampleRate)
    let (samples, _) = renderer.render(pattern, minimumDuration: 0) { path in try AudioFile.read(path) }
    return samples.contains { $0 != 0 } ? samples : []
  }

  /// Sends what `action` at board frame `frame` means for `id`'s audio to the output.
  func routeAudio(_ action: TrackAction, player id: Int, frame: Int, clip: [Float]?) {
    guard let output = configuration.audioOutput, let host = hostTime(atFrame: frame) else { return }
    let delay = host - link.hostNow
    switch action {
    case .start:
      output.cancel(tag: id, after: delay)
      if let clip { output.schedule(clip, after: delay, tag: id) }
    case .stop, .pause, .seek, .rate, .mute(true):
      output.cancel(tag: id, after: delay)
    default:
      break
    }
  }

  /// Silences every player's audio from now (engine stop, failure).
  func silenceAudio() {
    guard let output = configuration.audioOutput else { return }
    let ids = lock.withLock { Array(players.keys) }
    for id in ids { output.cancel(tag: id, after: 0) }
  }

  /// The host time at which the board plays `frame` (clock sync is linear: inverted from two
  /// readings), or `nil` before clock sync.
  func hostTime(atFrame frame: Int) -> Double? {
    let now = link.hostNow
    guard let board = link.boardSeconds(atHost: now), let later = link.boardSeconds(atHost: now + 1), later > board
    else { return nil }
    return now + (Double(frame) * framePeriod - board) / (later - board)
  }
}
