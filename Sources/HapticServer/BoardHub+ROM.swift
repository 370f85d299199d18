import HapticCore
import HapticEngine
import HapticRenderer

/// A ROM effect a board was told to play (`POST /v1/boards/{id}/rom`, the WebSocket's `rom`;
/// docs/api.yaml `ROMPlay`).
public struct ROMPlay: Sendable, Codable, Equatable {
  /// The board and channel it plays on.
  public var board: String
  public var channel: Int
  /// The effect's number in its library (1–123) and the library (1–7).
  public var effect: Int
  public var library: Int
  /// Board seconds at which it starts (the clock of the board's players).
  public var start: Double
}

/// ROM effects: the driver's built-in effects (docs/protocol.md §6.10) on boards that have them
/// (the DRV2605L's), played at once, in order with the board's drive.
extension BoardHub {
  /// The fields of a ROM effect request.
  static let romFields: Set<String> = ["effect", "library", "channel"]

  /// Plays the ROM effect `fields` name (`effect` 1–123, `library` 1–7 (1), `channel` (0)) on
  /// board `id`.
  ///
  /// - Throws: ``ServerError`` `notFound` for an unknown board, `boardFailed` for one gone or
  ///   stopped, `badRequest` naming the field (`board` when it has no ROM effects).
  func playROMEffect(on id: String, _ fields: RequestFields) throws(ServerError) -> ROMPlay {
    let board = try running(id)
    guard let effect = try fields.integer("effect", in: HapticEngine.romEffects, meaning: "an effect number from 1 to 123") else {
      throw ServerError(.badRequest, field: "effect", "a ROM effect needs its effect number (1–123)")
    }
    let library = try fields.integer("library", in: HapticEngine.romLibraries, meaning: "a library from 1 to 7") ?? 1
    let count = board.profile.channels.count
    let channel =
      try fields.integer("channel", in: 0...max(count - 1, 0), meaning: "a channel from 0 to \(count - 1)") ?? 0
    do {
      let start = try board.engine.playROMEffect(effect, library: library, channel: channel)
      return ROMPlay(board: id, channel: channel, effect: effect, library: library, start: start)
    } catch where error.code == .notSupported {
      throw ServerError(.badRequest, field: "board", "board \(id) has no driver ROM effects (DRV2605L boards do)")
    } catch {
      throw ServerError(.boardFailed, field: "board", "board \(id) could not play the ROM effect: \(error.message)")
    }
  }
}
