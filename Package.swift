// swift-tools-version:6.1
import PackageDescription

/// Settings every Swift target shares: Swift 6 mode comes from `swiftLanguageModes`;
/// these upcoming features keep the code explicit about existentials and imports.
let strictSettings: [SwiftSetting] = [
  .enableUpcomingFeature("ExistentialAny"),
  .enableUpcomingFeature("MemberImportVisibility"),
  .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
  name: "hapticctl",
  products: [
    .library(name: "HapticCore", targets: ["HapticCore"]),
    .library(name: "HapticAHAP", targets: ["HapticAHAP"]),
    .library(name: "HapticClip", targets: ["HapticClip"]),
    .library(name: "HapticRenderer", targets: ["HapticRenderer"]),
    .library(name: "HapticWire", targets: ["HapticWire"]),
    .library(name: "HapticTransport", targets: ["HapticTransport"]),
    .library(name: "HapticSimulator", targets: ["HapticSimulator"]),
    .library(name: "HapticEngine", targets: ["HapticEngine"]),
    .library(name: "HapticEngineSimulator", targets: ["HapticEngineSimulator"]),
    .library(name: "HapticBoards", targets: ["HapticBoards"]),
    .library(name: "HapticAudio", targets: ["HapticAudio"]),
    .library(name: "CoreHapticsCompat", targets: ["CoreHapticsCompat"]),
    .library(name: "HapticServerClient", targets: ["HapticServerClient"]),
    .library(name: "HapticServer", targets: ["HapticServer"]),
    .library(name: "HapticRig", targets: ["HapticRig"]),
    .executable(name: "hapticctl", targets: ["hapticctl"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
    .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
    // `swift package generate-documentation`: the DocC catalogs of the public libraries.
    .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    // `hapticctl serve`: the board server's HTTP and WebSocket API (issue 28).
    .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
    .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
    .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
    .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    // The server's WebSocket messages run on their connection's event loop (EventLoopExecutor).
    .package(url: "https://github.com/apple/swift-nio", from: "2.101.3"),
  ],
  targets: [
    // Layer 1: the Core Haptics pattern model (no I/O, no Foundation).
    .target(name: "HapticCore"),
    // Layer 1b: the AHAP codec (lenient JSON reader, deterministic writer).
    .target(
      name: "HapticAHAP",
      dependencies: ["HapticCore", .product(name: "SystemPackage", package: "swift-system")]),
    // Layer 2: the renderer (pattern → timed drive frames and compact ramp segments).
    // Meta Haptics Studio / Lofelt `.haptic` clips, on the AHAP reader's JSON parser and
    // diagnostics, mapped onto the same pattern model.
    .target(name: "HapticClip", dependencies: ["HapticCore", "HapticAHAP"]),
    .target(name: "HapticRenderer", dependencies: ["HapticCore", "HapticLocks"]),
    // Layer 3: the wire protocol (framing, messages, reliable link, clock sync).
    .target(name: "HapticWire", dependencies: ["HapticCore", "HapticRenderer"]),
    // libserialport (Debian libserialport-dev) and small POSIX helpers Swift cannot reach.
    .systemLibrary(
      name: "CLibSerialPort", pkgConfig: "libserialport", providers: [.apt(["libserialport-dev"])]),
    .target(name: "CHapticPosix"),
    // libsndfile (Debian libsndfile1-dev): WAV, CAF and other audio files for audio events.
    .systemLibrary(name: "CSndFile", pkgConfig: "sndfile", providers: [.apt(["libsndfile1-dev"])]),
    // Audio files (through libsndfile) as mono clips for the audio renderer and players.
    // ALSA (Debian libasound2-dev): the default audio output of the engine's audio events.
    .systemLibrary(name: "CALSA", pkgConfig: "alsa", providers: [.apt(["libasound2-dev"])]),
    .target(name: "HapticAudio", dependencies: ["HapticCore", "CSndFile", "CALSA"]),
    // A value behind a pthread mutex (the state threads share, one struct per owner).
    .target(name: "HapticLocks"),
    // Layer 4: byte transports (serial ports, ptys, in-memory, fault injection) and the probe.
    .target(
      name: "HapticTransport",
      dependencies: [
        "HapticWire", "HapticLocks", "CLibSerialPort", "CHapticPosix",
        .product(name: "SystemPackage", package: "swift-system"),
      ]),
    // Layer 4b: the board simulator (protocol board side, actuator physics, real-time server).
    .target(
      name: "HapticSimulator", dependencies: ["HapticCore", "HapticRenderer", "HapticWire", "HapticTransport"]),
    // Board plugins: board files, driver families, the built-in catalogue.
    .target(name: "HapticBoards", dependencies: ["HapticCore", "HapticRenderer", "HapticAHAP"]),
    // Layer 5: the engine and players (Core Haptics' API over a board), streaming scheduler.
    .target(
      name: "HapticEngine",
      dependencies: [
        "HapticCore", "HapticAHAP", "HapticRenderer", "HapticWire", "HapticTransport", "HapticAudio", "HapticLocks",
      ]),
    // The engine on the in-process simulated board (`send --sim`, tests): a `BoardLink` like
    // any other, apart from the engine as NIO keeps NIOEmbedded apart from NIOCore.
    .target(
      name: "HapticEngineSimulator",
      dependencies: [
        "HapticCore", "HapticRenderer", "HapticWire", "HapticTransport", "HapticSimulator", "HapticEngine", "HapticLocks",
      ]),
    // Rigs (issue 30): many boards, one engine each, on one host timeline; actuators by name.
    .target(
      name: "HapticRig",
      dependencies: [
        "HapticCore", "HapticAHAP", "HapticRenderer", "HapticWire", "HapticEngine", "HapticTransport", "HapticLocks",
      ]),
    // Core Haptics' names and signatures over the engine: code written for Apple's Core Haptics
    // runs with `import CoreHapticsCompat` instead of `import CoreHaptics`.
    .target(
      name: "CoreHapticsCompat",
      dependencies: [
        "HapticCore", "HapticAHAP", "HapticRenderer", "HapticEngine", "HapticEngineSimulator", "HapticBoards", "HapticAudio",
        "HapticLocks", "HapticTransport",
      ]),
    // Layer 6: the resident board server (`hapticctl serve`): boards kept open, one engine each,
    // an HTTP/WebSocket API over them.
    .target(
      name: "HapticServer",
      dependencies: [
        "HapticCore", "HapticAHAP", "HapticClip", "HapticRenderer", "HapticWire", "HapticEngine", "HapticSimulator",
        "HapticEngineSimulator", "HapticBoards", "HapticLocks",
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
        .product(name: "NIOCore", package: "swift-nio"),
      ],
      // The studio's web page (issue 29), copied beside the executable.
      resources: [.copy("Studio")]),
    // A client of a running server (`send --server`, apps): HTTP for the boards, the WebSocket for
    // players.
    .target(
      name: "HapticServerClient",
      dependencies: [
        "HapticServer", "HapticCore", "HapticLocks",
        .product(name: "AsyncHTTPClient", package: "async-http-client"),
        .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
        .product(name: "NIOWebSocket", package: "swift-nio"),
        .product(name: "Logging", package: "swift-log"),
      ]),
    // The command-line front end: one file per subcommand, thin over the libraries.
    .target(
      name: "HapticCLI",
      dependencies: [
        "HapticCore", "HapticAHAP", "HapticClip", "HapticRenderer", "HapticWire", "HapticTransport", "HapticSimulator",
        "HapticEngine", "HapticEngineSimulator", "HapticBoards", "HapticAudio", "HapticLocks", "HapticServer",
        "HapticServerClient", "HapticRig",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "Logging", package: "swift-log"),
      ]),
    // Shared test helpers (random pattern generator); used by test targets only.
    .target(name: "HapticTestSupport", dependencies: ["HapticCore", "HapticWire", "HapticTransport", "HapticAudio"]),
    .executableTarget(
      name: "hapticctl",
      dependencies: ["HapticCLI", .product(name: "ArgumentParser", package: "swift-argument-parser")]),

    .testTarget(
      name: "HapticCoreTests",
      dependencies: [
        "HapticCore",
        .product(name: "PropertyBased", package: "swift-property-based"),
      ]),
    .testTarget(
      name: "HapticClipTests",
      dependencies: ["HapticCore", "HapticAHAP", "HapticClip", "HapticRenderer"]),
    .testTarget(
      name: "HapticAHAPTests",
      dependencies: [
        "HapticCore", "HapticAHAP", "HapticTestSupport",
        .product(name: "PropertyBased", package: "swift-property-based"),
      ],
      exclude: ["Fixtures"]),
    .testTarget(
      name: "HapticRendererTests",
      dependencies: [
        "HapticCore", "HapticAHAP", "HapticRenderer", "HapticWire", "HapticTestSupport",
        .product(name: "PropertyBased", package: "swift-property-based"),
      ]),
    .testTarget(
      name: "HapticWireTests",
      dependencies: [
        "HapticCore", "HapticWire", "HapticRenderer", "HapticTestSupport",
        .product(name: "PropertyBased", package: "swift-property-based"),
      ]),
    .testTarget(
      name: "HapticTransportTests",
      dependencies: [
        "HapticTransport", "HapticWire", "HapticTestSupport", "HapticLocks",
        .product(name: "PropertyBased", package: "swift-property-based"),
      ]),
    .testTarget(
      name: "HapticSimulatorTests",
      dependencies: [
        "HapticSimulator", "HapticRenderer", "HapticWire", "HapticTransport", "HapticCore", "HapticAHAP",
        "HapticClip", "HapticTestSupport", "HapticLocks",
      ]),
    .testTarget(
      name: "HapticEngineTests",
      dependencies: [
        "HapticEngine", "HapticEngineSimulator", "HapticSimulator", "HapticRenderer", "HapticWire", "HapticCore",
        "HapticTestSupport", "HapticAudio", "HapticTransport", "HapticLocks", .product(name: "PropertyBased", package: "swift-property-based"),
      ]),
    .testTarget(
      name: "HapticRigTests",
      dependencies: ["HapticRig", "HapticEngine", "HapticEngineSimulator", "HapticRenderer", "HapticCore", "HapticTransport", "HapticLocks"]),
    .testTarget(name: "HapticBoardsTests", dependencies: ["HapticBoards", "HapticRenderer", "HapticCore", "HapticTransport"]),
    .testTarget(name: "HapticAudioTests", dependencies: ["HapticAudio"]),
    .testTarget(
      name: "CoreHapticsCompatTests",
      dependencies: [
        "CoreHapticsCompat", "HapticEngine", "HapticEngineSimulator", "HapticSimulator", "HapticRenderer",
        "HapticCore", "HapticAudio", "HapticTestSupport", "HapticAHAP",
      ]),
    .testTarget(
      name: "HapticCLITests",
      dependencies: [
        "hapticctl", "HapticCLI", "HapticTestSupport", "HapticTransport", "HapticWire", "HapticAudio", "HapticEngine",
        "HapticCore", "HapticLocks",
        .product(name: "HummingbirdTesting", package: "hummingbird"),
      ]),
    .testTarget(
      name: "HapticServerTests",
      dependencies: [
        "HapticServer", "HapticEngine", "HapticEngineSimulator", "HapticSimulator", "HapticRenderer", "HapticCore",
        "HapticLocks", "HapticTransport", "HapticWire",
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "HummingbirdTesting", package: "hummingbird"),
        .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
        .product(name: "NIOWebSocket", package: "swift-nio"),
      ]),
  ],
  swiftLanguageModes: [.v6]
)

// CoreHapticsCompatTests compiles tutorial code as its users write it: Swift 6 mode, without
// the upcoming features the project's own code opts into (`any` on existentials, explicit
// imports), which Apple-platform code written against Core Haptics does not use.
for target in package.targets
where target.type != .system && target.type != .binary && target.name != "CHapticPosix"
  && target.name != "CoreHapticsCompatTests"
{
  target.swiftSettings = (target.swiftSettings ?? []) + strictSettings
}
