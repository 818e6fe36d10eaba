import FoundationEssentials
import PlatformSupport
import Synchronization

/// A thread of its own for blocking calls (a flush to SQLite, an HTTP request to a routing
/// engine), so they never run on the loop or the Swift concurrency pool. Jobs run one at
/// a time in the order given; each result is posted back to the loop, in the same order.
public final class BlockingWorker: Sendable {
  private struct State {
    var jobs: [@Sendable () -> Void] = []
    var stopping = false
  }

  private let state = Mutex(State())
  private let condition = Condition()
  private let mailbox: LoopMailbox
  public let name: String

  public init(name: String, mailbox: LoopMailbox) {
    self.name = name
    self.mailbox = mailbox
    let thread = NativeThread { [self] in runJobs() }
    thread.name = name
    thread.start()
  }

  /// Runs `work` on the worker thread, then `completion` with its result on the loop.
  public func run<Result: Sendable>(
    _ work: @escaping @Sendable () -> Result, then completion: @escaping @Sendable (Result) -> Void
  ) {
    let mailbox = self.mailbox
    enqueue {
      let result = work()
      mailbox.post { completion(result) }
    }
  }

  /// Ends the thread once the jobs already given have run.
  public func finish() {
    condition.lock()
    state.withLock { $0.stopping = true }
    condition.signal()
    condition.unlock()
  }

  private func enqueue(_ job: @escaping @Sendable () -> Void) {
    condition.lock()
    state.withLock { $0.jobs.append(job) }
    condition.signal()
    condition.unlock()
  }

  private func runJobs() {
    while true {
      condition.lock()
      var next: (@Sendable () -> Void)?
      var done = false
      while true {
        (next, done) = state.withLock { state in
          if !state.jobs.isEmpty { return (state.jobs.removeFirst(), false) }
          return (nil, state.stopping)
        }
        if next != nil || done { break }
        condition.wait()
      }
      condition.unlock()
      if let next { next() } else if done { return }
    }
  }
}
