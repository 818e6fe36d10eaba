import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// A lock with a condition variable (what NSCondition is, without linking Foundation):
/// `wait(until:)` takes a wall-clock deadline as NSCondition's does, and waits on
/// CLOCK_MONOTONIC so a step of the system clock neither cuts a wait short nor makes it
/// last for years.
public final class Condition: @unchecked Sendable {
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>
  private let condition: UnsafeMutablePointer<pthread_cond_t>

  public init() {
    mutex = .allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    pthread_mutex_init(mutex, nil)
    condition = .allocate(capacity: 1)
    condition.initialize(to: pthread_cond_t())
    var attributes = pthread_condattr_t()
    pthread_condattr_init(&attributes)
    pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
    pthread_cond_init(condition, &attributes)
    pthread_condattr_destroy(&attributes)
  }

  deinit {
    pthread_cond_destroy(condition)
    pthread_mutex_destroy(mutex)
    condition.deinitialize(count: 1)
    condition.deallocate()
    mutex.deinitialize(count: 1)
    mutex.deallocate()
  }

  public func lock() { pthread_mutex_lock(mutex) }

  public func unlock() { pthread_mutex_unlock(mutex) }

  public func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
    lock()
    defer { unlock() }
    return try body()
  }

  /// Waits (the lock held) until signalled.
  public func wait() { pthread_cond_wait(condition, mutex) }

  /// Waits (the lock held) until signalled or `deadline` has passed; false on timeout.
  @discardableResult
  public func wait(until deadline: Date) -> Bool {
    let seconds = deadline.timeIntervalSinceNow
    guard seconds > 0 else { return false }
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    let capped = min(seconds, 1e8)
    var nanoseconds = Int(now.tv_nsec) + Int((capped - capped.rounded(.down)) * 1e9)
    var target = timespec(tv_sec: now.tv_sec + Int(capped.rounded(.down)), tv_nsec: 0)
    if nanoseconds >= 1_000_000_000 {
      target.tv_sec += 1
      nanoseconds -= 1_000_000_000
    }
    target.tv_nsec = nanoseconds
    return pthread_cond_timedwait(condition, mutex, &target) != ETIMEDOUT
  }

  public func signal() { pthread_cond_signal(condition) }

  public func broadcast() { pthread_cond_broadcast(condition) }
}
