import CSQLite
import FoundationEssentials
import Glibc

/// What a backup wrote.
public struct StoreBackup: Sendable, Hashable {
  public var path: String
  public var bytes: Int64
  public var shifts: Int
}

extension StoreBackup {
  /// Where a backup goes when the request names no file: `backups/` beside the database
  /// (the daemon's own directory, writable under the unit's ProtectSystem=strict), named
  /// for the time (`dashpilot-20261201T213300Z.sqlite`).
  public static func defaultPath(forDatabase database: String, now: Date) -> String {
    let directory = database.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
    return "\(directory)/backups/dashpilot-\(DatabaseOpener.utcStamp(now)).sqlite"
  }
}

extension SampleStore {
  /// A consistent copy of the whole file at `path` (SQLite's online backup, every page in
  /// one step, so one snapshot: the writer goes on committing meanwhile, in WAL, without
  /// waiting for it nor making it start again). Written to `PATH.partial`, synced, then
  /// renamed, so `path` is either absent or a whole copy. A file already at `path` is
  /// refused, never overwritten. Call it on a reader's connection: it reads the whole file.
  public func backup(to path: String) throws(StoreError) -> StoreBackup {
    guard access(path, F_OK) != 0 else {
      throw .invalidSetting("\(path) already exists; a backup never overwrites a file")
    }
    let partial = path + ".partial"
    unlink(partial)
    var destination: OpaquePointer?
    let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
    guard sqlite3_open_v2(partial, &destination, flags, nil) == SQLITE_OK, let destination else {
      let reason = destination.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
      sqlite3_close_v2(destination)
      throw .sqlite(code: SQLITE_CANTOPEN, message: reason, operation: "create \(partial)")
    }
    var failure: StoreError?
    if let backup = sqlite3_backup_init(destination, "main", database.handle, "main") {
      let stepped = sqlite3_backup_step(backup, -1)
      let finished = sqlite3_backup_finish(backup)
      if stepped != SQLITE_DONE || finished != SQLITE_OK {
        failure = .sqlite(
          code: stepped == SQLITE_DONE ? finished : stepped, message: String(cString: sqlite3_errmsg(destination)),
          operation: "back up to \(partial)")
      }
    } else {
      failure = .sqlite(
        code: sqlite3_extended_errcode(destination), message: String(cString: sqlite3_errmsg(destination)),
        operation: "back up to \(partial)")
    }
    sqlite3_close_v2(destination)
    if let failure {
      unlink(partial)
      throw failure
    }
    let fd = open(partial, O_RDONLY | O_CLOEXEC)
    if fd >= 0 {
      _ = fsync(fd)
      close(fd)
    }
    guard rename(partial, path) == 0 else {
      let reason = String(cString: strerror(errno))
      unlink(partial)
      throw .sqlite(code: SQLITE_CANTOPEN, message: reason, operation: "rename \(partial) to \(path)")
    }
    var status = stat()
    _ = stat(path, &status)
    let shifts = try SampleStore(readingFrom: path).database.scalarInt64("SELECT count(*) FROM shifts") ?? 0
    return StoreBackup(path: path, bytes: Int64(status.st_size), shifts: Int(shifts))
  }
}
