import FoundationEssentials
import PlatformSupport
import Store

/// Makes the store's `StoreRebuild` off the loop, on a thread of its own at idle I/O
/// priority and nice 19, a chunk per job, each job's progress posted back to the loop; the
/// copy's connection lives on that thread.
final class StoreRebuilder: Sendable {
  /// The copy, touched only by jobs on the worker's thread.
  private final class Copy: @unchecked Sendable {
    var rebuild: StoreRebuild?
  }

  /// Samples copied a job: a few tenths of a second of the thread's time.
  static let chunk = 20_000

  private let worker: BlockingWorker
  private let path: String
  private let copy = Copy()

  init(path: String, mailbox: LoopMailbox) {
    self.path = path
    worker = BlockingWorker(name: "store-rebuild", mailbox: mailbox)
    worker.run({ _ = ThreadPriority.makeCurrentThreadIdle() }, then: { _ in })
  }

  /// Opens (or resumes) the copy for `purpose` if it is not open, copies a chunk, then calls
  /// `completion` on the loop with how far it is.
  func copyChunk(
    _ purpose: StoreRebuild.Purpose,
    then completion: @escaping @Sendable (Result<StoreRebuild.Progress, StoreError>) -> Void
  ) {
    let (copy, path) = (copy, path)
    worker.run(
      { () -> Result<StoreRebuild.Progress, StoreError> in
        do throws(StoreError) {
          let rebuild: StoreRebuild
          if let open = copy.rebuild {
            rebuild = open
          } else {
            rebuild = try StoreRebuild(livePath: path, purpose: purpose)
          }
          if purpose == .salvage { try rebuild.markSalvage() }
          copy.rebuild = rebuild
          return .success(try rebuild.copy(rows: Self.chunk))
        } catch {
          copy.rebuild = nil
          return .failure(error)
        }
      }, then: completion)
  }

  /// Brings the copy level with the live file, then calls `completion` on the loop.
  func catchUp(then completion: @escaping @Sendable (Result<StoreRebuild.Progress, StoreError>) -> Void) {
    let copy = copy
    worker.run(
      { () -> Result<StoreRebuild.Progress, StoreError> in
        guard let rebuild = copy.rebuild else {
          return .failure(.rebuildDiscarded(path: "the copy", reason: "it is not open"))
        }
        do throws(StoreError) {
          return .success(try rebuild.catchUp())
        } catch {
          return .failure(error)
        }
      }, then: completion)
  }

  /// Closes the copy and ends the thread once the jobs given have run.
  func finish() {
    let copy = copy
    worker.run({ copy.rebuild = nil }, then: { _ in })
    worker.finish()
  }
}
