import ArgumentParser
import Foundation
import HapticServer
import HapticServerClient

/// `probe --server URL`: what a running `hapticctl serve` reports of its boards.
extension Probe {
  func probeServer(_ url: String) throws {
    let client: HapticServerClient
    do {
      client = try HapticServerClient(url: url, token: token)
    } catch {
      throw ValidationError(error.message)
    }
    let only = board
    let boards: [BoardInfo]
    switch waitFor({ if let only { [try await client.board(only)] } else { try await client.boards() } }) {
    case .success(let list): boards = list
    case .failure(let error): throw CLIError("probe: \(url): \(error)")
    }
    if json {
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
      print(String(decoding: try encoder.encode(["boards": boards]), as: UTF8.self))
    } else {
      print(boards.map(Self.text).joined(separator: "\n\n"))
    }
    if boards.contains(where: { $0.state != "running" }) { throw ExitCode(1) }
  }

  /// One board as a few lines.
  static func text(_ board: BoardInfo) -> String {
    let health = board.health
    let channels = board.channels.enumerated().map { index, channel in
      let band = channel.bandHz.map { " \($0[0])–\($0[1]) Hz" } ?? ""
      return "  channel \(index): \(channel.kind), f0 \(channel.resonantHz) Hz\(band), \(channel.amplitudeBits)-bit"
    }
    return ([
      "\(board.id): \(board.name) at \(board.source), \(board.state)",
      "  firmware \(board.firmware), protocol v\(board.protocolVersion), \(board.framePeriodMs) ms frames, queue \(board.queueDepth)",
    ] + channels + [
      "  link: round trip \(health.roundTripMs.map { "\($0) ms" } ?? "not measured yet"), lookahead \(health.lookaheadMs) ms, "
        + "underruns \(health.underruns), late segments \(health.lateSegments), retransmits \(health.retransmits), "
        + "recoveries \(health.recoveries), \(health.wireBytes) bytes sent"
    ]).joined(separator: "\n")
  }
}
