import FoundationEssentials
import Glibc

/// A copy of the store's file into a fresh one in the current layout, made beside it
/// (`PATH.rebuild`) while the daemon records into the live file, on a connection of its own
/// (the live file attached, read only), and put in the live file's place the next time the
/// store is opened (`finishIfReady`), before anything else holds it open. Rows keep their
/// ids. Every step is a transaction of the copy's own, so a power cut at any point leaves
/// a copy that resumes where it stopped.
///
/// Why a copy and not a change in place: rebuilding a year of samples where they are would
/// hold the writer for minutes (capture would stop) or outlast the unit's start limit; a
/// copy costs capture nothing, and the switch reads only what was written since the copy
/// last caught up.
public final class StoreRebuild {
  public enum Purpose: String, Sendable, Hashable {
    /// The live file was found damaged: every row that can still be read is copied, and
    /// the damaged file is kept beside the new one (`PATH.corrupt-STAMP`), as at open.
    case salvage
    /// The live file has an older layout (`StoreLayout`): 0.1.0's 4 KiB pages and
    /// AUTOINCREMENT row ids, which write about twice the bytes a second. It goes once its
    /// rows are all in the copy.
    case convert
  }

  public struct Progress: Sendable, Hashable {
    public var purpose: Purpose
    /// Samples copied so far.
    public var copiedSamples: Int
    /// The samples' rowid the copy has reached, and the live file's last.
    public var reachedRowID: Int64
    public var lastLiveRowID: Int64
    /// Samples' rowid ranges that could not be read (a damaged file).
    public var unreadable: [ClosedRange<Int64>]
    /// Whether the samples beyond `reachedRowID` could not be read at all.
    public var tailUnreadable: Bool
    /// Whether the copy reached the live file's end: from then on it only catches up, and
    /// the next open puts it in place.
    public var isCopied: Bool
  }

  public static func path(forLive live: String) -> String { live + ".rebuild" }

  public let livePath: String
  let database: Database
  public private(set) var progress: Progress
  private let samples: RowCopier

  /// Starts a copy of the file at `livePath` for `purpose`, or resumes the one an earlier
  /// run left (a salvage stays a salvage).
  public init(livePath: String, purpose: Purpose) throws(StoreError) {
    self.livePath = livePath
    let path = Self.path(forLive: livePath)
    let resuming = access(path, F_OK) == 0
    database = try Database(path: path, readOnly: false, vfs: nil)
    if !resuming {
      try Self.create(database)
    } else {
      try Self.applySettings(database)
    }
    try database.withStatement("ATTACH DATABASE ?1 AS live") { (s) throws(StoreError) in
      try s.bind(livePath, at: 1)
      try s.step()
    }
    if !resuming { try Self.copySchemaObjects(database) }
    progress = try RebuildState.read(database, purpose: purpose)
    samples = try RowCopier(database: database, table: "samples")
    if purpose == .salvage { try markSalvage() }
  }

  /// A copy begun as a conversion that turns out to be of a damaged file: the damaged file
  /// is kept when the copy takes its place.
  public func markSalvage() throws(StoreError) {
    guard progress.purpose != .salvage else { return }
    progress.purpose = .salvage
    try database.writeTransaction("mark the rebuild a salvage") { () throws(StoreError) in
      try RebuildState.write(progress, database)
    }
  }

  /// Copies at most `rows` more samples; returns how far the copy is.
  @discardableResult
  public func copy(rows: Int) throws(StoreError) -> Progress {
    note(try samples.copy(after: progress.reachedRowID, limit: rows))
    progress.lastLiveRowID = (try? database.scalarInt64("SELECT max(rowid) FROM live.samples")) ?? nil ?? 0
    try database.writeTransaction("note the rebuild's progress") { () throws(StoreError) in
      try RebuildState.write(progress, database)
    }
    return progress
  }

  private func note(_ step: RowCopier.Step) {
    progress.copiedSamples += step.copied
    progress.reachedRowID = max(progress.reachedRowID, step.reached)
    progress.unreadable = RowCopier.merged(progress.unreadable + step.unreadable)
    progress.tailUnreadable = progress.tailUnreadable || step.tailUnreadable
    if step.isAtEnd { progress.isCopied = true }
  }

  /// Brings the copy level with the live file: the samples written since, then every other
  /// table (shifts, capture sessions, the uplink's queue: small, and changed in place)
  /// replaced whole, each in one transaction (a damaged one row by row).
  @discardableResult
  public func catchUp() throws(StoreError) -> Progress {
    try checkSameFile()
    while true {
      let step = try samples.copy(after: progress.reachedRowID, limit: Self.chunk)
      note(step)
      if step.isAtEnd { break }
    }
    progress.copiedSamples -= try dropRowsOfDeletedShifts()
    for table in try Self.tables(database) where table.name != "samples" && table.name != RebuildState.table {
      let copier = try RowCopier(database: database, table: table.name, withoutRowID: table.withoutRowID)
      do {
        try database.writeTransaction("copy \(table.name) into the rebuild") { () throws(StoreError) in
          try database.execute("DELETE FROM main.\"\(table.name)\"")
          try copyWhole(copier, table)
        }
      } catch .corrupt {
        try database.execute("DELETE FROM main.\"\(table.name)\"")
        try copyWhole(copier, table)
      }
    }
    try database.writeTransaction("note the rebuild's progress") { () throws(StoreError) in
      try Self.copySequences(database)
      try RebuildState.write(progress, database)
    }
    return progress
  }

  private func copyWhole(_ copier: RowCopier, _ table: Table) throws(StoreError) {
    if table.withoutRowID {
      do {
        return try copier.copyAll()
      } catch .corrupt(let failure) {
        // Damaged beyond reading: what the store's opening makes again is all it gets.
        if database.isInTransaction { throw .corrupt(failure) }
        return
      }
    }
    var after = Int64.min
    while true {
      let step = try copier.copy(after: after, limit: Self.chunk)
      after = step.reached
      if step.isAtEnd { return }
    }
  }

  /// The last sample the copy holds must be the live file's row of that id: a live file
  /// replaced since the copy began (a backup restored) is not the file copied.
  private func checkSameFile() throws(StoreError) {
    guard let last = try database.scalarInt64("SELECT max(id) FROM main.samples") else { return }
    let same: Int64?
    do {
      same = try database.scalarInt64(
        """
        SELECT count(*) FROM main.samples m JOIN live.samples l ON l.id = m.id
        WHERE m.id = \(last) AND l.fix_time_ms = m.fix_time_ms AND l.latitude_e7 = m.latitude_e7
          AND l.longitude_e7 = m.longitude_e7 AND l.shift_id = m.shift_id
        """)
    } catch .corrupt {
      return  // a damaged file's row may be unreadable: nothing to compare
    }
    guard same == 1 else {
      throw .rebuildDiscarded(
        path: Self.path(forLive: livePath),
        reason: "the live file no longer holds the row \(last) the copy ends with: it is not the file copied")
    }
  }

  /// Rows copied a transaction at a time.
  static let chunk = 20_000

  // MARK: - Creating the copy

  static func applySettings(_ database: Database) throws(StoreError) {
    try database.execute("PRAGMA page_size = \(DatabaseOpener.newFilePageSize)")
    _ = try database.scalarText("PRAGMA journal_mode = WAL")
    // A power cut may lose the copy's last steps, never its consistency: it resumes.
    try database.execute("PRAGMA synchronous = NORMAL")
    try database.execute("PRAGMA cache_size = -1024")
  }

  /// The store's own schema at the current layout (a new file: 1 KiB pages, no
  /// AUTOINCREMENT on samples), and the copy's state.
  private static func create(_ database: Database) throws(StoreError) {
    try applySettings(database)
    _ = try Schema.migrate(database)
    try RebuildState.create(database)
  }

  /// What the live file has that the store's schema does not make (another module's
  /// tables, such as the uplink's queue), made in the copy by the statements that made it.
  private static func copySchemaObjects(_ database: Database) throws(StoreError) {
    let have = Set(try names("main", database))
    let objects = try database.withStatement(
      """
      SELECT type, name, sql FROM live.sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%'
      ORDER BY CASE type WHEN 'table' THEN 0 WHEN 'index' THEN 1 ELSE 2 END
      """
    ) { (s) throws(StoreError) -> [(String, String)] in
      var found: [(String, String)] = []
      while try s.step() { found.append((s.text(1) ?? "", s.text(2) ?? "")) }
      return found
    }
    try database.writeTransaction("make the live file's other tables in the rebuild") { () throws(StoreError) in
      for (name, sql) in objects where !have.contains(name) { try database.execute(sql) }
    }
  }

  private static func names(_ schema: String, _ database: Database) throws(StoreError) -> [String] {
    try database.textColumn("SELECT name FROM \(schema).sqlite_master")
  }

  struct Table {
    var name: String
    var withoutRowID: Bool
  }

  /// The tables both files have, the store's own first.
  static func tables(_ database: Database) throws(StoreError) -> [Table] {
    let live = Set(try database.textColumn("SELECT name FROM live.sqlite_master WHERE type = 'table'"))
    return try database.withStatement(
      "SELECT name, sql FROM main.sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY rootpage"
    ) { (s) throws(StoreError) -> [Table] in
      var tables: [Table] = []
      while try s.step() {
        let name = s.text(0) ?? ""
        guard live.contains(name) else { continue }
        tables.append(Table(name: name, withoutRowID: (s.text(1) ?? "").uppercased().contains("WITHOUT ROWID")))
      }
      return tables
    }
  }

  /// AUTOINCREMENT's high-water marks, so that an id the live file ever gave (a shift since
  /// deleted) is never given again.
  private static func copySequences(_ database: Database) throws(StoreError) {
    let counted = Set(try database.textColumn("SELECT name FROM main.sqlite_sequence"))
    let autoincrement = Set(
      try database.textColumn(
        "SELECT name FROM main.sqlite_master WHERE type = 'table' AND upper(sql) LIKE '%AUTOINCREMENT%'"))
    let live = try database.withStatement("SELECT name, seq FROM live.sqlite_sequence") {
      (s) throws(StoreError) -> [(String, Int64)] in
      var rows: [(String, Int64)] = []
      while try s.step() { rows.append((s.text(0) ?? "", s.int64(1))) }
      return rows
    }
    for (name, seq) in live where autoincrement.contains(name) {
      let sql =
        counted.contains(name)
        ? "UPDATE main.sqlite_sequence SET seq = max(seq, ?2) WHERE name = ?1"
        : "INSERT INTO main.sqlite_sequence (name, seq) VALUES (?1, ?2)"
      try database.withStatement(sql) { (s) throws(StoreError) in
        try s.bind(name, at: 1)
        try s.bind(seq, at: 2)
        try s.step()
      }
    }
  }
}
