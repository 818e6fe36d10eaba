import Glibc

/// Room left for recording: the file system's free space plus the file's own free pages,
/// which SQLite fills before it grows the file (pages a deleted shift freed: the file stops
/// growing, it does not shrink).
public struct StoreSpace: Sendable, Hashable {
  /// What an unprivileged writer may still use on the file system (statvfs's f_bavail).
  public var fileSystemFreeBytes: Int64
  /// The file system's size (for a floor set as a percentage of it).
  public var fileSystemSizeBytes: Int64
  /// The file's free pages.
  public var freePageBytes: Int64

  public init(fileSystemFreeBytes: Int64, fileSystemSizeBytes: Int64, freePageBytes: Int64) {
    self.fileSystemFreeBytes = fileSystemFreeBytes
    self.fileSystemSizeBytes = fileSystemSizeBytes
    self.freePageBytes = freePageBytes
  }

  public var availableBytes: Int64 { fileSystemFreeBytes + freePageBytes }
}

extension SampleStore {
  /// The room left now: one statvfs and the count of free pages SQLite keeps in the file's
  /// header, so it costs the same whatever the history. Nil when the file system cannot
  /// say.
  public func space() throws(StoreError) -> StoreSpace? {
    var figures = statvfs()
    guard statvfs(database.path, &figures) == 0 else { return nil }
    let free = try database.scalarInt64("PRAGMA freelist_count") ?? 0
    let pageSize = try database.scalarInt64("PRAGMA page_size") ?? 0
    return StoreSpace(
      fileSystemFreeBytes: Int64(figures.f_bavail) * Int64(figures.f_frsize),
      fileSystemSizeBytes: Int64(figures.f_blocks) * Int64(figures.f_frsize), freePageBytes: free * pageSize)
  }
}
