// swift-tools-version:6.1
import PackageDescription

// libFuzzer targets for hapticctl's parsers (issue 14). A nested package, so the root package's
// `swift build` and `swift test` never build them: they only link with `--sanitize=fuzzer`
// (libFuzzer supplies `main`). Build and run them with `Scripts/fuzz.sh TARGET [SECONDS]`.

/// One fuzz target: `Sources/<name>/<name>.swift` defining `LLVMFuzzerTestOneInput`.
func fuzzTarget(_ name: String, _ products: [String]) -> Target {
  .executableTarget(
    name: name,
    dependencies: products.map { .product(name: $0, package: "hapticctl") },
    // No top-level code: libFuzzer's `main` drives the target.
    swiftSettings: [.unsafeFlags(["-parse-as-library"])])
}

let package = Package(
  name: "hapticctl-fuzz",
  dependencies: [.package(name: "hapticctl", path: "../..")],
  targets: [
    fuzzTarget("FuzzAHAP", ["HapticCore", "HapticAHAP", "HapticRenderer"]),
    fuzzTarget("FuzzWire", ["HapticCore", "HapticRenderer", "HapticWire", "HapticSimulator"]),
    fuzzTarget("FuzzBoardFile", ["HapticCore", "HapticRenderer", "HapticBoards"]),
    fuzzTarget("FuzzHaptic", ["HapticCore", "HapticAHAP", "HapticClip", "HapticRenderer"]),
  ],
  swiftLanguageModes: [.v6]
)
