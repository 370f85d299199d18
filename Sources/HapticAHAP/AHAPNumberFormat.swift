/// Locale-independent number formatting for AHAP output.
///
/// Swift's `Double.description` is the shortest text that reads back to the same bit pattern and
/// never uses a decimal comma, whatever the process locale (apple/unityplugins#103 is the bug it
/// avoids). Integral values within ±2^53 are written without a fraction ("1", "30").
package enum AHAPNumberFormat {
  /// The JSON text for a finite `value`.
  package static func string(_ value: Double) -> String {
    if value == value.rounded(), abs(value) < 9_007_199_254_740_992 {
      if value == 0 { return value.sign == .minus ? "-0.0" : "0" }
      return String(Int64(value))
    }
    return value.description
  }
}
