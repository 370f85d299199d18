import Foundation
import HapticLocks
import HapticAudio

/// An audio resource registered with ``CHHapticEngine/registerAudioResource(_:options:)``.
public typealias CHHapticAudioResourceID = Int

/// Keys of `registerAudioResource`'s options (Apple's `CHHapticAudioResourceKey`).
public struct CHHapticAudioResourceKey: RawRepresentable, Hashable, Sendable {
  public let rawValue: String
  public init(rawValue: String) { self.rawValue = rawValue }
  /// Whether the event's volume envelope shapes the clip (default true).
  public static let useVolumeEnvelope = CHHapticAudioResourceKey(rawValue: "UseVolumeEnvelope")
  /// Whether the clip loops over the event's duration (default false).
  public static let loopEnabled = CHHapticAudioResourceKey(rawValue: "LoopEnabled")
}

/// The process's registered audio resources (Apple's IDs are per process too): the file and
/// its options.
final class AudioResources: Sendable {
  struct Resource: Sendable {
    let path: String
    let useVolumeEnvelope: Bool
    let loopEnabled: Bool
  }

  static let shared = AudioResources()
  /// The resources by id, and the next id to give.
  private let registry = Locked((resources: [CHHapticAudioResourceID: Resource](), next: 1))

  /// Registers the file at `url` after reading it once (so a bad file fails here).
  func register(_ url: URL, options: [AnyHashable: Any]) throws(CHHapticError) -> CHHapticAudioResourceID {
    guard url.isFileURL else { throw CHHapticError(.invalidAudioResource, "\(url): not a file URL") }
    guard FileManager.default.fileExists(atPath: url.path) else {
      throw CHHapticError(.fileNotFound, "\(url.path): no such file")
    }
    do {
      _ = try AudioFile.read(url.path)
    } catch {
      throw CHHapticError(.invalidAudioResource, error.description)
    }
    func flag(_ key: CHHapticAudioResourceKey, _ fallback: Bool) -> Bool {
      (options[key] ?? options[key.rawValue]).flatMap { $0 as? Bool } ?? fallback
    }
    let resource = Resource(
      path: url.standardizedFileURL.path, useVolumeEnvelope: flag(.useVolumeEnvelope, true), loopEnabled: flag(.loopEnabled, false))
    return registry.withLock { registry in
      defer { registry.next += 1 }
      registry.resources[registry.next] = resource
      return registry.next
    }
  }

  /// Forgets `id`.
  func unregister(_ id: CHHapticAudioResourceID) throws(CHHapticError) {
    let removed = registry.withLock { $0.resources.removeValue(forKey: id) }
    guard removed != nil else { throw CHHapticError(.invalidAudioResource, "no audio resource \(id) is registered") }
  }

  /// The resource `id`.
  func resource(_ id: CHHapticAudioResourceID) throws(CHHapticError) -> Resource {
    guard let resource = registry.withLock({ $0.resources[id] }) else {
      throw CHHapticError(.invalidAudioResource, "no audio resource \(id) is registered")
    }
    return resource
  }
}
