import ArgumentParser
import Foundation
import HapticServer
import HapticServerClient

/// `send --server URL`: the pattern plays through a running `hapticctl serve`, on a player owned
/// by this command's WebSocket (stopped by the server when the command ends).
extension Send {
  /// What --server does not do (the server owns the link, the lookahead and the audio).
  func validateForServer() throws {
    if !channelPlays.isEmpty { throw ValidationError("--channel is not available with --server (give FILE or --preset)") }
    if audioOut != nil { throw ValidationError("--audio-out is not available with --server (the server plays no audio)") }
  }

  func runOnServer(_ url: String) throws {
    let client: HapticServerClient
    do {
      client = try HapticServerClient(url: url, token: token)
    } catch {
      throw ValidationError(error.message)
    }
    if let rom { return try playROMOnServer(client, effect: rom) }
    var options = PlayerOptions()
    options.loop = loop
    options.loopEnd = loopEnd
    options.rate = rate
    options.offset = seek
    options.delay = at
    let document: [UInt8]? = try file.map { path in
      _ = try PatternLoading.load(path, reading: reading)  // the CLI's errors, naming the file, before anything plays
      return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }
    let (preset, intensity, board, live, started) = (self.preset, self.intensity, self.board, self.live, Date())
    let playing = options
    let outcome = waitFor { () async throws -> (PlayerInfo, String) in
        let boards = try await client.boards()
        let id = try Self.serverBoard(board, among: boards.map(\.id), at: url)
        let ended = try await client.session { session in
          let player =
            if let document {
              try await session.play(on: id, document: document, options: playing)
            } else {
              try await session.play(on: id, preset: preset ?? "", intensity: intensity, options: playing)
            }
          if live { Self.readLiveCommands(session, player: player.id) }
          guard let ended = await session.end(of: player.id) else {
            throw CLIError("send: \(url) closed the connection before the player ended")
          }
          return ended
        }
        return (ended, id)
    }
    let (ended, id) = try Self.unwrap(outcome, url: url)
    let wall = Date().timeIntervalSince(started)
    if json {
      let object: [String: Any?] = [
        "server": url, "board": id, "player": ended.id, "source": source, "state": ended.state,
        "pattern_duration_s": ended.duration, "wall_s": (wall * 1000).rounded() / 1000, "error": ended.error,
      ]
      let data = try JSONSerialization.data(withJSONObject: object.compactMapValues { $0 }, options: [.sortedKeys])
      print(String(decoding: data, as: UTF8.self))
    } else {
      print("\(source) on \(id) at \(url): \(ended.state) (\(String(format: "%.3f", ended.duration)) s pattern, \(String(format: "%.3f", wall)) s wall)")
    }
    if ended.state == "failed" { throw CLIError("send: the player failed on \(id): \(ended.error ?? "no reason given")") }
  }

  /// `--rom N --server URL`: the board's driver plays the effect (the server refuses a board
  /// without ROM effects).
  func playROMOnServer(_ client: HapticServerClient, effect: Int) throws {
    let (board, library, url) = (self.board, self.library, client.base)
    let played = try Self.unwrap(
      waitFor { () async throws -> ROMPlay in
        let id = try Self.serverBoard(board, among: try await client.boards().map(\.id), at: url)
        return try await client.playROMEffect(on: id, effect: effect, library: library)
      }, url: url)
    if json {
      let object: [String: Any] = [
        "server": url, "board": played.board, "rom": played.effect, "library": played.library, "start_s": played.start,
      ]
      print(String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self))
    } else {
      print("ROM effect \(played.effect) (library \(played.library)) on \(played.board) at \(url)")
    }
  }

  /// The server's board for `--board`: the one named, or the only one when `--board` was left
  /// at its default.
  static func serverBoard(_ requested: String, among ids: [String], at url: String) throws -> String {
    if ids.contains(requested) { return requested }
    if requested == "sim-lra" && ids.count == 1 { return ids[0] }
    throw CLIError("send: \(url) serves no board \(requested) (it serves: \(ids.joined(separator: ", ")))")
  }

  static func unwrap<T>(_ result: Result<T, any Error>, url: String) throws -> T {
    switch result {
    case .success(let value): return value
    case .failure(let error as ServerError): throw CLIError("send: \(url): \(error)")
    case .failure(let error): throw error
    }
  }

  /// `--live` over the session: each line of standard input is a command for the player.
  static func readLiveCommands(_ session: ServerSession, player: Int) {
    let thread = Thread {
      while let line = readLine() {
        let words = line.split(separator: " ").map(String.init)
        guard let command = words.first else { continue }
        let action: PlayerAction
        do {
          action = try LiveCommand.action(command, words.dropFirst().first)
        } catch {
          printError("live: \(error)")
          continue
        }
        if case .failure(let error) = waitFor({ try await session.control(player, action) }) {
          printError("live: \(error)")
        }
      }
    }
    thread.name = "send --live --server"
    thread.start()
  }
}
