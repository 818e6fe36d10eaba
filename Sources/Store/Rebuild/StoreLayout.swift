extension SampleStore {
  /// Whether the file has the layout a new file gets: 1 KiB pages, and samples whose ids
  /// are not counted by AUTOINCREMENT. A file made by 0.1.0 has neither, and so writes
  /// about twice the bytes a commit (a 4 KiB page per table touched, and the sequence's
  /// page); `StoreRebuild` copies it into the current layout while the daemon records.
  public func hasCurrentLayout() throws(StoreError) -> Bool {
    let pageSize = try database.scalarInt64("PRAGMA page_size") ?? 0
    let samples = try database.scalarText("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'samples'")
    return pageSize == Int64(DatabaseOpener.newFilePageSize) && !(samples ?? "").uppercased().contains("AUTOINCREMENT")
  }
}
