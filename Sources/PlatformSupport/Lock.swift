#if canImport(Glibc)
  import Glibc
#endif

/// A mutual-exclusion lock over pthread_mutex_t. The daemon's modules import only
/// FoundationEssentials, which has no NSLock: linking the whole of Foundation (and with
/// it CoreFoundation and ICU) costs the daemon several megabytes of resident memory.
public final class Lock: @unchecked Sendable {
  let mutex: UnsafeMutablePointer<pthread_mutex_t>

  public init() {
    mutex = .allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    pthread_mutex_init(mutex, nil)
  }

  deinit {
    pthread_mutex_destroy(mutex)
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
}
