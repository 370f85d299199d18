// swift-tools-version:6.1
import PackageDescription

/// One benchmark executable at `Benchmarks/<name>/`, where the benchmark plugin looks for it.
func benchmarkTarget(_ name: String, dependencies: [Target.Dependency]) -> Target {
  .executableTarget(
    name: name,
    dependencies: dependencies + ["BenchmarkCorpus", .product(name: "Benchmark", package: "benchmark")],
    path: "Benchmarks/\(name)",
    plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")])
}

/// The benchmark suites. To add one: create `Benchmarks/<Name>/<Name>.swift` and one line here.
let suites: [Target] = [
  benchmarkTarget(
    "AHAPBenchmarks",
    dependencies: [
      .product(name: "HapticCore", package: "hapticctl"),
      .product(name: "HapticAHAP", package: "hapticctl"),
    ]),
  benchmarkTarget(
    "ClipBenchmarks",
    dependencies: [
      .product(name: "HapticCore", package: "hapticctl"),
      .product(name: "HapticAHAP", package: "hapticctl"),
      .product(name: "HapticClip", package: "hapticctl"),
    ]),
  benchmarkTarget(
    "RendererBenchmarks",
    dependencies: [
      .product(name: "HapticCore", package: "hapticctl"),
      .product(name: "HapticAHAP", package: "hapticctl"),
      .product(name: "HapticRenderer", package: "hapticctl"),
      .product(name: "HapticWire", package: "hapticctl"),
    ]),
  benchmarkTarget(
    "WireBenchmarks",
    dependencies: [
      .product(name: "HapticCore", package: "hapticctl"),
      .product(name: "HapticWire", package: "hapticctl"),
    ]),
  benchmarkTarget(
    "SimulatorBenchmarks",
    dependencies: [
      "BenchmarkWorkloads",
      .product(name: "HapticCore", package: "hapticctl"),
      .product(name: "HapticRenderer", package: "hapticctl"),
      .product(name: "HapticWire", package: "hapticctl"),
      .product(name: "HapticSimulator", package: "hapticctl"),
    ]),
]

/// The benchmark suite, kept in its own package so that the root package and `swift test` never
/// resolve or build the benchmark stack. Run from this folder (see README.md):
/// `swift package benchmark --target AHAPBenchmarks`.
let package = Package(
  name: "benchmarks",
  dependencies: [
    // Named explicitly: a path dependency is otherwise known by its folder name, not "hapticctl".
    .package(name: "hapticctl", path: "../.."),
    // `MallocInterposer` alone: the default `RuntimeInterposer` trait pulls a package that
    // cannot be resolved on the project's machines.
    .package(
      url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    // The board server's measurements (issue 28): its HTTP and WebSocket clients.
    .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
    .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
    .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
    .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
  ],
  targets: suites + [
    // Locating and loading the AHAP corpus, shared by the suites.
    .target(name: "BenchmarkCorpus"),
    // Synthetic patterns shared by SimulatorBenchmarks and EngineMeasurements.
    .target(name: "BenchmarkWorkloads", dependencies: [.product(name: "HapticCore", package: "hapticctl")]),
    // Engine latency, onset, CPU and cold-start measurements (issue 6): a measurement tool, not
    // a benchmark suite (real-time runs with percentiles). `swift run -c release EngineMeasurements`.
    .executableTarget(
      name: "EngineMeasurements",
      dependencies: [
        "BenchmarkWorkloads",
        .product(name: "HapticCore", package: "hapticctl"),
        .product(name: "HapticRenderer", package: "hapticctl"),
        .product(name: "HapticWire", package: "hapticctl"),
        .product(name: "HapticTransport", package: "hapticctl"),
        .product(name: "HapticSimulator", package: "hapticctl"),
        .product(name: "HapticEngine", package: "hapticctl"),
        .product(name: "HapticEngineSimulator", package: "hapticctl"),
        .product(name: "HapticServer", package: "hapticctl"),
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
        .product(name: "AsyncHTTPClient", package: "async-http-client"),
        .product(name: "Logging", package: "swift-log"),
      ]),
  ],
  swiftLanguageModes: [.v6]
)
