import FoundationEssentials
import Glibc

extension StoreRebuild {
  /// A copy put in the live file's place at open.
  public struct Switch: Sendable, Hashable {
    public var purpose: Purpose
    /// Samples the new file holds, and the rowid ranges left behind unreadable.
    public var samples: Int
    public var unreadable: [ClosedRange<Int64>]
    public var tailUnreadable: Bool
    /// Where the damaged file was kept (a salvage).
    public var keptAs: String?

    /// The journal's sentence.
    public func message(path: String) -> String {
      switch purpose {
      case .convert:
        return "database \(path) now has the current layout (1 KiB pages, no AUTOINCREMENT): "
          + "a copy of all \(samples) samples, made while recording, replaced the file"
      case .salvage:
        let lost =
          unreadable.isEmpty && !tailUnreadable
          ? "every row could be read"
          : "samples that could not be read were left behind (row ids "
            + unreadable.map { "\($0.lowerBound)-\($0.upperBound)" }.joined(separator: ", ")
            + (tailUnreadable ? (unreadable.isEmpty ? "" : ", ") + "and every row after the last one read" : "") + ")"
        return "damaged database \(path) replaced by a copy of its readable rows (\(samples) samples; \(lost)); "
          + "the damaged file was kept as \(keptAs ?? "?")"
      }
    }
  }

  /// At open, before anything else of this process holds the live file: a copy that has
  /// reached the live file's end is brought level with it (what was written since it last
  /// caught up: bounded) and renamed into its place; a salvage keeps the damaged file under
  /// another name (a hard link, made before the rename, so a power cut between the two
  /// loses nothing). Nil when there is no copy, or it is not done (the daemon resumes it).
  /// A copy that cannot be used is removed, said as a `.discarded` error's text.
  static func finishIfReady(livePath: String, now: Date) throws(StoreError) -> Switch? {
    let path = Self.path(forLive: livePath)
    guard access(path, F_OK) == 0, access(livePath, F_OK) == 0 else { return nil }
    var result: Switch
    do {
      let rebuild = try StoreRebuild(livePath: livePath, purpose: .convert)
      guard rebuild.progress.isCopied else { return nil }
      let progress = try rebuild.catchUp()
      result = Switch(
        purpose: progress.purpose, samples: progress.copiedSamples, unreadable: progress.unreadable,
        tailUnreadable: progress.tailUnreadable)
      try rebuild.database.execute("DROP TABLE \(RebuildState.table)")
      _ = try rebuild.database.textColumn("PRAGMA wal_checkpoint(TRUNCATE)")
      try rebuild.database.execute("DETACH DATABASE live")
    } catch {
      removeCopy(path)
      throw .rebuildDiscarded(path: path, reason: error.description)
    }
    // Every connection to both files is closed now. A log left beside the live file holds
    // another program's commits: the file cannot be replaced under it.
    var status = stat()
    if stat(livePath + "-wal", &status) == 0, status.st_size > 0 {
      return nil
    }
    if result.purpose == .salvage {
      let kept = DatabaseOpener.keptName(path: livePath, now: now)
      guard link(livePath, kept) == 0 else {
        throw .couldNotMoveAside(path: livePath, reason: "link \(kept): \(String(cString: strerror(errno)))")
      }
      result.keptAs = kept
    }
    guard rename(path, livePath) == 0 else {
      throw .couldNotMoveAside(path: path, reason: "rename to \(livePath): \(String(cString: strerror(errno)))")
    }
    // The old file's shared memory index: stale, and rebuilt by the next connection anyway.
    unlink(livePath + "-shm")
    return result
  }

  /// Removes a copy and its companions.
  static func removeCopy(_ path: String) {
    for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }
  }
}
