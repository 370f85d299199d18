// swift-tools-version:6.1
import PackageDescription

// libFuzzer targets for hapticctl's parsers (issue 14). A nested package, so the root package's
// `swift build` and `swift test` never build them: they only link with `--sanitize=fuzzer`
// (libFuzzer supplies `main`). Build and run them with `Scripts/fuzz.sh TARGET [SECONDS]`.

/// One fuzz target: `Sources/<name>/<name>.swift` defining `LLVMFuzzerTestOneInput`.
func fuzzTarget(_ name: String, _ products: [String], support: Bool = false) -> Target {
  .executableTarget(
    name: name,
    dependencies: products.map { .product(name: $0, package: "hapticctl") } + (support ? ["FuzzSupport"] : []),
    // No top-level code: libFuzzer's `main` drives the target.
    swiftSettings: [.unsafeFlags(["-parse-as-library"])])
}

let package = Package(
  name: "hapticctl-fuzz",
  dependencies: [.package(name: "hapticctl", path: "../..")],
  targets: [
    // Checks the pattern targets share: short renders, conversion to .haptic and Android.
    .target(
      name: "FuzzSupport",
      dependencies: ["HapticCore", "HapticAHAP", "HapticClip", "HapticRenderer"].map { .product(name: $0, package: "hapticctl") }),
    fuzzTarget("FuzzAHAP", ["HapticCore", "HapticAHAP", "HapticRenderer"], support: true),
    fuzzTarget("FuzzWire", ["HapticCore", "HapticRenderer", "HapticWire", "HapticSimulator"]),
    fuzzTarget("FuzzBoardFile", ["HapticCore", "HapticRenderer", "HapticBoards"]),
    fuzzTarget("FuzzHaptic", ["HapticCore", "HapticAHAP", "HapticClip", "HapticRenderer"], support: true),
  ],
  swiftLanguageModes: [.v6]
)
