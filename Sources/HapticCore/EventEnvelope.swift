/// The envelope of one continuous haptic event, in seconds from its start (docs/semantics.md
/// §6 and §11.4): a linear attack to 1, then — sustained — a hold until the event's duration,
/// or — not sustained — a linear decay to 0; a linear release from wherever the envelope is
/// when the duration cuts it (sustained events always release at their duration).
///
/// Envelope times are the event's `AttackTime`, `DecayTime` and `ReleaseTime` with their dynamic
/// controls (attack and decay read at the onset, release when it begins), mapped to seconds by
/// ``EnvelopeTiming``. The renderer plays events by it; the `.haptic` writer bakes it into
/// amplitude envelopes.
public struct EventEnvelope: Sendable, Hashable {
  /// Seconds of linear rise from 0 to 1.
  public let attack: Double
  /// Seconds of linear fall from 1 to 0 after the attack (not sustained events).
  public let decay: Double
  /// Seconds of linear fall from `releaseLevel` to 0 once the release begins.
  public let release: Double
  /// Whether the envelope holds at 1 after the attack.
  public let sustained: Bool
  /// Seconds from the start at which the release begins (∞ if never).
  public let releaseStart: Double
  /// The envelope's value when the release begins.
  public let releaseLevel: Double

  /// The envelope of continuous event `event` under `controls`.
  public init(_ event: HapticEvent, controls: ControlTimeline) {
    let attack = EnvelopeTiming.seconds(controls.effectiveValue(.attackTime, of: event, at: event.time))
    let decay = EnvelopeTiming.seconds(controls.effectiveValue(.decayTime, of: event, at: event.time))
    let sustained = event.isSustained
    // Sustained events release at their duration (0 when missing). Non-sustained ones end when
    // the decay bottoms out, or release early if their duration cuts the decay short.
    let duration = event.duration ?? (sustained ? 0 : .infinity)
    var releaseStart = duration
    if !sustained && duration >= attack + decay { releaseStart = .infinity }
    let releaseTime = releaseStart.isFinite ? event.time + releaseStart : event.time
    self.attack = attack
    self.decay = decay
    self.sustained = sustained
    self.releaseStart = releaseStart
    release = EnvelopeTiming.seconds(controls.effectiveValue(.releaseTime, of: event, at: releaseTime))
    releaseLevel = releaseStart.isFinite ? Self.attackDecay(releaseStart, attack: attack, decay: decay, sustained: sustained) : 0
  }

  /// How long the envelope sounds, seconds: to the end of its release, or of its decay.
  public var length: Double {
    releaseStart.isFinite ? releaseStart + (releaseLevel > 0 ? release : 0) : attack + decay
  }

  /// The envelope (0…1) at `s` seconds after the start.
  @inlinable
  public func value(at s: Double) -> Double {
    if s >= releaseStart {
      guard release > 0 else { return 0 }
      return max(0, releaseLevel * (1 - (s - releaseStart) / release))
    }
    return Self.attackDecay(s, attack: attack, decay: decay, sustained: sustained)
  }

  /// The moments (seconds from the start) where the envelope changes slope or jumps: the end of
  /// the attack, of the decay, the start and end of the release.
  public var corners: [Double] {
    var corners = [attack]
    if !sustained { corners.append(attack + decay) }
    if releaseStart.isFinite { corners += [releaseStart, releaseStart + release] }
    return corners.filter { $0 <= length }
  }

  /// Attack (linear rise) then, unless sustained, linear decay to zero.
  @inlinable
  public static func attackDecay(_ s: Double, attack: Double, decay: Double, sustained: Bool) -> Double {
    if s < attack { return s / attack }
    if sustained { return 1 }
    guard decay > 0 else { return 0 }
    return max(0, 1 - (s - attack) / decay)
  }
}
