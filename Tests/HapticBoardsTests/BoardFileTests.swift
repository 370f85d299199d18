import Foundation
import Testing

@testable import HapticBoards

/// Bad board files: every problem names its field.
@Suite struct BoardFileTests {
  private func problems(_ json: String) -> [String] {
    do {
      _ = try BoardDefinition.parse(Data(json.utf8), path: "test.json")
      return []
    } catch {
      return error.problems.map(\.description)
    }
  }

  private var good: String { BuiltInBoards.files.first { $0.name == "sim-erm.json" }!.json }

  @Test func theBuiltInsAreValid() {
    for (name, json) in BuiltInBoards.files { #expect(problems(json).isEmpty, "\(name)") }
  }

  @Test func syntaxAndShape() {
    #expect(problems("{ \"schema\": 1,").first?.hasPrefix("not valid JSON") == true)
    #expect(problems("[1, 2]") == ["a board file is one JSON object"])
    #expect(problems("") .first?.hasPrefix("not valid JSON") == true)
    // Found by fuzzing: Foundation's JSON5 decoder traps on a top-level number after
    // whitespace; the file is refused before Foundation sees it.
    for text in [" 4444.444444444444444444", " 1.5", "\n7", " \"text\"", " true", " null"] {
      #expect(problems(text) == ["a board file is one JSON object"], "\(text)")
    }
  }

  @Test func missingAndMistypedFieldsNameTheirPath() {
    #expect(problems(good.replacingOccurrences(of: "\"vendor\": \"hapticctl\",", with: "")) == ["vendor: missing"])
    #expect(problems(good.replacingOccurrences(of: "\"f0Hz\": 200", with: "\"f0Hz\": \"fast\"")) == ["channels[0].f0Hz: expected a number"])
    #expect(problems(good.replacingOccurrences(of: "\"bits\": 8", with: "\"bits\": null")).first?.hasPrefix("levels.bits: expected") == true)
  }

  /// One spelling across the project's JSON (issue 32 point 7): a board file may write its keys
  /// in snake_case, as `probe --json` and the reports do (`f0_hz`), or camelCase (`f0Hz`).
  @Test func snakeCaseKeysLoadAsTheirCamelCase() throws {
    let drv = BuiltInBoards.files.first { $0.name == "uno-hbridge.json" }!.json
    var snake = drv
    for (camel, underscored) in [
      ("f0Hz", "f0_hz"), ("framePeriodMs", "frame_period_ms"), ("ratedVoltage", "rated_voltage"),
      ("ratedAccelerationG", "rated_acceleration_g"), ("frequencyControlHz", "frequency_control_hz"),
      ("firmwareImage", "firmware_image"), ("overdriveVoltage", "overdrive_voltage"),
    ] {
      snake = snake.replacingOccurrences(of: "\"\(camel)\"", with: "\"\(underscored)\"")
    }
    #expect(snake != drv && snake.contains("\"f0_hz\""))
    let camelProfile = try BoardDefinition.parse(Data(drv.utf8), path: "camel.json").profile
    let snakeProfile = try BoardDefinition.parse(Data(snake.utf8), path: "snake.json").profile
    #expect(snakeProfile == camelProfile)
    // Both spellings of one key: which would win is not obvious.
    let both = good.replacingOccurrences(of: "\"f0Hz\": 200", with: "\"f0Hz\": 200, \"f0_hz\": 180")
    #expect(problems(both) == ["channels[0].f0_hz: f0Hz is given too (one spelling per key: f0Hz or f0_hz)"], "\(problems(both))")
  }

  @Test func unknownFieldsAreTypos() {
    let typo = good.replacingOccurrences(of: "\"riseMs\": 50", with: "\"riseMS\": 50, \"riseMs\": 50")
    #expect(problems(typo).first?.hasPrefix("channels[0].riseMS: unknown field") == true)
  }

  @Test func rulesAndDriverFamilies() {
    #expect(problems(good.replacingOccurrences(of: "\"schema\": 1", with: "\"schema\": 2")) == [
      "schema: version 2 is not supported (this hapticctl reads schema 1)"
    ])
    #expect(problems(good.replacingOccurrences(of: "\"signed\": true", with: "\"signed\": false")) == [
      "levels.signed: the simulator driver uses signed levels (reverse drive brakes)"
    ])
    let drv = BuiltInBoards.files.first { $0.name == "uno-drv2605l.json" }!.json
    #expect(problems(drv.replacingOccurrences(of: "\"bits\": 8, \"signed\": false", with: "\"bits\": 8, \"signed\": true")) == [
      "levels: DRV2605L real-time playback takes unsigned 8-bit levels"
    ])
    #expect(problems(drv.replacingOccurrences(of: "flash:w:{firmware}:i", with: "flash:w:x.hex:i")) == [
      "flash.arguments: must contain {firmware}"
    ])
    #expect(problems(drv.replacingOccurrences(of: "\"build/uno-drv2605l/hapticctl-emu-uno\"", with: "\"/usr/bin/emu\"")) == [
      "emulator.program: a file relative to the emulator's source folder, inside it"
    ])
    #expect(problems(drv.replacingOccurrences(of: "[\"firmware-core\"]", with: "[\"../core\", \"/src\"]")) == [
      "firmware.shared[0]: a folder relative to the board file's folder, inside it",
      "firmware.shared[1]: a folder relative to the board file's folder, inside it",
    ])
    let hbridge = BuiltInBoards.files.first { $0.name == "uno-hbridge.json" }!.json
    #expect(problems(hbridge).isEmpty)
    #expect(problems(hbridge.replacingOccurrences(of: "\"signed\": true", with: "\"signed\": false")) == [
      "levels.signed: an H-bridge brakes with reverse drive (anti-phase for an LRA): signed levels"
    ])
    #expect(problems(hbridge.replacingOccurrences(of: "\"driver\": \"pwm-hbridge\"", with: "\"driver\": \"pwm-hbridge-erm\"")) == [
      "channels[1].actuator: an H-bridge ERM driver drives ERMs only"
    ])
    #expect(problems(drv.replacingOccurrences(of: "\"firmwareImage\"", with: "\"image\"")).contains {
      $0.hasPrefix("emulator.image: unknown field")
    })
    let erm = good.replacingOccurrences(of: "\"driver\": \"simulator\"", with: "\"driver\": \"pwm-hbridge-erm\"")
    #expect(problems(erm).isEmpty)
    #expect(problems(good.replacingOccurrences(of: "\"riseMs\": 50,", with: "")) == [
      "channels[0].riseMs: an ERM needs riseMs and coastMs (time constants, 0–2000 ms)"
    ])
    // Found by the board-file fuzzer: an overdrive of 1e128 × rated validated, and its render
    // never came to rest (Scripts/fuzz/regressions/board-file/).
    #expect(problems(good.replacingOccurrences(of: "\"overdriveVoltage\": 4.0", with: "\"overdriveVoltage\": 6e128")) == [
      "channels[0].overdriveVoltage: must be 1–10 × ratedVoltage"
    ])
  }
}
