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
      ]),
  ],
  swiftLanguageModes: [.v6]
)
