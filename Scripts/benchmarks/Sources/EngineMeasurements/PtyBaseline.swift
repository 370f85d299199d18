import Foundation
import HapticCore
import HapticTransport

/// The pseudo-terminal's own one-way delivery latency on this machine, both directions, with
/// no pacing and no protocol: 32-byte writes 2–5 ms apart, timed from just before `write` to
/// the return of the reader's `read` (which polls the descriptor). Everything measured over the
/// pty includes this.
enum PtyBaseline {
  static func run(samples: Int = 500) throws {
    let pty = try PseudoTerminal()
    let client = try Transports.open(path: pty.path, baud: 1_000_000)
    defer {
      client.close()
      pty.boardSide.close()
    }
    let clock = ContinuousClock()
    var rng = SplitMix(seed: 9)
    var toBoard: [Double] = []
    var toHost: [Double] = []
    let message = [UInt8](repeating: 0x55, count: 32)
    for i in 0..<(2 * samples) {
      let (writer, reader): (any ByteTransport, any ByteTransport) =
        i % 2 == 0 ? (client, pty.boardSide) : (pty.boardSide, client)
      let start = clock.now
      try writer.write(message)
      var received = 0
      while received < message.count {
        let bytes = try reader.read(timeout: 0.1)
        if bytes.isEmpty { break }
        received += bytes.count
      }
      let elapsed = (clock.now - start).seconds
      if i % 2 == 0 { toBoard.append(elapsed) } else { toHost.append(elapsed) }
      pause(Double.random(in: 0.002...0.005, using: &rng))
    }
    sayStats("raw pty latency, client → board side (32 bytes, unpaced)", toBoard)
    sayStats("raw pty latency, board side → client (32 bytes, unpaced)", toHost)
  }
}
