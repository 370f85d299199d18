import Testing

import HapticRenderer

@testable import HapticSimulator

/// The DRV2605L's drive followed from register writes (what `hapticctl emulate --trace` replays).
@Suite("DRV2605L drive from register writes")
struct DRV2605LDriveTests {
  typealias R = DRV2605LDrive.Register

  @Test("Standby and modes other than RTP drive nothing; RTP follows the data format")
  func rtp() {
    var chip = DRV2605LDrive()
    chip.write(register: R.rtpInput, value: 200)
    #expect(chip.drive == 0, "out of reset: standby")
    chip.write(register: R.mode, value: 0x05)
    #expect(abs(chip.drive - Double(Int8(bitPattern: 200)) / 127) < 1e-12, "reset data format: signed")
    chip.write(register: R.control3, value: 0xA8)
    #expect(abs(chip.drive - 200.0 / 255) < 1e-12, "DATA_FORMAT_RTP set: unsigned")
    chip.write(register: R.mode, value: 0x45)
    #expect(chip.drive == 0, "standby again")
    chip.write(register: R.mode, value: 0x00)
    #expect(chip.drive == 0, "internal trigger mode")
  }

  @Test("GO starts a ROM effect in internal-trigger mode and calibration in mode 7, not in standby")
  func operations() {
    var chip = DRV2605LDrive()
    #expect(chip.write(register: R.go, value: 1) == nil, "standby: GO does nothing")
    chip.write(register: R.mode, value: 0x00)
    chip.write(register: R.waveSequence1, value: 47)
    #expect(chip.write(register: R.go, value: 1) == .romEffect(47))
    chip.write(register: R.mode, value: 0x07)
    #expect(chip.write(register: R.go, value: 1) == .calibration)
    #expect(chip.write(register: R.go, value: 0) == nil, "GO cleared")
  }

  final class Rows: ServedBoardTrace {
    var steps: [(time: Double, drive: Double, acceleration: Double)] = []
    func step(time: Double, channel: Int, drive: Double, acceleration: Double) { steps.append((time, drive, acceleration)) }
    func event(_ event: BoardEvent) {}
    func flush() {}
  }

  @Test("The replay holds each drive until the next write and counts writes out of order")
  func replay() {
    let rows = Rows()
    var replay = DRV2605LTraceReplay(
      actuator: ActuatorParameters(model: BoardProfile.simLRA.channels[0], shaping: .host), physicsRate: 16_000)
    replay.write(at: 0.001, register: R.control3, value: 0xA8, sink: rows)
    replay.write(at: 0.001, register: R.mode, value: 0x05, sink: rows)
    replay.write(at: 0.010, register: R.rtpInput, value: 255, sink: rows)
    replay.write(at: 0.050, register: R.rtpInput, value: 0, sink: rows)
    replay.advance(to: 0.1, sink: rows)
    #expect(rows.steps.count == 1600)
    #expect(rows.steps.filter { $0.drive == 1 }.count == 640, "40 ms at full scale")
    let driven = rows.steps.filter { $0.time <= 0.050 }.map { abs($0.acceleration) }.max() ?? 0
    let tail = rows.steps.filter { $0.time > 0.095 }.map { abs($0.acceleration) }.max() ?? 1
    #expect(driven > 0 && tail < driven * 0.2, "rings up, then down: \(driven) → \(tail)")
    #expect(replay.writesOutOfOrder == 0)
    replay.write(at: 0.02, register: R.rtpInput, value: 9, sink: rows)
    #expect(replay.writesOutOfOrder == 1)
  }
}
