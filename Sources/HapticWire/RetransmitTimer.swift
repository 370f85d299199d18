/// Retransmission timeout estimation in the style of RFC 6298 (as Klipper's serial queue does).
///
/// First sample: SRTT = R, RTTVAR = R/2. Later: RTTVAR = ¾·RTTVAR + ¼·|SRTT − R|,
/// SRTT = ⅞·SRTT + ⅛·R. RTO = SRTT + max(4·RTTVAR, granularity), clamped to
/// [minimum, maximum]. Each timeout doubles the RTO (exponential backoff); the backed-off RTO
/// stays until a fresh sample (RFC 6298 §5.7: acknowledgements of resent frames give none).
public struct RetransmitTimer: Sendable, Hashable {
  /// Lower bound of the RTO in seconds.
  public let minimum: Double
  /// Upper bound of the RTO in seconds.
  public let maximum: Double
  /// Clock granularity term in seconds.
  public let granularity: Double
  /// Smoothed round-trip time, once sampled.
  public private(set) var smoothedRTT: Double?
  /// Round-trip variation.
  public private(set) var rttVariation = 0.0
  /// The current timeout in seconds.
  public private(set) var timeout: Double
  /// The timeout before any sample, seconds.
  public let initial: Double

  /// Creates a timer with an initial timeout.
  public init(initial: Double = 0.025, minimum: Double = 0.025, maximum: Double = 2.0, granularity: Double = 0.001) {
    self.minimum = minimum
    self.maximum = maximum
    self.granularity = granularity
    self.initial = initial
    timeout = min(max(initial, minimum), maximum)
  }

  /// Records a round-trip sample (only from frames that were not retransmitted: Karn's rule).
  public mutating func sample(_ rtt: Double) {
    guard rtt.isFinite, rtt >= 0 else { return }
    if let srtt = smoothedRTT {
      rttVariation = 0.75 * rttVariation + 0.25 * abs(srtt - rtt)
      smoothedRTT = 0.875 * srtt + 0.125 * rtt
    } else {
      smoothedRTT = rtt
      rttVariation = rtt / 2
    }
    timeout = estimate(smoothedRTT ?? rtt)
  }

  /// SRTT + max(4·RTTVAR, G), clamped: the RTO a sample sets.
  private func estimate(_ srtt: Double) -> Double {
    min(max(srtt + max(4 * rttVariation, granularity), minimum), maximum)
  }

  /// Returns the timeout to the estimate, or to the initial value before any sample: only when
  /// the peer starts a session (first contact, a restart), never on mere progress (§4.3).
  public mutating func resetBackoff() {
    timeout = smoothedRTT.map(estimate) ?? min(max(initial, minimum), maximum)
  }

  /// Doubles the timeout after a retransmission timeout.
  public mutating func backOff() {
    timeout = min(timeout * 2, maximum)
  }
}
