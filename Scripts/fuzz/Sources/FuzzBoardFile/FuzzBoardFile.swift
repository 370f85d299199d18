import Foundation
import HapticBoards
import HapticCore
import HapticRenderer

/// libFuzzer target: board files (`Boards/*.json`, user board files) on any bytes. Parsing must
/// never trap; a file that validates must give a profile the renderer accepts and renders a
/// short pattern on without trapping, every level within the board's range.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBoardFile(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
  let bytes = data.map { Data(UnsafeBufferPointer(start: $0, count: count)) } ?? Data()
  guard let board = try? BoardDefinition.parse(bytes, path: "fuzz.json") else { return 0 }
  let pattern = HapticPattern(events: [
    HapticEvent(.hapticTransient, time: 0, parameters: [EventParameter(.hapticIntensity, 1)]),
    HapticEvent(
      .hapticContinuous, time: 0.02, duration: 0.1,
      parameters: [EventParameter(.hapticIntensity, 0.7), EventParameter(.hapticSharpness, 0.3)]),
  ])
  for channel in board.profile.channels.indices {
    var render: ChannelRender
    do {
      render = try ChannelRender(pattern: pattern, profile: board.profile, channel: channel)
    } catch {
      fatalError("\(board.id) validated, yet its profile does not render: \(error)")
    }
    var frames = 0
    while let (frame, _) = render.next() {
      frames += 1
      if abs(frame.level) > board.profile.maxLevel {
        fatalError("\(board.id) channel \(channel): level \(frame.level) beyond \(board.profile.maxLevel)")
      }
      // A frame period so short that 0.12 s takes millions of frames is a validation gap.
      if frames > 1_000_000 { fatalError("\(board.id): over a million frames for 0.12 s") }
    }
  }
  return 0
}
