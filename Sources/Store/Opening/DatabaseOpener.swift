import FoundationEssentials
import Glibc

/// Opens the store's file the way a box that loses power with the ignition needs it: the
/// schema version is read before anything is written (a newer file is refused untouched);
/// a file SQLite cannot open as a database is moved aside with its -wal and -shm and a
/// fresh one started; then WAL with synchronous=FULL, and the migrations. Nothing here
/// reads in proportion to the file, so start-up takes the same time at any size: the
/// whole-file check (`SampleStore.quickCheck`) is the daemon's, after start-up, off the loop.
enum DatabaseOpener {
  static func open(path: String, now: Date, vfs: String?) throws(StoreError) -> (Database, StoreOpenReport) {
    // A copy made while recording (a salvage, a conversion) takes the file's place first,
    // while nothing holds it open.
    var switched: StoreRebuild.Switch?
    var problems: [String] = []
    do {
      switched = try StoreRebuild.finishIfReady(livePath: path, now: now)
    } catch .rebuildDiscarded(let copy, let reason) {
      problems.append("an unfinished copy of the database (\(copy)) could not be used and was removed: \(reason)")
    }
    do {
      let (database, found) = try openChecked(path: path, vfs: vfs)
      return (
        database,
        StoreOpenReport(
          path: path, foundSchemaVersion: found, schemaVersion: Schema.latestVersion, movedAside: nil,
          problems: problems, switched: switched)
      )
    } catch .corrupt(let failure) {
      let reason = failure.description
      let files = try moveAside(path: path, now: now)
      let (database, found) = try openChecked(path: path, vfs: vfs)
      return (
        database,
        StoreOpenReport(
          path: path, foundSchemaVersion: found, schemaVersion: Schema.latestVersion,
          movedAside: .init(reason: reason, files: files), problems: problems, switched: switched)
      )
    }
  }

  /// Opens, checks and migrates; throws `.corrupt` for a file that must be moved aside.
  private static func openChecked(path: String, vfs: String?) throws(StoreError) -> (Database, Int32) {
    let found = try inspect(path: path, vfs: vfs)
    let database = try Database(path: path, readOnly: false, vfs: vfs)
    try applyDurabilitySettings(database)
    _ = try Schema.migrate(database)
    return (database, found)
  }

  /// Reads the schema version without writing: the header is read straight from the file,
  /// so a newer file is refused without SQLite opening it, then a read-only connection
  /// reads the version the log may hold, so a file SQLite cannot read is kept exactly as
  /// found (a writable connection would checkpoint its log into it and delete the log on
  /// close). Returns the file's schema version (0 when there is no file yet).
  private static func inspect(path: String, vfs: String?) throws(StoreError) -> Int32 {
    guard access(path, F_OK) == 0 else { return 0 }
    switch try DatabaseHeader.read(path: path) {
    case .empty:
      return 0
    case .notADatabase:
      throw .corrupt(
        SQLiteFailure(
          operation: "read the database header", resultCode: 26 /* SQLITE_NOTADB */,
          message: "file is not a database (no SQLite header)"))
    case .database(let userVersion):
      guard userVersion <= Schema.latestVersion else {
        throw .newerSchema(path: path, found: userVersion, supported: Schema.latestVersion)
      }
    }
    let database = try Database(path: path, readOnly: true, vfs: vfs)
    // The log may hold a newer header than the file.
    let found = try Schema.userVersion(database)
    guard found <= Schema.latestVersion else {
      throw .newerSchema(path: path, found: found, supported: Schema.latestVersion)
    }
    return found
  }

  /// The page size a new database file is created with.
  static let newFilePageSize = 1024

  /// WAL so a crash never leaves a half-written page in the main file; synchronous=FULL so
  /// a committed transaction survives a power cut; foreign keys so rows cannot point at
  /// shifts that do not exist.
  static func applyDurabilitySettings(_ database: Database) throws(StoreError) {
    // 1 KiB pages for a new file (an existing one keeps its own: the size is fixed once a
    // file in WAL mode has a page). A commit appends every page it changed to the log,
    // whole, and a one-second commit changes a row or two in the samples table and its
    // index, a page each: 1 KiB pages write a quarter of what 4 KiB ones did, while a long
    // scan reads about as fast (`make bench`: store.bytes_written_per_hour_1hz,
    // store.one_pass_ratio_to_scan).
    try database.execute("PRAGMA page_size = \(newFilePageSize)")
    let mode = try database.scalarText("PRAGMA journal_mode = WAL")
    guard mode?.lowercased() == "wal" else {
      throw .settingRefused(pragma: "journal_mode = WAL", result: mode ?? "nothing")
    }
    try database.execute("PRAGMA synchronous = FULL")
    let synchronous = try database.scalarInt64("PRAGMA synchronous")
    guard synchronous == 2 else {
      throw .settingRefused(pragma: "synchronous = FULL", result: synchronous.map(String.init) ?? "nothing")
    }
    try database.execute("PRAGMA foreign_keys = ON")
    // Keep the WAL from staying large after a burst (a big import) once checkpointed.
    try database.execute("PRAGMA journal_size_limit = 4194304")
    // A 1 MiB page cache instead of SQLite's 2 MiB: the daemon appends and reads only new
    // rows, so the cache holds little it reuses, while a full one (after the first status
    // reads a long shift) stays resident on a small box (`make bench`: daemon_rss_*).
    try database.execute("PRAGMA cache_size = -1024")
  }

  /// Renames the database and its companions to NAME.corrupt-YYYYMMDDTHHMMSSZ (the -wal
  /// and -shm keep their suffix after the new name, so the kept copy still opens with its
  /// log). Nothing is deleted. Returns what was moved.
  static func moveAside(path: String, now: Date) throws(StoreError) -> [StoreOpenReport.MovedFile] {
    let target = keptName(path: path, now: now)
    var moved: [StoreOpenReport.MovedFile] = []
    for suffix in ["", "-wal", "-shm"] where access(path + suffix, F_OK) == 0 {
      guard rename(path + suffix, target + suffix) == 0 else {
        throw .couldNotMoveAside(
          path: path, reason: "rename \(path + suffix): \(String(cString: strerror(errno)))")
      }
      moved.append(.init(from: path + suffix, to: target + suffix))
    }
    return moved
  }

  /// NAME.corrupt-YYYYMMDDTHHMMSSZ, with -2, -3 ... when a file of that name (or its -wal or
  /// -shm) is there already: a damaged file is kept, never overwritten.
  static func keptName(path: String, now: Date) -> String {
    let stamp = utcStamp(now)
    var target = "\(path).corrupt-\(stamp)"
    var attempt = 1
    while ["", "-wal", "-shm"].contains(where: { access(target + $0, F_OK) == 0 }) {
      attempt += 1
      target = "\(path).corrupt-\(stamp)-\(attempt)"
    }
    return target
  }

  /// 20261129T213300Z, formatted by hand so the daemon never loads locale data for it.
  static func utcStamp(_ date: Date) -> String {
    // A clock that cannot be believed still names the file (year 0001 to 9999 only).
    let raw = date.timeIntervalSince1970
    var seconds = time_t(raw.isFinite ? min(max(raw, -62_135_596_800), 253_402_300_799).rounded(.down) : 0)
    var parts = tm()
    gmtime_r(&seconds, &parts)
    func pad(_ value: Int32, _ width: Int) -> String {
      let digits = String(value)
      return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
    return pad(parts.tm_year + 1900, 4) + pad(parts.tm_mon + 1, 2) + pad(parts.tm_mday, 2) + "T"
      + pad(parts.tm_hour, 2) + pad(parts.tm_min, 2) + pad(parts.tm_sec, 2) + "Z"
  }
}
