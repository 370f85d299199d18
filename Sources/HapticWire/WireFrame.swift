/// One frame of the hapticctl wire protocol (docs/protocol.md §3), before COBS encoding:
///
/// `[version:1][flags:1][session:1][seq:1][ack:1][type:1][length:1][payload:0…246][crc16:2, LE]`
///
/// The length byte guards against inserted or lost bytes that a CRC without a final XOR would
/// let through (a duplicated trailing zero byte, for one).
public struct WireFrame: Sendable, Hashable {
  /// The protocol major version this implementation speaks.
  public static let protocolVersion: UInt8 = 1
  /// Header bytes before the payload.
  public static let headerSize = 7
  /// Largest payload in bytes.
  public static let maxPayload = 246
  /// Largest frame before COBS: header + payload + CRC.
  public static let maxFrameSize = headerSize + maxPayload + 2
  /// Largest frame on the wire: COBS adds 2 bytes at this size, plus the 0x00 delimiter.
  public static let maxEncodedSize = maxFrameSize + 3

  /// Flag bits.
  public struct Flags: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// The frame carries a sequence number and must be acknowledged.
    public static let reliable = Flags(rawValue: 1 << 0)
    /// The `ack` field is valid.
    public static let ackValid = Flags(rawValue: 1 << 1)
    /// The sender started a new session: the receiver takes `seq` as the first of a new
    /// sequence and forgets what it expected before.
    public static let syn = Flags(rawValue: 1 << 2)
    /// On an `ack` message: the receiver is missing frames from `ack` on (a later frame
    /// arrived, or a ``poll`` said more were sent); the sender resends from `ack` at once.
    public static let nak = Flags(rawValue: 1 << 3)
    /// On an `ack` message: "answer with your ack at once"; `seq` carries the sender's next
    /// sequence number, so a receiver behind it answers with a ``nak``.
    public static let poll = Flags(rawValue: 1 << 4)
    /// On an `ack` message (protocol v1.1): the receiver **holds**: the frame numbered `ack`
    /// arrived in order but it could not take it (no room to answer it: its own send window is
    /// full); it takes it once the sender acknowledges the receiver's frames, and says so with a
    /// plain ack. The sender does not resend on it (it is no loss) and stops polling.
    public static let hold = Flags(rawValue: 1 << 5)
  }

  /// The protocol major version of the sender.
  public var version: UInt8
  /// Flag bits.
  public var flags: Flags
  /// The sender's session: chosen when its link starts, so a restarted peer's first frames are
  /// told apart from retransmissions of an earlier session.
  public var session: UInt8
  /// The sender's sequence number for reliable frames (mod 256).
  public var seq: UInt8
  /// The next sequence number the sender expects from its peer (cumulative acknowledgement).
  public var ack: UInt8
  /// The message type.
  public var type: UInt8
  /// The message payload.
  public var payload: [UInt8]

  /// Creates a frame.
  public init(
    version: UInt8 = WireFrame.protocolVersion, flags: Flags, session: UInt8 = 0, seq: UInt8, ack: UInt8,
    type: UInt8, payload: [UInt8]
  ) {
    self.version = version
    self.flags = flags
    self.session = session
    self.seq = seq
    self.ack = ack
    self.type = type
    self.payload = payload
  }

  /// The frame's bytes with CRC, before COBS.
  public var rawBytes: [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(Self.headerSize + payload.count + 2)
    bytes.append(version)
    bytes.append(flags.rawValue)
    bytes.append(session)
    bytes.append(seq)
    bytes.append(ack)
    bytes.append(type)
    bytes.append(UInt8(clamping: payload.count))
    bytes.append(contentsOf: payload)
    let crc = CRC16.checksum(bytes)
    bytes.append(UInt8(truncatingIfNeeded: crc))
    bytes.append(UInt8(truncatingIfNeeded: crc >> 8))
    return bytes
  }

  /// The frame as sent: COBS-encoded, then the 0x00 delimiter. The raw frame is assembled in
  /// a stack buffer, so the only allocation is the result.
  public func encoded() -> [UInt8] {
    guard payload.count <= Self.maxPayload else {
      // Oversized (a caller's bug): encoded as is, so the receiver rejects it by its length.
      return rawBytes.withUnsafeBufferPointer { COBS.encode($0, delimit: true) }
    }
    let count = payload.count
    return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.maxFrameSize) { raw in
      raw[0] = version
      raw[1] = flags.rawValue
      raw[2] = session
      raw[3] = seq
      raw[4] = ack
      raw[5] = type
      raw[6] = UInt8(count)
      payload.withUnsafeBufferPointer { source in
        for index in 0..<count { raw[Self.headerSize + index] = source[index] }
      }
      let end = Self.headerSize + count
      let crc = CRC16.checksum(UnsafeBufferPointer(rebasing: raw[..<end]))
      raw[end] = UInt8(truncatingIfNeeded: crc)
      raw[end + 1] = UInt8(truncatingIfNeeded: crc >> 8)
      return COBS.encode(UnsafeBufferPointer(rebasing: raw[..<(end + 2)]), delimit: true)
    }
  }

  /// Parses raw (decoded) frame bytes and checks the CRC.
  ///
  /// The version is returned as found; callers decide what to do with other versions.
  public static func parse(raw bytes: [UInt8]) throws(WireError) -> WireFrame {
    try bytes.withUnsafeBufferPointer { buffer throws(WireError) in try parse(raw: buffer) }
  }

  /// Parses raw frame bytes from a buffer (the non-generic core; the payload is the only copy).
  public static func parse(raw bytes: UnsafeBufferPointer<UInt8>) throws(WireError) -> WireFrame {
    guard bytes.count >= headerSize + 2 else {
      throw WireError(.tooShort, "\(bytes.count) bytes is shorter than a frame (\(headerSize + 2))")
    }
    guard bytes.count <= maxFrameSize else {
      throw WireError(.tooLong, "\(bytes.count) bytes is longer than a frame (\(maxFrameSize))")
    }
    let body = UnsafeBufferPointer(rebasing: bytes[..<(bytes.count - 2)])
    let expected = UInt16(bytes[bytes.count - 2]) | UInt16(bytes[bytes.count - 1]) << 8
    guard CRC16.checksum(body) == expected else {
      throw WireError(.badChecksum, "CRC mismatch")
    }
    let payloadCount = bytes.count - headerSize - 2
    guard Int(bytes[6]) == payloadCount else {
      throw WireError(.badPayload, "length byte says \(bytes[6]) but the frame holds \(payloadCount) payload bytes")
    }
    return WireFrame(
      version: bytes[0], flags: Flags(rawValue: bytes[1]), session: bytes[2], seq: bytes[3], ack: bytes[4],
      type: bytes[5], payload: Array(UnsafeBufferPointer(rebasing: bytes[headerSize..<(bytes.count - 2)])))
  }
}
