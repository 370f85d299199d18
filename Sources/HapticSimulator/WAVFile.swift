/// RIFF/WAVE reading and writing: 16-bit PCM out (what `simulate` writes); 8/16/24/32-bit PCM
/// and 32/64-bit float in (what `AudioCustom` events may reference).
public enum WAVFile {
  /// Why a WAV file could not be read.
  public struct ReadError: Error, Sendable, CustomStringConvertible {
    /// What was wrong.
    public var message: String
    public var description: String { message }
  }

  /// Decoded audio, mixed down to one channel, samples in −1…1.
  public struct Audio: Sendable {
    /// Samples per second.
    public var sampleRate: Double
    /// Mono samples.
    public var samples: [Float]
  }

  /// A 16-bit PCM WAV file of `channels` interleaved channels (all the same length), samples
  /// clipped to −1…1.
  public static func encode(channels: [[Float]], sampleRate: Int) -> [UInt8] {
    let count = channels.map(\.count).max() ?? 0
    let channelCount = max(channels.count, 1)
    let dataSize = count * channelCount * 2
    var bytes: [UInt8] = []
    bytes.reserveCapacity(44 + dataSize)
    func u32(_ value: Int) { withUnsafeBytes(of: UInt32(truncatingIfNeeded: value).littleEndian) { bytes += $0 } }
    func u16(_ value: Int) { withUnsafeBytes(of: UInt16(truncatingIfNeeded: value).littleEndian) { bytes += $0 } }
    bytes += Array("RIFF".utf8)
    u32(36 + dataSize)
    bytes += Array("WAVEfmt ".utf8)
    u32(16)
    u16(1)  // PCM
    u16(channelCount)
    u32(sampleRate)
    u32(sampleRate * channelCount * 2)
    u16(channelCount * 2)
    u16(16)
    bytes += Array("data".utf8)
    u32(dataSize)
    for index in 0..<count {
      for channel in 0..<channelCount {
        let value = channel < channels.count && index < channels[channel].count ? channels[channel][index] : 0
        let clipped = min(max(value, -1), 1)
        u16(Int(Int16((clipped * 32767).rounded())))
      }
    }
    return bytes
  }

  /// Decodes a WAV file's bytes.
  public static func decode(_ bytes: [UInt8]) throws(ReadError) -> Audio {
    func u32(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16 | Int(bytes[at + 3]) << 24 }
    func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
    guard bytes.count >= 12, bytes[0..<4].elementsEqual("RIFF".utf8), bytes[8..<12].elementsEqual("WAVE".utf8)
    else { throw ReadError(message: "not a RIFF/WAVE file") }
    var offset = 12
    var format: (tag: Int, channels: Int, rate: Int, bits: Int)?
    var data: Range<Int>?
    while offset + 8 <= bytes.count {
      let size = u32(offset + 4)
      let body = offset + 8
      let end = min(body + size, bytes.count)
      if bytes[offset..<offset + 4].elementsEqual("fmt ".utf8) {
        guard size >= 16, body + 16 <= bytes.count else { throw ReadError(message: "the fmt chunk is truncated") }
        var tag = u16(body)
        if tag == 0xFFFE, size >= 40, body + 40 <= bytes.count { tag = u16(body + 24) }  // WAVE_FORMAT_EXTENSIBLE
        format = (tag, u16(body + 2), u32(body + 4), u16(body + 14))
      } else if bytes[offset..<offset + 4].elementsEqual("data".utf8) {
        data = body..<end
      }
      offset = body + size + (size & 1)
    }
    guard let format else { throw ReadError(message: "no fmt chunk") }
    guard let data else { throw ReadError(message: "no data chunk") }
    guard format.channels >= 1, format.rate >= 1 else { throw ReadError(message: "bad channel count or sample rate") }
    let bytesPerSample: Int
    switch (format.tag, format.bits) {
    case (1, 8), (1, 16), (1, 24), (1, 32), (3, 32), (3, 64): bytesPerSample = format.bits / 8
    default:
      throw ReadError(message: "unsupported encoding (format \(format.tag), \(format.bits) bits); use PCM or float")
    }
    let frameSize = bytesPerSample * format.channels
    let frames = data.count / frameSize
    var samples = [Float](repeating: 0, count: frames)
    for frame in 0..<frames {
      var sum: Float = 0
      for channel in 0..<format.channels {
        let at = data.lowerBound + frame * frameSize + channel * bytesPerSample
        sum += sample(bytes, at: at, tag: format.tag, bits: format.bits)
      }
      let value = sum / Float(format.channels)
      samples[frame] = value.isFinite ? min(max(value, -1), 1) : 0
    }
    return Audio(sampleRate: Double(format.rate), samples: samples)
  }

  private static func sample(_ bytes: [UInt8], at: Int, tag: Int, bits: Int) -> Float {
    var raw: UInt64 = 0
    for index in 0..<(bits / 8) { raw |= UInt64(bytes[at + index]) << (8 * UInt64(index)) }
    switch (tag, bits) {
    case (1, 8): return (Float(raw) - 128) / 128
    case (1, 16): return Float(Int16(truncatingIfNeeded: raw)) / 32768
    case (1, 24): return Float(Int32(truncatingIfNeeded: raw << 8) >> 8) / 8_388_608
    case (1, 32): return Float(Int32(truncatingIfNeeded: raw)) / 2_147_483_648
    case (3, 32): return Float(bitPattern: UInt32(truncatingIfNeeded: raw))
    default: return Float(Double(bitPattern: raw))
    }
  }
}
