import HapticCore
import Hummingbird

/// The player endpoints (docs/api.yaml, tag `players`).
extension BoardServer {
  /// The query fields of `POST /v1/boards/{id}/players` besides the player options.
  static let sourceFields: Set<String> = ["format", "file", "preset", "intensity"]

  static func addPlayerRoutes(to router: Router<Context>, hub: BoardHub, library: PatternLibrary?) {
    router.post("v1/boards/:id/players") { request, context -> Response in
      let id = try context.parameters.require("id")
      let board = try hub.board(id)
      let fields = try RequestFields(query: query(request), allowed: PlayerOptions.fields.union(sourceFields))
      let source = try await patternSource(fields, documentField: "body") { () async throws(ServerError) -> [UInt8]? in
        let bytes = try await body(request)
        return bytes.allSatisfy { [0x20, 0x0A, 0x0D, 0x09].contains($0) } ? nil : bytes
      }
      let options = try PlayerOptions(fields, channelCount: board.channels.count)
      let (pattern, name) = try source.load(library: library)
      return try json(["player": try hub.createPlayer(on: id, pattern: pattern, source: name, options: options)], status: .created)
    }
    router.get("v1/players") { _, _ -> Response in
      try json(["players": hub.players])
    }
    router.get("v1/players/:player") { _, context -> Response in
      try json(["player": try hub.player(try number(context))])
    }
    router.delete("v1/players/:player") { _, context -> Response in
      try hub.remove(try number(context))
      return Response(status: .noContent)
    }
    router.patch("v1/players/:player") { request, context -> Response in
      let player = try hub.player(try number(context)).id
      let fields = try RequestFields(json: try await body(request), allowed: ["loop", "loop_end", "rate"])
      return try json(["player": try hub.control(player, try settings(fields, emptyField: "body"))])
    }
    for verb in ["start", "stop", "pause", "resume", "seek", "parameters"] {
      router.post("v1/players/:player/\(verb)") { request, context -> Response in
        let player = try number(context)
        let fields = try RequestFields(json: try await body(request), allowed: actionFields[verb] ?? [])
        return try json(["player": try hub.control(player, try action(verb, fields))])
      }
    }
  }

  /// The fields each player action takes.
  static let actionFields: [String: Set<String>] = [
    "start": ["delay", "offset"], "stop": ["delay"], "pause": [], "resume": [], "seek": ["offset"],
    "parameters": Set(parameterIDs.keys), "set": ["loop", "loop_end", "rate"],
  ]

  /// The live parameters by field name, with the range each takes (Core Haptics' controls:
  /// intensity scales, the others add).
  static let parameterIDs: [String: (id: DynamicParameterID, range: ClosedRange<Double>)] = [
    "intensity": (.hapticIntensityControl, 0...1), "sharpness": (.hapticSharpnessControl, -1...1),
    "attack": (.hapticAttackTimeControl, -1...1), "decay": (.hapticDecayTimeControl, -1...1),
    "release": (.hapticReleaseTimeControl, -1...1),
  ]

  /// Player action `verb` with its `fields`.
  static func action(_ verb: String, _ fields: RequestFields) throws(ServerError) -> PlayerAction {
    switch verb {
    case "start":
      return .start(
        delay: try fields.number("delay", in: 0...60, meaning: "seconds from 0 to 60") ?? 0,
        offset: try fields.number("offset", in: 0...86_400, meaning: "seconds from 0 to 86400") ?? 0)
    case "stop": return .stop(delay: try fields.number("delay", in: 0...60, meaning: "seconds from 0 to 60") ?? 0)
    case "pause": return .pause
    case "resume": return .resume
    case "seek":
      guard let offset = try fields.number("offset", in: 0...86_400, meaning: "seconds from 0 to 86400") else {
        throw ServerError(.badRequest, field: "offset", "seek needs an offset (seconds into the pattern)")
      }
      return .seek(offset: offset)
    case "parameters":
      var parameters: [DynamicParameter] = []
      for (name, entry) in parameterIDs.sorted(by: { $0.key < $1.key }) {
        let meaning = "a number from \(entry.range.lowerBound) to \(entry.range.upperBound)"
        if let value = try fields.number(name, in: entry.range, meaning: meaning) {
          parameters.append(DynamicParameter(entry.id, value: value, time: 0))
        }
      }
      guard !parameters.isEmpty else {
        throw ServerError(
          .badRequest, field: "parameters", "give at least one of \(parameterIDs.keys.sorted().joined(separator: ", "))")
      }
      return .parameters(parameters)
    case "set": return try settings(fields, emptyField: "loop")
    default:
      throw ServerError(.badRequest, field: "op", "unknown action \(verb)")
    }
  }

  /// Loop and rate settings.
  static func settings(_ fields: RequestFields, emptyField: String) throws(ServerError) -> PlayerAction {
    guard ["loop", "loop_end", "rate"].contains(where: fields.has) else {
      throw ServerError(.badRequest, field: emptyField, "give at least one of loop, loop_end, rate")
    }
    return .set(
      loop: try fields.bool("loop"),
      loopEnd: try fields.number("loop_end", in: 0...86_400, meaning: "seconds from 0 to 86400"),
      rate: try fields.number("rate", in: 1.0 / 64...64, meaning: "a rate from 1/64 to 64"))
  }

  /// The pattern `fields` name: a library `file`, a `preset` (with its `intensity`), or else the
  /// document `document()` gives (nil: none was sent; `documentField` names it), in `format`.
  static func patternSource(
    _ fields: RequestFields, documentField: String, document: () async throws(ServerError) -> [UInt8]?
  ) async throws(ServerError) -> PatternSource {
    let named = ["file", "preset"].filter(fields.has)
    if named.count > 1 { throw ServerError(.badRequest, field: "preset", "give a file or a preset, not both") }
    let sent = try await document()
    if !named.isEmpty {
      if sent != nil {
        throw ServerError(.badRequest, field: documentField, "give a document or a \(named[0]), not both")
      }
      if fields.has("format") { throw ServerError(.badRequest, field: "format", "format applies to a document only") }
    }
    if fields.has("intensity") && !fields.has("preset") {
      throw ServerError(.badRequest, field: "intensity", "intensity scales a preset: give preset too")
    }
    if let file = try fields.string("file") { return .file(file) }
    if let preset = try fields.string("preset") {
      return .preset(preset, intensity: try fields.number("intensity", in: 0...1, meaning: "a number from 0 to 1") ?? 1)
    }
    guard let sent else {
      throw ServerError(.badRequest, field: documentField, "give a document (AHAP or .haptic), a file or a preset")
    }
    return .document(sent, try PatternSource.format(try fields.string("format")), name: documentField)
  }

  /// The `{player}` path parameter.
  static func number(_ context: Context) throws(ServerError) -> Int {
    let text = context.parameters.get("player") ?? ""
    guard !text.isEmpty, text.allSatisfy(\.isASCII), text.allSatisfy(\.isNumber), text.first != "0" else {
      throw ServerError(.badRequest, field: "player", "a player is a number from 1, not \(text)")
    }
    // A number beyond any player's is no player (not a malformed one).
    guard let number = Int(text) else { throw ServerError(.notFound, field: "player", "no player \(text)") }
    return number
  }
}
