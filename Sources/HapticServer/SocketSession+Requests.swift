import Foundation
import HapticLocks

/// A WebSocket client's requests (``ServerSocket``).
extension SocketSession {
  /// `reply` and `error` messages.
  struct Reply: Encodable {
    var type = "reply"
    var id: JSONValue?
    var op: String
    var player: PlayerInfo?
    var board: String?
    var rom: ROMPlay?
  }

  struct Failure: Encodable {
    var type = "error"
    var id: JSONValue?
    var op: String?
    var error: ServerError
  }

  /// Handles one message: a JSON object with `op` (and `id`, echoed in the reply).
  func handle(_ bytes: [UInt8]) async {
    var id: JSONValue?
    var op: String?
    do {
      guard case .object(var members) = try JSONValue.parse(bytes, field: "message", what: "the message") else {
        throw ServerError(.badRequest, field: "message", "a message is a JSON object with an op")
      }
      id = members.removeValue(forKey: "id")
      guard case .string(let name) = members.removeValue(forKey: "op") else {
        throw ServerError(.badRequest, field: "op", "a message needs an op (a string)")
      }
      op = name
      if let reply = try await perform(name, members, replying: id != nil), id != nil {
        var answer = reply
        answer.id = id
        send(answer)
      }
    } catch let error as ServerError {
      send(Failure(id: id, op: op, error: error))
    } catch {
      send(Failure(id: id, op: op, error: ServerError(.badRequest, "\(error)")))
    }
  }

  /// Request `op` with its fields; the reply to send when the request has an id (`replying`;
  /// without one a player action describes no player).
  private func perform(_ op: String, _ members: [String: JSONValue], replying: Bool) async throws(ServerError) -> Reply? {
    switch op {
    case "subscribe", "unsubscribe":
      let fields = try RequestFields(object: members, allowed: ["board"])
      guard let board = try fields.string("board") else {
        throw ServerError(.badRequest, field: "board", "\(op) needs a board")
      }
      _ = try hub.board(board)
      setSubscribed(board, op == "subscribe")
      return Reply(op: op, board: board)
    case "play":
      let fields = try RequestFields(
        object: members, allowed: PlayerOptions.fields.union(BoardServer.sourceFields).union(["board", "document"]))
      guard let board = try fields.string("board") else {
        throw ServerError(.badRequest, field: "board", "play needs a board")
      }
      let info = try hub.board(board)
      let source = try await BoardServer.patternSource(fields, documentField: "document") {
        () throws(ServerError) -> [UInt8]? in
        // A string is the document's text as written (errors then point into it); an object is
        // re-encoded (compact, keys sorted: line:column refer to that).
        switch members["document"] {
        case nil: return nil
        case .string(let text)?: return text.allSatisfy(\.isWhitespace) ? nil : Array(text.utf8)
        case .object(let document)?: return Array(JSONValue.object(document).jsonText.utf8)
        default: throw ServerError(.badRequest, field: "document", "document must be a JSON object or its text")
        }
      }
      let options = try PlayerOptions(fields, channelCount: info.channels.count)
      let (pattern, name) = try source.load(library: library)
      let player = try hub.createPlayer(on: board, pattern: pattern, source: name, options: options, owner: client)
      return Reply(op: op, player: player)
    case "rom":
      let fields = try RequestFields(object: members, allowed: BoardHub.romFields.union(["board"]))
      guard let board = try fields.string("board") else {
        throw ServerError(.badRequest, field: "board", "rom needs a board")
      }
      return Reply(op: op, rom: try hub.playROMEffect(on: board, fields))
    case "adopt":
      return Reply(op: op, player: try hub.adopt(try Self.player(members, allowed: []).number, by: client))
    case "delete":
      try hub.remove(try Self.player(members, allowed: []).number)
      return Reply(op: op)
    default:
      guard let allowed = BoardServer.actionFields[op] else {
        throw ServerError(
          .badRequest, field: "op",
          "unknown op \(op) (ops: subscribe, unsubscribe, play, rom, start, stop, pause, resume, seek, set, parameters, delete, adopt)")
      }
      let (number, fields) = try Self.player(members, allowed: allowed)
      _ = try hub.kept(number)  // an unknown player is not_found before its fields are read
      let action = try BoardServer.action(op, fields)
      guard replying else {
        try hub.apply(number, action)
        return nil
      }
      return Reply(op: op, player: try hub.control(number, action))
    }
  }

  /// The `player` a request names, and its other fields.
  private static func player(
    _ members: [String: JSONValue], allowed: Set<String>
  ) throws(ServerError) -> (number: Int, fields: RequestFields) {
    var rest = members
    guard case .number(let value) = rest.removeValue(forKey: "player"), let number = Int(exactly: value), number > 0
    else {
      throw ServerError(.badRequest, field: "player", "the request needs a player (a number from 1)")
    }
    return (number, try RequestFields(object: rest, allowed: allowed))
  }
}
