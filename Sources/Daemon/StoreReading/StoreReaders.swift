import FoundationEssentials
import Store
import Synchronization

/// Threads of their own, each with a read-only connection to the store's file, for the
/// work that reads history: `shifts`, `shift show`, `export`, `report`. In WAL mode a reader
/// and the loop's one writer never wait for each other, so a year listed or exported costs
/// capture's commits and `status` nothing. A job runs on the least busy reader with its
/// connection (opened on first use, and again after `closeConnections`); its result is
/// posted back to the loop.
public final class StoreReaders: Sendable {
  private let path: String
  private let readers: [Reader]

  /// One thread and its connection. The connection is touched only by jobs on the thread.
  private final class Reader: @unchecked Sendable {
    let worker: BlockingWorker
    /// Jobs given and not finished: how the least busy reader is chosen.
    let queued = Mutex(0)
    var store: SampleStore?

    init(worker: BlockingWorker) { self.worker = worker }
  }

  /// `count` readers of the file at `path`, posting results through `mailbox`.
  public init(path: String, count: Int, mailbox: LoopMailbox, name: String = "store-reader") {
    self.path = path
    readers = (0..<max(1, count)).map { index in
      Reader(worker: BlockingWorker(name: "\(name)-\(index + 1)", mailbox: mailbox))
    }
  }

  /// Runs `job` with a reader's connection on its thread, then `completion` on the loop with
  /// what it returned or threw (a connection that cannot be opened is the job's error).
  public func read<Result: Sendable>(
    _ job: @escaping @Sendable (SampleStore) throws -> Result,
    then completion: @escaping @Sendable (Swift.Result<Result, any Error>) -> Void
  ) {
    let reader = leastBusy()
    reader.queued.withLock { $0 += 1 }
    let path = self.path
    reader.worker.run(
      {
        defer { reader.queued.withLock { $0 -= 1 } }
        do {
          let store = try reader.store ?? SampleStore(readingFrom: path)
          reader.store = store
          return .success(try job(store))
        } catch {
          return .failure(error)
        }
      }, then: completion)
  }

  /// Runs `job` on the least busy reader's thread without its connection (the next part
  /// of an answer already read), then `completion` on the loop with what it returned.
  public func run<Result: Sendable>(
    _ job: @escaping @Sendable () -> Result, then completion: @escaping @Sendable (Result) -> Void
  ) {
    let reader = leastBusy()
    reader.queued.withLock { $0 += 1 }
    reader.worker.run(
      {
        defer { reader.queued.withLock { $0 -= 1 } }
        return job()
      }, then: completion)
  }

  private func leastBusy() -> Reader {
    readers.min { $0.queued.withLock { $0 } < $1.queued.withLock { $0 } } ?? readers[0]
  }

  /// Closes every reader's connection once the jobs given before have run, then calls
  /// `completion` on the loop: nothing of this process then holds the file open for reading
  /// (the store's file is about to be replaced). The next job opens a connection again.
  public func closeConnections(then completion: @escaping @Sendable () -> Void) {
    let remaining = Mutex(readers.count)
    for reader in readers {
      reader.worker.run(
        { reader.store = nil },
        then: { _ in
          let last = remaining.withLock {
            $0 -= 1
            return $0 == 0
          }
          if last { completion() }
        })
    }
  }

  /// Ends the threads once the jobs already given have run.
  public func finish() {
    for reader in readers { reader.worker.finish() }
  }
}
