import CSQLite

/// Copies one table's rows from the live file (attached to the rebuild's connection as
/// `live`) into the rebuild's table of the same name, in rowid order, a chunk at a time.
/// A chunk SQLite cannot read (a damaged page: SQLITE_CORRUPT) is narrowed down by halves
/// to the rowids it cannot read, which are left behind and reported as ranges: every row
/// that can still be read is copied.
///
/// Each statement is a transaction of its own (call it outside any): SQLite fails every
/// later statement of a transaction in which it met a damaged page, so narrowing down
/// inside one would copy nothing. A row copied twice (a step resumed after a power cut) is
/// ignored the second time.
struct RowCopier {
  let database: Database
  let table: String
  /// The columns both files' tables have, in the rebuild's order, with `rowid` first for a
  /// table whose rowid is not one of them (an INTEGER PRIMARY KEY is the rowid's own name):
  /// rows keep their ids.
  let columns: String

  /// What one call copied.
  struct Step: Sendable, Hashable {
    var copied = 0
    /// The rowid copied up to (every rowid at or below it was copied or is unreadable).
    var reached: Int64
    /// Rowid ranges that could not be read, in order.
    var unreadable: [ClosedRange<Int64>] = []
    /// Whether the live table holds no row beyond `reached` (that can be found).
    var isAtEnd = false
    /// Whether the live table could not be read beyond `reached` at all (its last rows
    /// are unreadable, however many there were).
    var tailUnreadable = false
  }

  init(database: Database, table: String, withoutRowID: Bool = false) throws(StoreError) {
    self.database = database
    self.table = table
    let mine = try Self.columns(of: table, in: "main", database)
    let theirs = Set(try Self.columns(of: table, in: "live", database).map(\.name))
    var names = mine.filter { theirs.contains($0.name) }.map { "\"\($0.name)\"" }
    let integerKeys = mine.filter { $0.primaryKey && $0.type.uppercased() == "INTEGER" }
    let rowidIsAColumn = integerKeys.count == 1 && mine.filter(\.primaryKey).count == 1
    if !withoutRowID && !rowidIsAColumn { names.insert("rowid", at: 0) }
    columns = names.joined(separator: ", ")
  }

  /// Copies at most `limit` rows after rowid `after`.
  func copy(after: Int64, limit: Int) throws(StoreError) -> Step {
    let list = columns
    do {
      let copied = try run(
        "INSERT OR IGNORE INTO main.\"\(table)\" (\(list)) SELECT \(list) FROM live.\"\(table)\" "
          + "WHERE rowid > ?1 ORDER BY rowid LIMIT ?2", after, Int64(limit))
      let reached = try database.scalarInt64("SELECT max(rowid) FROM main.\"\(table)\"") ?? after
      return Step(copied: copied, reached: max(after, reached), isAtEnd: copied < limit)
    } catch .corrupt(let failure) {
      // Inside a transaction nothing more can be read: the caller copies again outside one.
      if database.isInTransaction { throw .corrupt(failure) }
      return try narrow(after: after, span: Int64(limit), columns: list)
    }
  }

  /// The rows after `after` within the next `span` rowids, copied by halves around what
  /// cannot be read.
  private func narrow(after: Int64, span: Int64, columns list: String) throws(StoreError) -> Step {
    var step = Step(reached: after + span)
    var pending: [ClosedRange<Int64>] = [(after + 1)...(after + span)]
    while let range = pending.popLast() {
      do {
        step.copied += try run(
          "INSERT OR IGNORE INTO main.\"\(table)\" (\(list)) SELECT \(list) FROM live.\"\(table)\" "
            + "WHERE rowid BETWEEN ?1 AND ?2", range.lowerBound, range.upperBound)
      } catch .corrupt {
        guard range.count > 1 else {
          step.unreadable.append(range)
          continue
        }
        let middle = range.lowerBound + (range.upperBound - range.lowerBound) / 2
        // Upper half first on the stack, so the lower half is tried first.
        pending.append((middle + 1)...range.upperBound)
        pending.append(range.lowerBound...middle)
      }
    }
    step.unreadable = Self.merged(step.unreadable)
    // Past a damaged stretch, the next row that can be found (the live table's b-tree may
    // be unreadable beyond it too: then the copy of this table ends here).
    do {
      let last = try database.scalarInt64("SELECT max(rowid) FROM live.\"\(table)\"") ?? 0
      step.isAtEnd = last <= step.reached
    } catch .corrupt {
      step.isAtEnd = true
      step.tailUnreadable = true
    }
    return step
  }

  private func run(_ sql: String, _ first: Int64, _ second: Int64) throws(StoreError) -> Int {
    try database.withStatement(sql) { (s) throws(StoreError) -> Int in
      try s.bind(first, at: 1)
      try s.bind(second, at: 2)
      try s.step()
      return database.changes
    }
  }

  static func merged(_ ranges: [ClosedRange<Int64>]) -> [ClosedRange<Int64>] {
    var result: [ClosedRange<Int64>] = []
    for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) {
      if let last = result.last, range.lowerBound <= last.upperBound + 1 {
        result[result.count - 1] = last.lowerBound...max(last.upperBound, range.upperBound)
      } else {
        result.append(range)
      }
    }
    return result
  }

  struct Column {
    var name: String
    var type: String
    var primaryKey: Bool
  }

  static func columns(of table: String, in schema: String, _ database: Database) throws(StoreError) -> [Column] {
    try database.withStatement("SELECT name, type, pk FROM pragma_table_info(?1, ?2)") {
      (s) throws(StoreError) -> [Column] in
      try s.bind(table, at: 1)
      try s.bind(schema, at: 2)
      var columns: [Column] = []
      while try s.step() {
        columns.append(Column(name: s.text(0) ?? "", type: s.text(1) ?? "", primaryKey: s.int64(2) != 0))
      }
      return columns
    }
  }
}

extension RowCopier {
  /// Copies every row at once: a table without rowids (small: the schema extensions'
  /// versions), which cannot be walked by rowid.
  func copyAll() throws(StoreError) {
    try database.execute(
      "INSERT OR IGNORE INTO main.\"\(table)\" (\(columns)) SELECT \(columns) FROM live.\"\(table)\"")
  }
}
