import HapticRenderer

/// Everything that decides the drive from one board frame on: every player's track and each
/// channel's drive stage. A value: the scheduler keeps one copy at the earliest frame it may
/// still change and one at the end of what it has sent, and re-renders from the first when a
/// player changes course.
struct MixState: Sendable {
  /// The next board frame this state renders.
  private(set) var frame: Int
  private var drives: [DriveStage]
  private(set) var tracks: [PlayerTrack] = []
  /// Mute everything (the engine's `isMutedForHaptics`).
  var muted = false
  /// The last frame rendered that drove or braked, or in which a track played (nil before any):
  /// the drive comes to rest at the next frame, as a render ends (docs/semantics.md §11.2).
  private(set) var lastBusyFrame: Int?
  /// The drive's onsets: frames at which a channel went from level 0 to non-zero, in order, the
  /// first ``onsetLimit`` of them (a report checks the first events' onsets).
  private(set) var onsets: [(frame: Int, channel: Int)] = []
  /// Whether each channel's last frame drove (for ``onsets``).
  private var driving: [Bool] = []
  /// Onsets kept at most.
  static let onsetLimit = 1_024

  init(profile: BoardProfile, frame: Int) throws(RenderError) {
    self.frame = frame
    var stages: [DriveStage] = []
    for channel in profile.channels.indices { stages.append(try DriveStage(profile: profile, channel: channel)) }
    drives = stages
  }

  /// Skips to `frame` without rendering (nothing was playing, or the host fell behind and the
  /// frames in between are lost). Only moves forward.
  mutating func jump(to frame: Int) {
    self.frame = max(self.frame, frame)
  }

  /// Adds a track (a new player).
  mutating func add(_ track: PlayerTrack) {
    tracks.append(track)
  }

  /// Schedules an action for a track at a board frame.
  mutating func schedule(_ action: TrackAction, track id: Int, at frame: Int) {
    guard let index = tracks.firstIndex(where: { $0.id == id }) else { return }
    tracks[index].actions.append((frame, action))
  }

  /// Changes a track's loop settings from the next frame on.
  mutating func setLoop(track id: Int, enabled: Bool, end: Double) {
    guard let index = tracks.firstIndex(where: { $0.id == id }) else { return }
    tracks[index].loopEnabled = enabled
    tracks[index].loopEnd = end
  }

  /// Drops a track's pending actions.
  mutating func clearActions(track id: Int) {
    guard let index = tracks.firstIndex(where: { $0.id == id }) else { return }
    tracks[index].actions.removeAll()
  }

  /// Takes every track's audio marks (`(track id, mark)`, in frame order per track).
  mutating func takeAudioMarks() -> [(id: Int, mark: AudioMark)] {
    var marks: [(id: Int, mark: AudioMark)] = []
    for index in tracks.indices where !tracks[index].audioMarks.isEmpty {
      marks += tracks[index].audioMarks.map { (tracks[index].id, $0) }
      tracks[index].audioMarks = []
    }
    return marks
  }

  /// Drops finished tracks with nothing pending.
  mutating func prune(keeping ids: Set<Int>) {
    // Only when there is something to drop: removeAll would otherwise still write the array.
    guard tracks.indices.contains(where: { !ids.contains(tracks[$0].id) }) else { return }
    tracks.removeAll { !ids.contains($0.id) && $0.actions.isEmpty && ($0.state == .finished || $0.state == .idle) }
  }

  /// True when no track is playing or has pending actions and every actuator is at rest.
  var isQuiet: Bool {
    for index in tracks.indices where !tracks[index].actions.isEmpty { return false }
    return !anyPlaying && allAtRest
  }

  /// Whether this frame drove or braked, a track played or an actuator moves.
  private func isBusy(_ frames: [Frame]) -> Bool {
    for index in frames.indices where frames[index].level != 0 { return true }
    return anyPlaying || !allAtRest
  }

  /// Whether a track plays (asked every frame, as ``allAtRest``: by index, with no closure or
  /// key path applied to copies of the elements).
  private var anyPlaying: Bool {
    for index in tracks.indices where tracks[index].state == .playing { return true }
    return false
  }

  /// Whether every channel's actuator is at rest.
  private var allAtRest: Bool {
    for index in drives.indices where !drives[index].isAtRest { return false }
    return true
  }

  /// Per-channel target lists, reused from frame to frame (no allocation per frame).
  private var targets: [[FrameTarget]] = []

  /// Renders the current frame of every channel into `frames` (replacing its contents) and
  /// moves on.
  mutating func render(into frames: inout [Frame]) {
    if targets.count != drives.count { targets = Array(repeating: [], count: drives.count) }
    for channel in targets.indices { targets[channel].removeAll(keepingCapacity: true) }
    for index in tracks.indices { tracks[index].next(frame: frame, into: &targets) }
    frames.removeAll(keepingCapacity: true)
    for channel in drives.indices {
      if muted { targets[channel].removeAll(keepingCapacity: true) }
      frames.append(drives[channel].frame(index: frame, targets: targets[channel]))
    }
    if isBusy(frames) { lastBusyFrame = frame }
    if driving.count != frames.count { driving = Array(repeating: false, count: frames.count) }
    for channel in frames.indices {
      let drives = frames[channel].level != 0
      if drives && !driving[channel] && onsets.count < Self.onsetLimit { onsets.append((frame, channel)) }
      driving[channel] = drives
    }
    frame += 1
  }
}
