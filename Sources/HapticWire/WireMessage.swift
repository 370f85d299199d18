/// A message of the hapticctl wire protocol (docs/protocol.md §6). The raw value of ``Kind`` is
/// the frame's type byte.
public enum WireMessage: Sendable, Hashable {
  /// Acknowledgement only (unreliable; the frame's `ack` field is the content).
  case ack
  /// Host → board: report your capabilities.
  case identify
  /// Board → host: the answer to `identify`.
  case capabilities(BoardCapabilities)
  /// Host → board: report your clock (for clock sync); `id` is echoed.
  case clockQuery(id: UInt16)
  /// Board → host: the board clock (64-bit ticks) when the query was handled.
  case clock(id: UInt16, boardTime: UInt64)
  /// Host → board: append segments to a channel's queue.
  case queueSegments(SegmentBatch)
  /// Host → board: drop a channel's queued drive from `startTime` on, then queue these.
  case replaceSegments(SegmentBatch)
  /// Host → board: stop now: zero (or brake) the channels in the mask and clear their queues.
  case stop(channels: UInt8)
  /// Host → board: report status.
  case statusRequest
  /// Board → host: status and telemetry.
  case status(BoardStatus)
  /// Host → board: keep-alive (resets the watchdog like any valid frame).
  case heartbeat
  /// Board → host: the board (re)started.
  case resetNotice(bootCount: UInt16, cause: ResetCause)
  /// Host → board: calibrate a channel (LRA resonance).
  case calibrate(channel: UInt8)
  /// Board → host: the outcome of `calibrate`.
  case calibrationResult(CalibrationResult)
  /// Host → board: play a driver-ROM effect at a board time.
  case playROMEffect(channel: UInt8, library: UInt8, effect: UInt8, startTime: UInt32)
  /// Either way: a request could not be carried out.
  case error(ProtocolError)
  /// Host → board: set the watchdog timeout.
  case setWatchdog(milliseconds: UInt16)
  /// Host → board (v1.1, boards with the *identity* feature): report the serial the board keeps
  /// for life; with `assign` (not 0), keep that one if the board has none yet.
  case identityRequest(assign: UInt32?)
  /// Board → host: the board's serial (0: none yet), the answer to `identity request`.
  case identity(serial: UInt32)

  /// Message type bytes.
  public enum Kind: UInt8, Sendable, Hashable, CaseIterable {
    case ack = 0x00, identify = 0x01, capabilities = 0x02, clockQuery = 0x03, clock = 0x04
    case queueSegments = 0x05, replaceSegments = 0x06, stop = 0x07, statusRequest = 0x08
    case status = 0x09, heartbeat = 0x0A, resetNotice = 0x0B, calibrate = 0x0C
    case calibrationResult = 0x0D, playROMEffect = 0x0E, error = 0x0F, setWatchdog = 0x10
    case identityRequest = 0x11, identity = 0x12
  }

  /// This message's type.
  public var kind: Kind {
    switch self {
    case .ack: return .ack
    case .identify: return .identify
    case .capabilities: return .capabilities
    case .clockQuery: return .clockQuery
    case .clock: return .clock
    case .queueSegments: return .queueSegments
    case .replaceSegments: return .replaceSegments
    case .stop: return .stop
    case .statusRequest: return .statusRequest
    case .status: return .status
    case .heartbeat: return .heartbeat
    case .resetNotice: return .resetNotice
    case .calibrate: return .calibrate
    case .calibrationResult: return .calibrationResult
    case .playROMEffect: return .playROMEffect
    case .error: return .error
    case .setWatchdog: return .setWatchdog
    case .identityRequest: return .identityRequest
    case .identity: return .identity
    }
  }

  /// The payload bytes.
  public func payload() -> [UInt8] {
    var out = WireWriter()
    switch self {
    case .ack, .identify, .statusRequest, .heartbeat: break
    case .capabilities(let capabilities): capabilities.encode(into: &out)
    case .clockQuery(let id): out.u16(id)
    case .clock(let id, let boardTime):
      out.u16(id)
      out.u64(boardTime)
    case .queueSegments(let batch), .replaceSegments(let batch): batch.encode(into: &out)
    case .stop(let channels): out.u8(channels)
    case .status(let status): status.encode(into: &out)
    case .resetNotice(let bootCount, let cause):
      out.u16(bootCount)
      out.u8(cause.rawValue)
    case .calibrate(let channel): out.u8(channel)
    case .calibrationResult(let result): result.encode(into: &out)
    case .playROMEffect(let channel, let library, let effect, let startTime):
      out.u8(channel)
      out.u8(library)
      out.u8(effect)
      out.u32(startTime)
    case .error(let error):
      out.u8(error.code.rawValue)
      out.u8(error.messageType)
      out.u16(error.detail)
    case .setWatchdog(let milliseconds): out.u16(milliseconds)
    case .identityRequest(let assign): if let assign { out.u32(assign) }
    case .identity(let serial): out.u32(serial)
    }
    return out.bytes
  }

  /// Decodes a message of type `type` from `payload`.
  ///
  /// - Throws: ``WireError`` `.unknownMessage` for a type this side does not know, `.badPayload`
  ///   or `.truncatedPayload` for a malformed payload.
  public static func decode(type: UInt8, payload: [UInt8]) throws(WireError) -> WireMessage {
    guard let kind = Kind(rawValue: type) else {
      throw WireError(.unknownMessage, "unknown message type 0x\(String(type, radix: 16))")
    }
    var reader = WireReader(payload)
    let message: WireMessage
    switch kind {
    case .ack: message = .ack
    case .identify: message = .identify
    case .statusRequest: message = .statusRequest
    case .heartbeat: message = .heartbeat
    case .capabilities: message = .capabilities(try BoardCapabilities.decode(from: &reader))
    case .clockQuery: message = .clockQuery(id: try reader.u16())
    case .clock: message = .clock(id: try reader.u16(), boardTime: try reader.u64())
    case .queueSegments: message = .queueSegments(try SegmentBatch.decode(from: &reader))
    case .replaceSegments: message = .replaceSegments(try SegmentBatch.decode(from: &reader))
    case .stop: message = .stop(channels: try reader.u8())
    case .status: message = .status(try BoardStatus.decode(from: &reader))
    case .resetNotice:
      let boot = try reader.u16()
      message = .resetNotice(bootCount: boot, cause: ResetCause(rawValue: try reader.u8()) ?? .unknown)
    case .calibrate: message = .calibrate(channel: try reader.u8())
    case .calibrationResult: message = .calibrationResult(try CalibrationResult.decode(from: &reader))
    case .playROMEffect:
      message = .playROMEffect(
        channel: try reader.u8(), library: try reader.u8(), effect: try reader.u8(), startTime: try reader.u32())
    case .error:
      let code = ProtocolError.Code(rawValue: try reader.u8()) ?? .internalError
      message = .error(ProtocolError(code: code, messageType: try reader.u8(), detail: try reader.u16()))
    case .setWatchdog: message = .setWatchdog(milliseconds: try reader.u16())
    case .identityRequest:
      guard reader.remaining > 0 else {
        message = .identityRequest(assign: nil)
        break
      }
      let assign = try reader.u32()
      if assign == 0 { throw WireError(.badPayload, "identity request: a serial to assign must not be 0 (0 means none)") }
      message = .identityRequest(assign: assign)
    case .identity: message = .identity(serial: try reader.u32())
    }
    try reader.finish()
    return message
  }
}

/// Why a board (re)started.
public enum ResetCause: UInt8, Sendable, Hashable {
  case unknown = 0, powerOn = 1, external = 2, brownOut = 3, watchdog = 4, software = 5
}

/// An `error` message: what failed and why.
public struct ProtocolError: Sendable, Hashable {
  /// Error codes (docs/protocol.md §7).
  public enum Code: UInt8, Sendable, Hashable {
    case unsupportedVersion = 1, unknownMessage = 2, badPayload = 3, badChannel = 4
    case queueFull = 5, notSupported = 6, calibrationFailed = 7, busy = 8, timeInPast = 9
    case internalError = 255
  }

  /// What went wrong.
  public var code: Code
  /// The type byte of the message that failed.
  public var messageType: UInt8
  /// Code-specific detail (e.g. the version spoken, the channel, the queue depth).
  public var detail: UInt16

  /// Creates an error.
  public init(code: Code, messageType: UInt8, detail: UInt16 = 0) {
    self.code = code
    self.messageType = messageType
    self.detail = detail
  }
}

/// The outcome of a calibration.
public struct CalibrationResult: Sendable, Hashable {
  /// The channel.
  public var channel: UInt8
  /// Whether it passed.
  public var succeeded: Bool
  /// The measured resonant frequency in Hz.
  public var resonantFrequency: Double
  /// Driver-specific compensation values (DRV2605L: A_CAL_COMP, A_CAL_BEMF).
  public var compensation: UInt8
  public var backEMF: UInt8

  /// Creates a result.
  public init(channel: UInt8, succeeded: Bool, resonantFrequency: Double, compensation: UInt8, backEMF: UInt8) {
    self.channel = channel
    self.succeeded = succeeded
    self.resonantFrequency = resonantFrequency
    self.compensation = compensation
    self.backEMF = backEMF
  }

  func encode(into out: inout WireWriter) {
    out.u8(channel)
    out.u8(succeeded ? 1 : 0)
    out.u16(UInt16(clamping: Int((resonantFrequency * 10).rounded())))
    out.u8(compensation)
    out.u8(backEMF)
  }

  static func decode(from reader: inout WireReader) throws(WireError) -> CalibrationResult {
    CalibrationResult(
      channel: try reader.u8(), succeeded: try reader.u8() != 0,
      resonantFrequency: Double(try reader.u16()) / 10, compensation: try reader.u8(), backEMF: try reader.u8())
  }
}
