import Foundation
import HapticCore

#if canImport(Glibc)
  import Glibc
#endif

/// Prints a line to standard output at once (the runs are long; progress should show).
func say(_ line: String = "") {
  print(line)
  fflush(nil)
}

/// Formats `value` with `digits` decimals.
func fmt(_ value: Double, _ digits: Int = 3) -> String { String(format: "%.\(digits)f", value) }

extension Duration {
  /// The duration in seconds.
  var seconds: Double { Double(components.seconds) + Double(components.attoseconds) * 1e-18 }
}

/// Sleeps for `seconds` (usleep: the kernel's default 50 µs timer slack applies).
func pause(_ seconds: Double) {
  guard seconds > 0 else { return }
  usleep(UInt32(min(seconds, 4000) * 1_000_000))
}

/// Percentiles of a sample, nearest-rank (p99 of 200 values is the 198th smallest).
struct Summary {
  let count: Int
  let min: Double
  let p50: Double
  let p90: Double
  let p99: Double
  let max: Double
  let mean: Double

  init?(_ values: [Double]) {
    guard !values.isEmpty else { return nil }
    let sorted = values.sorted()
    func rank(_ p: Double) -> Double {
      sorted[Swift.min(Swift.max(Int((p * Double(sorted.count)).rounded(.up)) - 1, 0), sorted.count - 1)]
    }
    count = sorted.count
    min = sorted[0]
    max = sorted[sorted.count - 1]
    p50 = rank(0.5)
    p90 = rank(0.9)
    p99 = rank(0.99)
    mean = sorted.reduce(0, +) / Double(sorted.count)
  }

  /// One report line, values scaled by `scale` (e.g. 1000 for ms) with `unit`.
  func line(_ label: String, scale: Double = 1000, unit: String = "ms", digits: Int = 3) -> String {
    "\(label): p50 \(fmt(p50 * scale, digits)) \(unit), p99 \(fmt(p99 * scale, digits)) \(unit) "
      + "(n \(count), min \(fmt(min * scale, digits)), p90 \(fmt(p90 * scale, digits)), "
      + "max \(fmt(max * scale, digits)), mean \(fmt(mean * scale, digits)))"
  }
}

/// Prints the summary of `values` (seconds) in ms, or says there were none.
func sayStats(_ label: String, _ values: [Double], scale: Double = 1000, unit: String = "ms", digits: Int = 3) {
  if let summary = Summary(values) {
    say("  " + summary.line(label, scale: scale, unit: unit, digits: digits))
  } else {
    say("  \(label): no samples")
  }
}


/// CPU time of the process and of each of its threads.
enum CPUTime {
  /// User + system CPU of the whole process (getrusage RUSAGE_SELF), seconds.
  static func process() -> Double {
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) * 1e-6 }
    return seconds(usage.ru_utime) + seconds(usage.ru_stime)
  }

  /// Every thread of the process: id → (label, CPU seconds). The label is the one given with
  /// ``ThreadLabels``, else the kernel's name (`/proc/self/task/<tid>/comm`). Foundation on
  /// Linux does not pass a `Thread.name` set before `start()` on to the kernel (every thread
  /// keeps the creating thread's name), hence the labels.
  ///
  /// The CPU time is read from the thread's CPU-time clock (`clock_gettime` on the clock id
  /// the kernel derives from a thread id, MAKE_THREAD_CPUCLOCK(tid, CPUCLOCK_SCHED) =
  /// (~tid << 3) | 6), which any thread of the same process may read, with ns resolution.
  static func threads() -> [Int32: (name: String, seconds: Double)] {
    var result: [Int32: (name: String, seconds: Double)] = [:]
    let labels = ThreadLabels.shared.all
    for tid in ThreadLabels.threadIDs() {
      var spec = timespec()
      let clock = clockid_t((~tid) << 3) | 6
      guard clock_gettime(clock, &spec) == 0 else { continue }
      let name =
        labels[tid]
        ?? ((try? String(contentsOfFile: "/proc/self/task/\(tid)/comm", encoding: .utf8)) ?? "?")
        .trimmingCharacters(in: .whitespacesAndNewlines)
      result[tid] = (name, Double(spec.tv_sec) + Double(spec.tv_nsec) * 1e-9)
    }
    return result
  }

  /// CPU seconds per thread label spent between two ``threads()`` snapshots (threads that
  /// started in between count from zero; threads that ended in between are lost).
  static func delta(
    from before: [Int32: (name: String, seconds: Double)], to after: [Int32: (name: String, seconds: Double)]
  ) -> [String: Double] {
    var byName: [String: Double] = [:]
    for (tid, thread) in after {
      let start = before[tid]?.seconds ?? 0
      byName[thread.name, default: 0] += thread.seconds - start
    }
    return byName
  }
}

/// Names the threads a component starts: the thread ids that appear while `body` runs get
/// `label` (several new threads: "label", "label+1", …). The main thread is "main".
final class ThreadLabels: @unchecked Sendable {
  static let shared = ThreadLabels()
  private let lock = NSLock()
  private var labels: [Int32: String] = [Int32(getpid()): "main"]

  /// The labels so far.
  var all: [Int32: String] { lock.withLock { labels } }

  /// The ids of the process's threads now.
  static func threadIDs() -> [Int32] {
    ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []).compactMap { Int32($0) }
  }

  /// Runs `body`, then labels the threads that appeared meanwhile (after a 20 ms settle).
  static func label<T>(_ label: String, _ body: () throws -> T) rethrows -> T {
    let before = Set(threadIDs())
    let result = try body()
    pause(0.02)
    let new = threadIDs().filter { !before.contains($0) && shared.all[$0] == nil }.sorted()
    shared.lock.withLock {
      for (index, tid) in new.enumerated() { shared.labels[tid] = index == 0 ? label : "\(label)+\(index)" }
    }
    return result
  }
}

/// Waits for something signalled from another thread.
final class Flag: @unchecked Sendable {
  private let semaphore = DispatchSemaphore(value: 0)
  /// Signals the waiter.
  func raise() { semaphore.signal() }
  /// Waits up to `timeout` seconds; true when raised.
  func wait(timeout: Double) -> Bool { semaphore.wait(timeout: .now() + timeout) == .success }
}

/// The 1, 5 and 15 minute load averages (other work on the machine skews real-time figures).
func loadAverage() -> String {
  let text = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? "?"
  return "load average " + text.split(separator: " ").prefix(3).joined(separator: " ")
}
