import FoundationEssentials
import PlatformSupport
import Store

/// The store's whole-file integrity check (`PRAGMA quick_check`), run after start-up on a
/// thread and a read-only connection of its own, at idle I/O priority and nice 19: it reads
/// every page of a file that grows for years, which at start-up would outlast the unit's
/// start limit, and it must never hold the writer nor delay a commit (in WAL it does
/// neither). What it finds is posted back to the loop.
final class StoreCheck: Sendable {
  /// What one run found.
  struct Finding: Sendable, Hashable {
    /// quick_check's lines: ["ok"] for a healthy file.
    var lines: [String]
    /// How long the check read (seconds, monotonic).
    var seconds: Double
    /// What lowering the thread's priority could not do (the check ran anyway).
    var priorityRefused: [String]

    var isHealthy: Bool { lines == ["ok"] }
  }

  private let worker: BlockingWorker
  private let path: String
  private let monotonic: @Sendable () -> Double

  init(path: String, mailbox: LoopMailbox, monotonic: @escaping @Sendable () -> Double) {
    self.path = path
    self.monotonic = monotonic
    worker = BlockingWorker(name: "store-check", mailbox: mailbox)
  }

  /// Checks the whole file, then calls `completion` on the loop with what was found, or
  /// with the error that kept the check from running to its end.
  func run(then completion: @escaping @Sendable (Result<Finding, StoreError>) -> Void) {
    let (path, monotonic) = (path, monotonic)
    worker.run(
      { () -> Result<Finding, StoreError> in
        let refused = ThreadPriority.makeCurrentThreadIdle()
        let started = monotonic()
        do throws(StoreError) {
          let reader = try SampleStore(readingFrom: path)
          let lines = try reader.quickCheck()
          return .success(Finding(lines: lines, seconds: monotonic() - started, priorityRefused: refused))
        } catch {
          return .failure(error)
        }
      }, then: completion)
  }

  func finish() { worker.finish() }
}
