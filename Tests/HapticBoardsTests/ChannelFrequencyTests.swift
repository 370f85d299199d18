import Foundation
import HapticCore
import HapticRenderer
import Testing

@testable import HapticBoards

/// Frequency control per channel (issue 16): a board mixing an ERM with frequency-controlled
/// LRAs gives each channel its own range, and the renderer drives each channel by its own.
@Suite struct ChannelFrequencyTests {
  static let mixed = """
    {"schema": 1, "id": "sim-mixed", "name": "ERM + two LRAs", "vendor": "test", "driver": "simulator", "usb": [],
     "link": {"baud": 115200}, "framePeriodMs": 1, "levels": {"bits": 8, "signed": true}, "frequencyControlHz": [80, 300],
     "channels": [
       {"actuator": "erm", "f0Hz": 200, "ratedVoltage": 3.0, "overdriveVoltage": 4.0, "ratedAccelerationG": 1.0, "riseMs": 50, "coastMs": 80},
       {"actuator": "lra", "f0Hz": 170, "q": 11, "ratedVoltage": 1.0, "overdriveVoltage": 2.0, "ratedAccelerationG": 1.5},
       {"actuator": "lra", "f0Hz": 235, "q": 11, "ratedVoltage": 1.0, "overdriveVoltage": 2.0, "ratedAccelerationG": 1.5,
        "frequencyControlHz": [240, 260]}]}
    """

  @Test("The board's range goes to its LRAs, a channel's own range wins, an ERM has none")
  func perChannelRanges() throws {
    let profile = try BoardDefinition.parse(Data(Self.mixed.utf8), path: "sim-mixed.json").profile
    #expect(profile.channels.map(\.frequencyControl) == [nil, 80...300, 240...260])
    // Each channel's frames: the ERM carries no frequency, each LRA stays within its range.
    let pattern = HapticPattern(events: [
      HapticEvent(
        .hapticContinuous, time: 0, duration: 0.2,
        parameters: [EventParameter(.hapticIntensity, 1), EventParameter(.hapticSharpness, 1)])
    ])
    for channel in profile.channels.indices {
      let frames = Array(try FrameRenderer(pattern: pattern, profile: profile, channel: channel))
      let driven = frames.filter { $0.level != 0 }.map(\.frequency)
      #expect(!driven.isEmpty)
      if let band = profile.channels[channel].frequencyControl {
        #expect(driven.allSatisfy { band.contains(Double($0)) }, "channel \(channel): \(Set(driven))")
      } else {
        #expect(driven.allSatisfy { $0 == 0 }, "channel \(channel) has no frequency control")
      }
    }
    // Channel 2's own range matters: with the board's it would go up to 292 Hz at sharpness 1.
    var boardWide = profile
    boardWide.channels[2].frequencyControl = 80...300
    let top = try FrameRenderer(pattern: pattern, profile: boardWide, channel: 2).map(\.frequency).max() ?? 0
    #expect(top > 260, "channel 2 with the board's range at sharpness 1: \(top) Hz")
  }

  @Test("An ERM with a range, and a bad channel range, are refused by path")
  func refused() {
    func problems(_ json: String) -> [String] {
      do {
        _ = try BoardDefinition.parse(Data(json.utf8), path: "test.json")
        return []
      } catch {
        return error.problems.map(\.description)
      }
    }
    let ermRange = Self.mixed.replacingOccurrences(
      of: "\"ratedVoltage\": 3.0,", with: "\"ratedVoltage\": 3.0, \"frequencyControlHz\": [100, 200],")
    #expect(problems(ermRange).contains { $0.hasPrefix("channels[0].frequencyControlHz: an ERM's frequency follows its speed") }, "\(problems(ermRange))")
    let backwards = Self.mixed.replacingOccurrences(of: "[240, 260]", with: "[260, 240]")
    #expect(problems(backwards).contains { $0.hasPrefix("channels[2].frequencyControlHz: [min, max]") }, "\(problems(backwards))")
  }
}
