import NIOCore

/// Runs a task's jobs on a NIO event loop: a WebSocket's messages are handled on its
/// connection's loop, the thread that read them, instead of waking a thread of Swift's
/// cooperative pool for each.
///
/// Under load (8 clients streaming parameters at 60 Hz to 4 boards, issue 28) most of the
/// server's time went into threads waking one another; run back to back on this machine, the
/// server took 15.8 % of a core with the hop and 11.4 % without. A message's handling (parsing,
/// the engine's change and its write to the board's port) takes tens of microseconds and does
/// not wait for the network; what waits (a `play`'s engine start) suspends, freeing the loop.
final class EventLoopExecutor: TaskExecutor {
  let loop: any EventLoop

  init(_ loop: any EventLoop) {
    self.loop = loop
  }

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    loop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
  }
}
