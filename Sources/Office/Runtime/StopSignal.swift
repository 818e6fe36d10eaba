import FoundationEssentials
import PlatformSupport

#if canImport(Glibc)
  import Glibc
#endif

/// SIGTERM and SIGINT, taken by a thread of their own (`sigwait`) rather than a handler:
/// the signals are blocked in every thread before any starts, so the rest of the process
/// sees a flag and a wake-up instead of an interrupted call.
public final class StopSignal: @unchecked Sendable {
  // @unchecked: every member is guarded by `condition`.
  private let condition = Condition()
  private var stopped = false
  private var observers: [@Sendable () -> Void] = []
  private var received: Int32 = 0

  public init() {}

  /// Blocks SIGTERM, SIGINT and SIGCHLD in this thread (and so in every thread it starts)
  /// and starts the thread that waits for the first two. Call before any other thread.
  public static func install() -> StopSignal {
    let signal = StopSignal()
    var set = sigset_t()
    sigemptyset(&set)
    sigaddset(&set, SIGTERM)
    sigaddset(&set, SIGINT)
    sigaddset(&set, SIGCHLD)
    pthread_sigmask(SIG_BLOCK, &set, nil)
    let waiter = NativeThread {
      var stopping = sigset_t()
      sigemptyset(&stopping)
      sigaddset(&stopping, SIGTERM)
      sigaddset(&stopping, SIGINT)
      var number: Int32 = 0
      while sigwait(&stopping, &number) != 0 {}
      signal.set(number)
    }
    waiter.name = "signals"
    waiter.start()
    return signal
  }

  public var isSet: Bool { condition.withLock { stopped } }

  /// The signal that stopped the process, 0 before.
  public var signalNumber: Int32 { condition.withLock { received } }

  /// Runs `observer` when the stop comes (at once if it has).
  public func onStop(_ observer: @escaping @Sendable () -> Void) {
    let now = condition.withLock {
      if !stopped { observers.append(observer) }
      return stopped
    }
    if now { observer() }
  }

  public func set(_ number: Int32 = SIGTERM) {
    let toRun = condition.withLock {
      guard !stopped else { return [@Sendable () -> Void]() }
      stopped = true
      received = number
      condition.broadcast()
      return observers
    }
    for observer in toRun { observer() }
  }

  /// Sleeps `seconds`, or less when the stop comes.
  public func sleep(_ seconds: Double) {
    condition.withLock {
      let deadline = Condition.deadline(after: seconds)
      while !stopped, condition.wait(until: deadline) {}
    }
  }
}

/// Pauses between attempts to reach something that is down: `fast` seconds for the first
/// `fastAttempts`, then doubling to 10 s.
struct Backoff {
  let fast: Double
  let fastAttempts: Int
  private var attempts = 0
  private var current: Double

  init(fast: Double = 0.5, fastAttempts: Int = 1) {
    self.fast = fast
    self.fastAttempts = fastAttempts
    current = fast
  }

  mutating func next() -> Double {
    attempts += 1
    guard attempts > fastAttempts else { return fast }
    defer { current = min(10, current * 2) }
    return current
  }

  mutating func reset() {
    attempts = 0
    current = fast
  }
}
