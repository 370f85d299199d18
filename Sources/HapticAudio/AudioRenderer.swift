import Foundation
public import HapticCore

/// Renders a pattern's audio events into one mono track aligned with the haptic timeline
/// (`hapticctl simulate --audio`): `AudioCustom` events play their audio file (WAV, CAF, … read
/// through libsndfile, ``HapticAudio/AudioFile``), `AudioContinuous`
/// events a synthesised tone (docs/semantics.md §12.4 gives the tone's formulas).
public struct AudioRenderer: Sendable {
  /// Output samples per second.
  public let sampleRate: Double
  /// Loads an `AudioCustom` event's file (a path as written in the AHAP file); throws a
  /// message when it cannot.
  public typealias Loader = (String) throws -> AudioClip

  /// A renderer at `sampleRate` (48 kHz by default).
  public init(sampleRate: Double = 48_000) {
    self.sampleRate = sampleRate
  }

  /// The mixed track, at least `minimumDuration` seconds long, plus a warning per event whose
  /// audio could not be loaded (those events stay silent).
  public func render(_ pattern: HapticPattern, minimumDuration: Double, load: Loader) -> (
    samples: [Float], warnings: [String]
  ) {
    let controls = ControlTimeline(pattern)
    var warnings: [String] = []
    var clips: [(index: Int, event: HapticEvent, audio: AudioClip)] = []
    var end = minimumDuration
    for (index, event) in pattern.events.enumerated() {
      switch event.type {
      case .audioCustom:
        guard let path = event.waveformPath else {
          warnings.append("Pattern event \(index) (AudioCustom at \(event.time) s) has no EventWaveformPath; silent")
          continue
        }
        do {
          let audio = try load(path)
          clips.append((index, event, audio))
          let length = Double(audio.samples.count) / audio.sampleRate
          end = max(end, event.time + (event.duration ?? length))
        } catch {
          warnings.append("Pattern event \(index) (AudioCustom at \(event.time) s): \(error); silent")
        }
      case .audioContinuous:
        end = max(end, event.time + (event.duration ?? 0) + EnvelopeTiming.seconds(controls.effectiveValue(.releaseTime, of: event, at: event.time)))
      default:
        continue
      }
    }
    var mix = [Float](repeating: 0, count: Int((end * sampleRate).rounded(.up)))
    for clip in clips { addClip(clip.event, clip.audio, controls: controls, into: &mix) }
    for event in pattern.events where event.type == .audioContinuous { addTone(event, controls: controls, into: &mix) }
    for index in mix.indices { mix[index] = min(max(mix[index], -1), 1) }
    return (mix, warnings)
  }

  /// Plays a clip from the event's time, resampled linearly, scaled by its volume; an
  /// `EventDuration` cuts it (or, with `EventWaveformLoopEnabled`, loops it that long).
  private func addClip(_ event: HapticEvent, _ audio: AudioClip, controls: ControlTimeline, into mix: inout [Float]) {
    guard !audio.samples.isEmpty else { return }
    let length = Double(audio.samples.count) / audio.sampleRate
    let loops = event.waveformLoopEnabled ?? false
    let duration = event.duration.map { loops ? $0 : min($0, length) } ?? length
    let start = Int((event.time * sampleRate).rounded())
    let count = Int((duration * sampleRate).rounded())
    let step = audio.sampleRate / sampleRate
    var volume: Float = 0
    for n in 0..<count where start + n < mix.count {
      if n % 48 == 0 {
        volume = Float(controls.effectiveValue(.audioVolume, of: event, at: event.time + Double(n) / sampleRate))
      }
      var position = Double(n) * step
      if loops { position = position.truncatingRemainder(dividingBy: Double(audio.samples.count)) }
      let lower = Int(position)
      guard lower < audio.samples.count else { break }
      let upper = min(lower + 1, audio.samples.count - 1)
      let fraction = Float(position - Double(lower))
      let value = audio.samples[lower] + (audio.samples[upper] - audio.samples[lower]) * fraction
      mix[start + n] += value * volume
    }
  }

  /// A tone: pitch −1…1 → 220…880 Hz (440 · 2^pitch), brightness blends a sine (0) into a
  /// band-limited sawtooth of eight harmonics (1); volume with the event's attack, decay and
  /// release (the envelope rules of haptic continuous events), controls sampled every 1 ms.
  private func addTone(_ event: HapticEvent, controls: ControlTimeline, into mix: inout [Float]) {
    let attack = EnvelopeTiming.seconds(controls.effectiveValue(.attackTime, of: event, at: event.time))
    let decay = EnvelopeTiming.seconds(controls.effectiveValue(.decayTime, of: event, at: event.time))
    let duration = event.duration ?? 0
    let release = EnvelopeTiming.seconds(controls.effectiveValue(.releaseTime, of: event, at: event.time + duration))
    let sustained = event.isSustained
    let start = Int((event.time * sampleRate).rounded())
    let total = Int(((duration + release) * sampleRate).rounded())
    var phase = 0.0
    var volume = 0.0
    var pitch = 0.0
    var brightness = 0.0
    for n in 0..<total where start + n < mix.count {
      let local = Double(n) / sampleRate
      if n % 48 == 0 {
        let t = event.time + local
        volume = controls.effectiveValue(.audioVolume, of: event, at: t)
        pitch = controls.effectiveValue(.audioPitch, of: event, at: t)
        brightness = controls.effectiveValue(.audioBrightness, of: event, at: t)
      }
      var envelope = attack > 0 ? min(local / attack, 1) : 1
      if !sustained && local > attack {
        envelope = decay > 0 ? max(1 - (local - attack) / decay, 0) : 0
      }
      if local > duration {
        envelope *= release > 0 ? max(1 - (local - duration) / release, 0) : 0
      }
      let frequency = 440 * pow(2, pitch)
      phase += frequency / sampleRate
      phase -= phase.rounded(.down)
      var saw = 0.0
      for harmonic in 1...8 { saw += sin(2 * Double.pi * phase * Double(harmonic)) / Double(harmonic) }
      let sine = sin(2 * Double.pi * phase)
      let value = (1 - brightness) * sine + brightness * saw * 0.6
      mix[start + n] += Float(0.5 * volume * envelope * value)
    }
  }
}
