import HapticWire

extension SimulatedBoard {
  /// Handles one delivered frame (§6); returns the reply bytes.
  mutating func handle(_ frame: WireFrame) -> [UInt8] {
    counters.messages += 1
    guard let kind = WireMessage.Kind(rawValue: frame.type) else {
      // Only a reliable frame of an unknown type is answered (§5); an unreliable one is ignored.
      return frame.flags.contains(.reliable) ? fail(.unknownMessage, frame.type) : []
    }
    let message: WireMessage
    do {
      message = try WireMessage.decode(type: frame.type, payload: frame.payload)
    } catch {
      return fail(.badPayload, frame.type)
    }
    switch message {
    case .identify:
      return send(.capabilities(configuration.capabilities(bootCount: bootCount, watchdog: watchdogTimeout, calibrated: calibration)))
    case .clockQuery(let id):
      return send(.clock(id: id, boardTime: now))
    case .queueSegments(let batch), .replaceSegments(let batch):
      return enqueue(batch, replace: kind == .replaceSegments, type: frame.type)
    case .stop(let mask):
      stop(mask: mask)
      return []
    case .statusRequest:
      defer { watchdogFired = false }  // `fired` is reported once (§6.7)
      return send(.status(status))
    case .heartbeat:
      return []
    case .calibrate(let channel):
      return calibrate(Int(channel), type: frame.type)
    case .playROMEffect:
      return fail(.notSupported, frame.type)
    case .setWatchdog(let milliseconds):
      guard (10...5000).contains(milliseconds) else { return fail(.badPayload, frame.type) }
      watchdogTimeout = Double(milliseconds) / 1000
      return []
    case .identityRequest(let assign):
      if serial == 0, let assign { serial = assign }
      return send(.identity(serial: serial))
    case .ack, .capabilities, .clock, .status, .resetNotice, .calibrationResult, .error, .identity:
      // Board-to-host messages (and errors from the host) need no action.
      return []
    }
  }

  private mutating func enqueue(_ batch: SegmentBatch, replace: Bool, type: UInt8) -> [UInt8] {
    let channel = Int(batch.channel)
    guard channel < queues.count else { return fail(.badChannel, type, detail: UInt16(batch.channel)) }
    if configuration.noActuator { return fail(.notSupported, type) }
    if calibrating?.channel == channel { return fail(.busy, type) }
    let current = now
    let start = extended(batch.startTime, near: current)
    if let free = queues[channel].enqueue(batch, start: start, now: current, replace: replace) {
      note(.queueFull(channel: channel))
      return fail(.queueFull, type, detail: UInt16(clamping: free))
    }
    if start < current {
      note(.lateBatch(channel: channel, late: Double(current - start) / Double(configuration.clockFrequency)))
    }
    return []
  }

  private mutating func calibrate(_ channel: Int, type: UInt8) -> [UInt8] {
    guard channel < queues.count else { return fail(.badChannel, type, detail: UInt16(clamping: channel)) }
    guard configuration.supportsCalibration else { return fail(.notSupported, type) }
    if calibrating != nil { return fail(.busy, type) }
    queues[channel].stop()
    calibrating = (channel, time + configuration.calibrationTime)
    return []
  }

  /// Ends an auto-calibration: the driver measured the actuator's real resonance.
  mutating func finishCalibration(_ channel: Int) -> [UInt8] {
    calibrating = nil
    calibration[channel] = .calibrated
    let result = CalibrationResult(
      channel: UInt8(channel), succeeded: true,
      resonantFrequency: configuration.actuators[channel].resonantFrequency, compensation: 0x0C, backEMF: 0x8C)
    return send(.calibrationResult(result))
  }

  private mutating func send(_ message: WireMessage) -> [UInt8] {
    link.send(message, now: time)
  }

  private mutating func fail(_ code: ProtocolError.Code, _ type: UInt8, detail: UInt16 = 0) -> [UInt8] {
    counters.errors += 1
    return send(.error(ProtocolError(code: code, messageType: type, detail: detail)))
  }
}
