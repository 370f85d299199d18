import Foundation
import HapticAHAP
import HapticCore

extension CHHapticPattern {
  /// A key of a pattern dictionary (Apple's `CHHapticPattern.Key`): AHAP's field names.
  public struct Key: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let version = Key(rawValue: "Version")
    public static let pattern = Key(rawValue: "Pattern")
    public static let event = Key(rawValue: "Event")
    public static let eventType = Key(rawValue: "EventType")
    public static let time = Key(rawValue: "Time")
    public static let eventDuration = Key(rawValue: "EventDuration")
    public static let eventWaveformPath = Key(rawValue: "EventWaveformPath")
    public static let eventParameters = Key(rawValue: "EventParameters")
    public static let eventWaveformUseVolumeEnvelope = Key(rawValue: "EventWaveformUseVolumeEnvelope")
    public static let eventWaveformLoopEnabled = Key(rawValue: "EventWaveformLoopEnabled")
    public static let parameter = Key(rawValue: "Parameter")
    public static let parameterID = Key(rawValue: "ParameterID")
    public static let parameterValue = Key(rawValue: "ParameterValue")
    public static let parameterCurve = Key(rawValue: "ParameterCurve")
    public static let parameterCurveControlPoints = Key(rawValue: "ParameterCurveControlPoints")
  }

  /// A pattern from a dictionary in AHAP's shape (keys ``Key`` or strings; values numbers,
  /// strings, `EventType`/`ParameterID`/`CHHapticDynamicParameter.ID` values, arrays and
  /// dictionaries), read with the AHAP reader's rules.
  ///
  /// - Throws: `invalidPatternDictionary` naming the entry that is wrong.
  public convenience init(dictionary: [Key: Any]) throws(CHHapticError) {
    let json: Any
    // Waveforms given in code are files anywhere (a URL, an absolute path), unlike an AHAP
    // file's, which must lie beside it: they stand in the text as placeholders and are put
    // back after reading.
    var waveforms: [String] = []
    do {
      json = try Self.json(dictionary, path: "", waveforms: &waveforms)
    } catch let error as CHHapticError {
      throw error
    } catch {
      throw CHHapticError(.invalidPatternDictionary, "\(error)")
    }
    guard JSONSerialization.isValidJSONObject(json),
      let data = try? JSONSerialization.data(withJSONObject: json)
    else {
      throw CHHapticError(.invalidPatternDictionary, "the dictionary holds values that are not numbers, strings, arrays or dictionaries")
    }
    let document: AHAPDocument
    do {
      document = try AHAPReader().read([UInt8](data), file: "pattern dictionary")
    } catch {
      throw CHHapticError(.invalidPatternDictionary, error.description)
    }
    let read = document.pattern
    let events = read.events.map { event -> HapticEvent in
      var event = event
      if let path = event.waveformPath, path.hasPrefix(Self.waveformPlaceholder),
        let index = Int(path.dropFirst(Self.waveformPlaceholder.count)), waveforms.indices.contains(index)
      {
        event.waveformPath = waveforms[index]
      }
      return event
    }
    try self.init(
      checked: HapticPattern(
        version: read.version, metadata: read.metadata, events: events, parameters: read.parameters, curves: read.curves))
  }

  /// The stand-in for the `n`th waveform of a dictionary: `placeholder + n`.
  private static let waveformPlaceholder = "hapticctl-waveform-"

  /// The pattern as a dictionary in AHAP's shape (keys ``Key``; nested dictionaries too),
  /// as the AHAP writer writes it.
  ///
  /// - Throws: `operationNotPermitted` when an event plays a registered audio resource (Apple's
  ///   rule: the resource exists only in this process).
  public func exportDictionary() throws(CHHapticError) -> [Key: Any] {
    if usesAudioResources {
      throw CHHapticError(.operationNotPermitted, "the pattern plays a registered audio resource; it cannot be exported")
    }
    let data = Data(AHAPWriter().bytes(model))
    guard let object = try? JSONSerialization.jsonObject(with: data), let root = object as? [String: Any] else {
      throw CHHapticError(.operationNotPermitted, "the pattern could not be exported")
    }
    return Self.keyed(root)
  }

  /// `value` with every key and typed value turned into JSON's (the path names the entry).
  private static func json(_ value: Any, path: String, waveforms: inout [String]) throws -> Any {
    switch value {
    case let dictionary as [Key: Any]:
      var plain: [String: Any] = [:]
      for (key, item) in dictionary { plain[key.rawValue] = item }
      return try json(plain, path: path, waveforms: &waveforms)
    case let dictionary as [String: Any]:
      var result: [String: Any] = [:]
      for (key, item) in dictionary {
        if key == Key.eventWaveformPath.rawValue, let file = (item as? URL)?.path ?? (item as? String), file.hasPrefix("/") {
          result[key] = waveformPlaceholder + String(waveforms.count)
          waveforms.append(file)
        } else {
          result[key] = try json(item, path: path + "/" + key, waveforms: &waveforms)
        }
      }
      return result
    case let array as [Any]:
      var result: [Any] = []
      for (index, item) in array.enumerated() { result.append(try json(item, path: path + "[\(index)]", waveforms: &waveforms)) }
      return result
    case let type as CHHapticEvent.EventType: return type.rawValue
    case let id as CHHapticEvent.ParameterID: return id.rawValue
    case let id as CHHapticDynamicParameter.ID: return id.rawValue
    case let key as Key: return key.rawValue
    case let url as URL: return url.path
    case let number as Float:
      guard number.isFinite else { throw CHHapticError(.invalidPatternDictionary, "\(path): \(number) is not a finite number") }
      return Double(number)
    case let number as Double:
      guard number.isFinite else { throw CHHapticError(.invalidPatternDictionary, "\(path): \(number) is not a finite number") }
      return number
    case is Int, is Bool, is String, is NSNumber, is NSNull: return value
    default:
      throw CHHapticError(.invalidPatternDictionary, "\(path): a \(type(of: value)) is not a pattern value")
    }
  }

  /// JSON's dictionaries keyed by ``Key`` all the way down.
  private static func keyed(_ dictionary: [String: Any]) -> [Key: Any] {
    var result: [Key: Any] = [:]
    for (key, value) in dictionary { result[Key(rawValue: key)] = keyedValue(value) }
    return result
  }

  private static func keyedValue(_ value: Any) -> Any {
    if let dictionary = value as? [String: Any] { return keyed(dictionary) }
    if let array = value as? [Any] { return array.map(keyedValue) }
    return value
  }
}
