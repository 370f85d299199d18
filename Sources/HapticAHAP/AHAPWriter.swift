public import HapticCore

/// Writes patterns as AHAP, deterministically.
///
/// Output is pretty-printed JSON in Apple's style: top-level keys in the order `Version`,
/// `Metadata`, `Pattern`; entries merged by time (events, then parameters, then curves at equal
/// times); keys within an entry in a fixed order; numbers in the shortest form that reads back
/// bit-identical, independent of the process locale. Reading the output gives an equal pattern.
public struct AHAPWriter: Sendable {
  /// Spaces per indentation level (default 2).
  public var indent: Int

  /// Creates a writer.
  public init(indent: Int = 2) {
    self.indent = indent
  }

  /// The AHAP text of `pattern`, ending with a newline.
  public func string(_ pattern: HapticPattern) -> String {
    String(decoding: bytes(pattern), as: UTF8.self)
  }

  /// The AHAP bytes (UTF-8) of `pattern`, ending with a newline.
  public func bytes(_ pattern: HapticPattern) -> [UInt8] {
    var out = JSONTextBuilder(indentWidth: indent)
    out.openObject()
    out.key("Version")
    out.number(pattern.version)
    if !pattern.metadata.isEmpty {
      out.key("Metadata")
      out.openObject()
      for entry in pattern.metadata {
        out.key(entry.key)
        out.string(entry.value)
      }
      out.closeObject()
    }
    out.key("Pattern")
    out.openArray()
    for entry in mergedEntries(pattern) {
      out.openObject()
      switch entry {
      case .event(let event): write(event, to: &out)
      case .parameter(let parameter): write(parameter, to: &out)
      case .curve(let curve): write(curve, to: &out)
      }
      out.closeObject()
    }
    out.closeArray()
    out.closeObject()
    return out.finish()
  }

  private enum Entry {
    case event(HapticEvent)
    case parameter(DynamicParameter)
    case curve(ParameterCurve)
  }

  /// Entries of all kinds in time order; each kind keeps its own order.
  private func mergedEntries(_ pattern: HapticPattern) -> [Entry] {
    var result: [Entry] = []
    result.reserveCapacity(pattern.events.count + pattern.parameters.count + pattern.curves.count)
    var e = 0
    var p = 0
    var c = 0
    let events = pattern.events
    let parameters = pattern.parameters
    let curves = pattern.curves
    while e < events.count || p < parameters.count || c < curves.count {
      let te = e < events.count ? events[e].time : .infinity
      let tp = p < parameters.count ? parameters[p].time : .infinity
      let tc = c < curves.count ? curves[c].time : .infinity
      if te <= tp && te <= tc {
        result.append(.event(events[e]))
        e += 1
      } else if tp <= tc {
        result.append(.parameter(parameters[p]))
        p += 1
      } else {
        result.append(.curve(curves[c]))
        c += 1
      }
    }
    return result
  }

  private func write(_ event: HapticEvent, to out: inout JSONTextBuilder) {
    out.key("Event")
    out.openObject()
    out.key("Time")
    out.number(event.time)
    out.key("EventType")
    out.string(event.type.rawValue)
    if let duration = event.duration {
      out.key("EventDuration")
      out.number(duration)
    }
    if let path = event.waveformPath {
      out.key("EventWaveformPath")
      out.string(path)
    }
    if let flag = event.waveformUsesVolumeEnvelope {
      out.key("EventWaveformUseVolumeEnvelope")
      out.bool(flag)
    }
    if let flag = event.waveformLoopEnabled {
      out.key("EventWaveformLoopEnabled")
      out.bool(flag)
    }
    if !event.parameters.isEmpty {
      out.eventParameters(event.parameters.map { ($0.id.rawValue, $0.value) })
    }
    out.closeObject()
  }

  private func write(_ parameter: DynamicParameter, to out: inout JSONTextBuilder) {
    out.key("Parameter")
    out.openObject()
    out.key("ParameterID")
    out.string(parameter.id.rawValue)
    out.key("Time")
    out.number(parameter.time)
    out.key("ParameterValue")
    out.number(parameter.value)
    out.closeObject()
  }

  private func write(_ curve: ParameterCurve, to out: inout JSONTextBuilder) {
    out.parameterCurve(id: curve.id.rawValue, time: curve.time, points: curve.controlPoints.map { ($0.time, $0.value) })
  }
}
