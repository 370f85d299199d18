/// Why bytes could not be turned into a frame or message.
public struct WireError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What kind of problem.
  public enum Code: String, Sendable, Hashable {
    /// Not valid COBS.
    case badEncoding
    /// Shorter than a header and CRC.
    case tooShort
    /// Longer than ``WireFrame/maxEncodedSize``.
    case tooLong
    /// The CRC does not match.
    case badChecksum
    /// A protocol major version this side does not speak.
    case unsupportedVersion
    /// A message type this side does not know.
    case unknownMessage
    /// The payload ends early.
    case truncatedPayload
    /// The payload is malformed (bad value, extra bytes, bad UTF-8).
    case badPayload
  }

  /// The kind of problem.
  public var code: Code
  /// Details.
  public var message: String

  /// Creates an error.
  public init(_ code: Code, _ message: String) {
    self.code = code
    self.message = message
  }

  /// `badChecksum: ...`.
  public var description: String { "\(code.rawValue): \(message)" }
}
