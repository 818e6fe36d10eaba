import FoundationEssentials
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// The one way another thread hands work to the loop: a gpsd reader thread posting a
/// report, an HTTP thread posting a route. Work runs on the loop thread, in the order it
/// was posted, between the loop's other events.
public final class LoopMailbox: Sendable {
  private let queue = Mutex<[@Sendable () -> Void]>([])
  /// The pipe whose readable end wakes the loop's poll.
  let wakeReadFD: Int32
  private let wakeWriteFD: Int32

  init() throws {
    let fds = try makeNonBlockingPipe()
    wakeReadFD = fds.read
    wakeWriteFD = fds.write
  }

  /// Queues `work` for the loop thread and wakes it. Safe from any thread.
  public func post(_ work: @escaping @Sendable () -> Void) {
    let wasEmpty = queue.withLock { queue in
      queue.append(work)
      return queue.count == 1
    }
    if wasEmpty {
      var byte: UInt8 = 1
      _ = write(wakeWriteFD, &byte, 1)
    }
  }

  /// Takes everything queued so far; called on the loop thread.
  func drain() -> [@Sendable () -> Void] {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 64) { scratch in
      while read(wakeReadFD, scratch.baseAddress, scratch.count) > 0 {}
    }
    return queue.withLock { queue in
      let taken = queue
      queue.removeAll(keepingCapacity: true)
      return taken
    }
  }

  deinit {
    close(wakeReadFD)
    close(wakeWriteFD)
  }
}

/// A value that lives on the loop thread, passable to other threads only so that work
/// posted back to the loop can reach it. Touching it anywhere else is a programming error
/// and stops the process, rather than a silent data race.
public final class LoopBound<Value>: @unchecked Sendable {
  private let value: Value
  private let owner: pthread_t

  init(_ value: Value, owner: pthread_t) {
    self.value = value
    self.owner = owner
  }

  public func withValue<Result>(_ body: (Value) throws -> Result) rethrows -> Result {
    precondition(pthread_equal(owner, pthread_self()) != 0, "a loop-bound value was touched off the loop thread")
    return try body(value)
  }
}

/// A failed system call, with errno's text.
public struct SystemCallError: Error, Sendable, Hashable, CustomStringConvertible {
  public var call: String
  public var code: Int32

  public init(_ call: String, _ code: Int32) {
    self.call = call
    self.code = code
  }

  public var description: String { "\(call): \(String(cString: strerror(code)))" }
}
