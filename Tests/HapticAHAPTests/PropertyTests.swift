import Foundation
import HapticAHAP
import HapticCore
import HapticTestSupport
import PropertyBased
import Testing

@Suite("Codec properties")
struct PropertyTests {
  @Test("Any generated pattern survives write → read unchanged")
  func writeReadIdentity() async {
    await propertyCheck(count: 300, input: Gen.uint64()) { seed in
      var generator = PatternGenerator(seed: seed)
      let pattern = generator.pattern()
      let text = AHAPWriter().string(pattern)
      do {
        let document = try AHAPReader().read(string: text, file: "generated")
        #expect(document.pattern == pattern, "seed \(seed)")
        // Canonical patterns only draw notes about length, zero durations, emptiness, curves and
        // not-sustained events that fall silent before their duration.
        let expected: Set<HapticErrorCode> = [.longEvent, .emptyPattern, .curveConvention, .defaultApplied, .endsEarly]
        let unexpected = document.warnings.filter { !expected.contains($0.code) }
        #expect(unexpected.isEmpty, "seed \(seed): \(unexpected)")
      } catch {
        Issue.record("seed \(seed): \(error)")
      }
    }
  }

  @Test("Random byte mutations of corpus files never crash the reader", .enabled(if: TestPaths.corpusIsPresent, "needs the shared corpus ../shared/corpus/ahap beside the checkout (a plain clone has none)"))
  func mutationsNeverCrash() async throws {
    let corpus = try TestPaths.corpusFiles().map { try [UInt8](Data(contentsOf: $0)) }
    try #require(!corpus.isEmpty)
    let interesting: [UInt8] = Array("{}[],:\"\\-+.eE0123456789 \n\u{0}tfnNI".utf8) + [0xFF, 0xC3, 0x80]
    await propertyCheck(count: 400, input: Gen.uint64()) { seed in
      var rng = SplitMix(seed: seed)
      var bytes = corpus[Int(rng.next() % UInt64(corpus.count))]
      for _ in 0..<(1 + Int(rng.next() % 8)) where !bytes.isEmpty {
        let position = Int(rng.next() % UInt64(bytes.count))
        switch rng.next() % 4 {
        case 0: bytes[position] = UInt8(truncatingIfNeeded: rng.next())
        case 1: bytes[position] = interesting[Int(rng.next() % UInt64(interesting.count))]
        case 2: bytes.remove(at: position)
        default: bytes.removeSubrange(position...)
        }
      }
      // Either outcome is fine; the point is a diagnosis instead of a crash.
      do {
        let document = try AHAPReader().read(bytes, file: "mutated")
        #expect(document.pattern.duration.isFinite)
      } catch let error as AHAPError {
        #expect(!error.errors.isEmpty)
        #expect(error.errors.allSatisfy { $0.severity == .error && !$0.message.isEmpty })
      } catch {
        Issue.record("unexpected error type: \(error)")
      }
    }
  }
}
