import Foundation
import HapticAHAP
import HapticCore
import HapticTestSupport
import Testing

@testable import HapticRenderer

/// Control-rate evaluation (``TargetRamp``): interpolated stretches must stay within the
/// documented tolerance of evaluating every frame, and the midpoint check must refuse bends.
@Suite("Control-rate evaluation")
struct ControlRateTests {
  /// Renders the targets of `pattern` both ways and returns the largest relative power error,
  /// the largest frequency error, and how many frames were compared.
  static func targetErrors(_ pattern: HapticPattern, on profile: BoardProfile) throws -> (power: Double, hz: Double, frames: Int) {
    var ramped = try PatternVoices(pattern: pattern, profile: profile)
    var exact = try PatternVoices(pattern: pattern, profile: profile, options: RenderOptions(controlRate: false))
    var power = 0.0
    var hz = 0.0
    var frames = 0
    while !(ramped.isFinished && exact.isFinished) {
      let a = ramped.next()
      let b = exact.next()
      frames += 1
      #expect(a.hasVoices == b.hasVoices, "frame \(frames - 1)")
      if b.power > 0 { power = max(power, abs(a.power - b.power) / b.power) } else { #expect(a.power == 0) }
      if b.power > 0 { hz = max(hz, abs(a.hz - b.hz)) }
    }
    return (power, hz, frames)
  }

  @Test("Corpus targets stay within 2e-4 of exact power and 0.02 Hz", .enabled(if: TestCorpus.isPresent, "needs the shared corpus ../shared/corpus/ahap beside the checkout (a plain clone has none)"), arguments: CorpusRenderTests.files)
  func corpusTargets(_ name: String) throws {
    let pattern = try AHAPReader().read(contentsOf: CorpusRenderTests.corpus.appendingPathComponent(name).path).pattern
    for profile in BoardProfile.builtIn {
      let errors = try Self.targetErrors(pattern, on: profile)
      #expect(errors.power <= 2 * TargetRamp.powerTolerance, "\(name) \(profile.id): power error \(errors.power)")
      #expect(errors.hz <= 2 * TargetRamp.hertzTolerance, "\(name) \(profile.id): frequency error \(errors.hz)")
    }
  }

  /// Driver-shaped boards: frames are a plain map of the target, so they match exactly up to
  /// rounding. Host-shaped boards steer on a model of the actuator whose corrections follow
  /// the state closely (a target that differs in the fourth digit may start another, equally
  /// good correction), so they are judged by what the user feels: the simulated acceleration
  /// of both renders (HapticSimulatorTests, ``ControlRateFeelTests``).
  @Test("Corpus frames: driven frames within one level of exact evaluation, few frames differ", .enabled(if: TestCorpus.isPresent, "needs the shared corpus ../shared/corpus/ahap beside the checkout (a plain clone has none)"))
  func corpusFrames() throws {
    for profile in BoardProfile.builtIn where profile.shaping == .driver {
      var differing = 0
      var total = 0
      for name in CorpusRenderTests.files {
        let pattern = try AHAPReader().read(contentsOf: CorpusRenderTests.corpus.appendingPathComponent(name).path).pattern
        let ramped = try render(pattern, on: profile).frames
        let exact = try render(pattern, on: profile, options: RenderOptions(controlRate: false)).frames
        // The exact targets, to tell driven frames from brakes and ring-downs.
        var voices = try PatternVoices(pattern: pattern, profile: profile, options: RenderOptions(controlRate: false))
        var worst = 0
        var count = abs(ramped.count - exact.count)
        for (a, b) in zip(ramped, exact) {
          let driven = voices.next().power > 0
          if a.level != b.level || a.frequency != b.frequency { count += 1 }
          if driven { worst = max(worst, abs(a.level - b.level)) }
        }
        // A level that rounds the other way, or a frequency at an exact half hertz; a shaped
        // board's feedback carries a one-level difference for a few frames. A brake decided
        // from a state that differs in the fifth digit may take another (equally short) path.
        #expect(worst <= 1, "\(name) \(profile.id): a driven frame off by \(worst)")
        #expect(abs(ramped.count - exact.count) <= 2, "\(name) \(profile.id): \(ramped.count) vs \(exact.count) frames")
        #expect(count * 100 <= 3 * max(exact.count, 100), "\(name) \(profile.id): \(count) of \(exact.count) frames differ")
        differing += count
        total += exact.count
      }
      print("[\(profile.id)] \(differing) of \(total) frames differ from exact evaluation")
      #expect(differing * 1000 <= total, "\(profile.id): \(differing) of \(total) frames differ")
    }
  }

  @Test("Random patterns: targets within tolerance", arguments: 1...20)
  func randomTargets(_ seed: Int) throws {
    var generator = PatternGenerator(seed: UInt64(seed), maxTime: 2, maxDuration: 1.5)
    let pattern = generator.pattern()
    for profile in BoardProfile.builtIn {
      let errors = try Self.targetErrors(pattern, on: profile)
      #expect(errors.power <= 2 * TargetRamp.powerTolerance, "seed \(seed) \(profile.id): \(errors.power)")
      #expect(errors.hz <= 2 * TargetRamp.hertzTolerance, "seed \(seed) \(profile.id): \(errors.hz)")
    }
  }

  @Test("A slow curve is interpolated: the ramp starts and its frames lie on the line")
  func slowCurveRamps() throws {
    let pattern = HapticPattern(
      events: [event(.hapticContinuous, at: 0, duration: 2, intensity: 1, sharpness: 0.5)],
      curves: [
        ParameterCurve(
          .hapticIntensityControl, time: 0, controlPoints: [.init(time: 0, value: 0.2), .init(time: 2, value: 1)])
      ])
    var voices = try PatternVoices(pattern: pattern, profile: .simLRA)
    var targets: [FrameTarget] = []
    for _ in 0..<400 { targets.append(voices.next()) }
    // Frames 200…216 of a ramp: second differences of the power vanish inside a ramp and
    // not on every frame of an exact evaluation (the map is exponential).
    let straight = (201..<215).filter { k in
      abs(targets[k + 1].power - 2 * targets[k].power + targets[k - 1].power) < 1e-12 * targets[k].power
    }
    #expect(straight.count >= 10)
    let errors = try Self.targetErrors(pattern, on: .simLRA)
    #expect(errors.power > 0, "interpolation never used")
    #expect(errors.power <= 2 * TargetRamp.powerTolerance)
  }

  @Test("The midpoint check accepts a straight line and refuses a bend or a jump")
  func midpointCheck() {
    func target(_ power: Double, hz: Double = 170) -> FrameTarget {
      FrameTarget(power: power, weightedHz: power * hz, hz: hz, crispness: 1, hasVoices: true)
    }
    #expect(TargetRamp.fits(from: target(1), mid: target(1.5), to: target(2)))
    #expect(!TargetRamp.fits(from: target(1), mid: target(1.6), to: target(2)))
    #expect(!TargetRamp.fits(from: target(0), mid: target(1), to: target(1)))
    #expect(!TargetRamp.fits(from: target(1, hz: 170), mid: target(1, hz: 171), to: target(1, hz: 170)))
    #expect(!TargetRamp.fits(from: target(1), mid: .silent(hz: 170), to: target(1)))
    var ramp = TargetRamp()
    let refused = ramp.begin(at: 10, frames: 16, from: target(1), mid: target(3), to: target(2))
    #expect(!refused)
    #expect(ramp.end == 0)
    let accepted = ramp.begin(at: 10, frames: 8, from: target(1), mid: target(1.5), to: target(2))
    #expect(accepted)
    #expect(ramp.target(at: 12).power == 1.25)
    #expect(ramp.preferredFrames == 16)
    #expect(ramp.length(from: 0, before: 10) == 8)
    #expect(ramp.length(from: 0, before: 17) == 16)
    #expect(ramp.length(from: 0, before: 4) == 0)
    ramp.refuse(at: 30)
    #expect(ramp.retryAt == 30 + TargetRamp.backoffFrames)
    #expect(ramp.preferredFrames == 4)
    #expect(ramp.length(from: 0, before: 100) == 4)
  }
}

/// Repeats of settled frames (``FrameRenderer``) must give exactly the frames of asking the
/// voices and the drive stage for every frame.
@Suite("Settled-frame repeats")
struct SettledRepeatTests {
  @Test("The frame renderer equals voices → drive stage frame by frame, over the corpus", .enabled(if: TestCorpus.isPresent, "needs the shared corpus ../shared/corpus/ahap beside the checkout (a plain clone has none)"))
  func repeatsAreExact() throws {
    var repeatedFrames = 0
    for name in CorpusRenderTests.files {
      let pattern = try AHAPReader().read(contentsOf: CorpusRenderTests.corpus.appendingPathComponent(name).path).pattern
      for profile in BoardProfile.builtIn {
        let rendered = Array(try FrameRenderer(pattern: pattern, profile: profile))
        var voices = try PatternVoices(pattern: pattern, profile: profile)
        var drive = try DriveStage(profile: profile)
        var previous: Frame?
        for (k, frame) in rendered.enumerated() {
          let target = voices.next()
          let expected = drive.frame(index: k, target: target)
          #expect(frame == expected, "\(name) \(profile.id) frame \(k)")
          if frame.level != 0, frame.level == previous?.level { repeatedFrames += 1 }
          previous = frame
          if frame != expected { break }
        }
      }
    }
    #expect(repeatedFrames > 100_000)
  }
}
