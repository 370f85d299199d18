import HapticRenderer
import HapticSimulator
import HapticWire

/// libFuzzer target: the wire path of a board — frame decoding (COBS, CRC), message decoding,
/// the reliable link and the simulated board's message handling — on any byte stream.
///
/// The input is a sequence of operations, each an op byte and its operands:
/// - `0`: raw bytes — a length byte, then that many bytes go to the board as they are;
/// - `1`: a valid reliable frame — a type byte, a length byte, then the payload: sent by a host
///   `ReliableLink` (right session, sequence, CRC and COBS), so any payload reaches the
///   board's message handlers;
/// - `2`: time passes — a byte of milliseconds (0–255) the board runs for;
/// - anything else: the host acknowledges what the board sent.
///
/// Every frame decoded from the raw bytes must survive a message round trip (decode → payload →
/// decode gives the same message). The board must never trap, and its drive must stay within
/// full scale.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWire(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
  let input = data.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
  var board = SimulatedBoard(configuration: SimulatorConfiguration(profile: .simLRA))
  var host = ReliableLink(session: 0x5A)
  var hostDecoder = FrameDecoder()
  var checker = FrameDecoder()
  var time = 0.0
  var index = 0
  var operations = 0
  func take(_ n: Int) -> [UInt8] {
    let end = min(index + n, input.count)
    defer { index = end }
    return Array(input[index..<end])
  }
  func deliver(_ bytes: [UInt8]) {
    let reply = board.receive(bytes)
    _ = host.receive(hostDecoder.feed(reply), now: time)
  }
  while index < input.count && operations < 256 {
    operations += 1
    let op = input[index]
    index += 1
    switch op {
    case 0:
      let bytes = take(Int(take(1).first ?? 0))
      for frame in checker.feed(bytes) {
        guard let message = try? WireMessage.decode(type: frame.type, payload: frame.payload) else { continue }
        let again = try? WireMessage.decode(type: message.kind.rawValue, payload: message.payload())
        if again != message { fatalError("message round trip: \(message) → \(String(describing: again))") }
      }
      deliver(bytes)
    case 1:
      let header = take(2)
      guard header.count == 2 else { break }
      deliver(host.send(type: header[0], payload: take(Int(header[1])), now: time))
    case 2:
      let milliseconds = Double(take(1).first ?? 0)
      time += milliseconds / 1000
      let reply = board.advance(to: time)
      _ = host.receive(hostDecoder.feed(reply), now: time)
      deliver(host.poll(now: time).bytes)
    default:
      deliver(host.poll(now: time).bytes)
    }
    for drive in board.currentDrive where !(abs(drive.level) <= 1) {
      fatalError("drive \(drive.level) beyond full scale")
    }
  }
  return 0
}
