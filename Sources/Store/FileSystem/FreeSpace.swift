import Glibc

extension SampleStore {
  /// Room the file system must have before a store whose save failed is written again: a
  /// few commits' pages. A small write can land in the unused end of a block the log
  /// already holds and succeed on a disk that is still full; capture would begin a session
  /// only to lose it at the next commit, by turns, for as long as the disk stays full.
  public static let roomToResume: Int64 = 64 * 1024

  /// Bytes an unprivileged writer may still use on the file system holding the database
  /// (statvfs's f_bavail); nil when it cannot be read.
  public func freeBytes() -> Int64? {
    var figures = statvfs()
    guard statvfs(database.path, &figures) == 0 else { return nil }
    return Int64(figures.f_bavail) * Int64(figures.f_frsize)
  }

  /// Whether a write after a failed save may be tried: the file system has `roomToResume`
  /// free (or cannot say, and the write itself decides).
  public func hasRoomToResume() -> Bool {
    guard let free = freeBytes() else { return true }
    return free >= Self.roomToResume
  }
}
