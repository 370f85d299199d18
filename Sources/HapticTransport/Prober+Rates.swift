public import HapticWire

extension Prober {
  /// Seconds the probe waits at one rate before it tries the next, when there are several. A
  /// running board answers within milliseconds; one still booting after an auto-reset (about
  /// half a second on an Uno) is tried at each rate again until the timeout.
  public static let rateSlice = 0.2

  /// What a probe over several rates found.
  public struct RateProbe: Sendable {
    /// The probe's result; ``ProbeResult/baud`` is the rate for the link's timers.
    public var result: ProbeResult
    /// The link the answer came through, at the rate it came at: a ``BoardConnection`` can
    /// continue its session (`BoardConnection(continuing:)`).
    public var link: ReliableLink
  }

  /// Probes the board on `transport`, trying `rates.candidates` in turn (the line set to each;
  /// a fresh session at each) until one carries an answer or `timeout` (a time on `now`'s
  /// clock) passes. One candidate: one probe at it, until the timeout.
  ///
  /// A rate the port does not have (``TransportError/Code/unsupportedBaud`` from
  /// ``ByteTransport/setBaud(_:)``: a USB adapter without 500 000) is left out of the turns.
  ///
  /// - Throws: ``TransportError`` when the port fails; a board that does not answer is a result
  ///   with `supportsHaptics == false`.
  public func probe(_ transport: any ByteTransport, rates: LineRates, now: @escaping () -> Double)
    throws(TransportError) -> RateProbe
  {
    var candidates = rates.candidates
    var lineBaud = candidates[0]  // the caller opened the port at it
    var index = 0
    while true {
      let count = candidates.count
      let baud = candidates[index % count]
      if baud != lineBaud {
        do {
          try transport.setBaud(baud)
          lineBaud = baud
        } catch where error.code == .unsupportedBaud {
          candidates.remove(at: index % count)
          continue
        }
      }
      var link = ReliableLink.host(
        configuration: ReliableLink.Configuration(bytePeriod: ReliableLink.Configuration.bytePeriod(baud: baud)))
      var attempt = self
      let last = count == 1 || now() + Self.rateSlice >= timeout
      if !last { attempt.timeout = now() + Self.rateSlice }
      var result = try attempt.probe(transport, link: &link, now: now)
      let answered = result.capabilities != nil || result.protocolVersion != nil
      if answered || last {
        if let capabilities = result.capabilities {
          let timing = rates.timingRate(answeredAt: baud, boardID: capabilities.boardID, acceptsAnyRate: transport.acceptsAnyRate)
          result.baud = timing
          if timing != baud {
            link.setBytePeriod(ReliableLink.Configuration.bytePeriod(baud: timing))
          }
        } else if !answered && count > 1 {
          result.reason =
            "no answer within \(Self.seconds(timeout)) s at \(LineRates.phrase(candidates)) (is the board running hapticctl firmware?)"
        }
        return RateProbe(result: result, link: link)
      }
      index += 1
    }
  }
}
