import FoundationEssentials
import PlatformSupport

#if canImport(Glibc)
  import Glibc
#endif

/// The daemon's one thread of control. Everything that changes the daemon's state runs
/// here, one event at a time: a readable socket (gpsd's included), a signal, posted work
/// from another thread, a timer. Nothing here blocks: sockets are read without waiting,
/// and blocking C calls (libgps's connect, HTTP) live on threads of their own that post
/// results back.
public final class EventLoop {
  public let mailbox: LoopMailbox
  /// The daemon's one set of clocks: its timers run on the monotonic one, and the context
  /// hands the same to every component.
  public let clock: LoopClock
  let owner: pthread_t

  private struct Watcher {
    var events: Int16
    var handler: (Int16) -> Void
  }

  private struct RepeatingTimer {
    var interval: Double
    var deadline: Double
    var handler: () -> Void
  }

  private var watchers: [Int32: Watcher] = [:] {
    didSet { descriptorsChanged = true }
  }
  /// Whether `watchers` changed since the round's descriptors were last made: most rounds
  /// (a gpsd report each) watch what the round before did, and reuse its list.
  private var descriptorsChanged = true
  private var timers: [RepeatingTimer] = []
  /// Work due once, at a deadline (`after`).
  private var deferred: [(deadline: Double, handler: () -> Void)] = []
  /// The deferred work a round runs, taken out of `deferred` before any of it runs.
  private var due: [() -> Void] = []
  private var stopRequested = false

  /// Creates the loop for the calling thread, which must be the one that calls `run()`,
  /// on `clock`: the machine's clocks (DaemonMain chooses them) or a test's own.
  public init(clock: LoopClock) throws {
    mailbox = try LoopMailbox()
    self.clock = clock
    owner = pthread_self()
  }

  /// Wraps a loop-thread value so posted work can reach it.
  public func bind<Value>(_ value: Value) -> LoopBound<Value> {
    LoopBound(value, owner: owner)
  }

  /// Calls `handler` with the returned events whenever `fd` is ready for `events`.
  public func watch(_ fd: Int32, events: Int16, handler: @escaping (Int16) -> Void) {
    watchers[fd] = Watcher(events: events, handler: handler)
  }

  public func setEvents(_ fd: Int32, _ events: Int16) {
    watchers[fd]?.events = events
  }

  public func unwatch(_ fd: Int32) {
    watchers[fd] = nil
  }

  /// Runs `handler` every `interval` seconds of monotonic time, first after one interval,
  /// or on the beat of a timer of the same interval already running (within one interval).
  public func every(_ interval: TimeInterval, _ handler: @escaping () -> Void) {
    // Timers of one interval beat together: the control server's idle check and the
    // runtime's tick, both once a second and set a moment apart, woke the loop twice a
    // second, a few microseconds apart.
    let deadline = timers.first { $0.interval == interval }?.deadline ?? clock.monotonic() + interval
    timers.append(RepeatingTimer(interval: interval, deadline: deadline, handler: handler))
  }

  /// Runs `handler` once, `delay` seconds of monotonic time from now: work done a piece at a
  /// time, with the loop free for everything else in between.
  public func after(_ delay: TimeInterval, _ handler: @escaping () -> Void) {
    deferred.append((clock.monotonic() + max(0, delay), handler))
  }

  /// Ends `run()` after the event being handled.
  public func stop() { stopRequested = true }

  /// Handles events until `stop()`.
  public func run() {
    precondition(pthread_equal(owner, pthread_self()) != 0, "the loop runs on the thread that made it")
    // Kept across rounds: a round is what every report from gpsd pays, so it allocates
    // nothing it can reuse.
    var descriptors: [pollfd] = []
    while !stopRequested {
      if descriptorsChanged {
        descriptorsChanged = false
        descriptors.removeAll(keepingCapacity: true)
        descriptors.append(pollfd(fd: mailbox.wakeReadFD, events: Int16(POLLIN), revents: 0))
        for (fd, watcher) in watchers where watcher.events != 0 {
          descriptors.append(pollfd(fd: fd, events: watcher.events, revents: 0))
        }
      }
      let now = clock.monotonic()
      var nextDeadline = now + 1
      if let first = timers.first {
        nextDeadline = first.deadline
        for timer in timers.dropFirst() where timer.deadline < nextDeadline { nextDeadline = timer.deadline }
      }
      for work in deferred where work.deadline < nextDeadline { nextDeadline = work.deadline }
      let timeout = Int32(max(0, min(1000, ((nextDeadline - now) * 1000).rounded(.up))))
      let ready = poll(&descriptors, nfds_t(descriptors.count), timeout)
      if ready < 0 && errno != EINTR { usleep(10_000) }
      if ready > 0 {
        for descriptor in descriptors.dropFirst() where descriptor.revents != 0 {
          // A handler earlier in this round may have closed this descriptor.
          guard let watcher = watchers[descriptor.fd] else { continue }
          watcher.handler(descriptor.revents)
          if stopRequested { break }
        }
        // Work posted always writes the wake byte (see `LoopMailbox.post`), so the queue
        // is drained only when the pipe says so: a round for a gpsd report, which every
        // report pays, then makes no read of an empty pipe.
        if descriptors[0].revents != 0 {
          for work in mailbox.drain() { work() }
        }
      }
      runDueTimers()
    }
  }

  private func runDueTimers() {
    let now = clock.monotonic()
    for index in timers.indices where timers[index].deadline <= now {
      // Skip missed beats instead of firing them in a burst after a stall.
      let interval = timers[index].interval
      let missed = ((now - timers[index].deadline) / interval).rounded(.down)
      timers[index].deadline += (missed + 1) * interval
      timers[index].handler()
    }
    guard deferred.contains(where: { $0.deadline <= now }) else { return }
    // Into a list kept across rounds: a paced read of gpsd is due here five times a second.
    // Work the handlers defer waits for the next round, even work due at once.
    for work in deferred where work.deadline <= now { due.append(work.handler) }
    deferred.removeAll { $0.deadline <= now }
    for handler in due { handler() }
    due.removeAll(keepingCapacity: true)
  }
}
