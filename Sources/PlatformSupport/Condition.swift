#if canImport(Glibc)
  import Glibc
#endif

/// A lock with a condition variable (what NSCondition is, without linking Foundation) that
/// waits on CLOCK_MONOTONIC: `wait(until:)` takes a deadline on that clock (from
/// `Condition.deadline(after:)`), so a step of the wall clock (NTP setting a box without a
/// battery-backed clock, some time after boot) neither cuts a wait short nor makes it last
/// for years.
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

  /// The deadline `seconds` from now on the clock `wait(until:)` waits on.
  public static func deadline(after seconds: Double) -> Double { MonotonicClock.now() + seconds }

  /// Waits (the lock held) until signalled or `deadline` (seconds on CLOCK_MONOTONIC, as
  /// `deadline(after:)` gives) has passed; false on timeout.
  @discardableResult
  public func wait(until deadline: Double) -> Bool {
    let now = MonotonicClock.now()
    guard deadline > now else { return false }
    // Past any wait a caller could mean (three years), so the seconds fit a time_t anywhere.
    let capped = min(deadline, now + 1e8)
    // Rounded up to the nanosecond, so the wait never ends before the deadline.
    let nanoseconds = Int64((capped * 1e9).rounded(.up))
    var target = timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
    return pthread_cond_timedwait(condition, mutex, &target) != ETIMEDOUT
  }

  public func signal() { pthread_cond_signal(condition) }

  public func broadcast() { pthread_cond_broadcast(condition) }
}
