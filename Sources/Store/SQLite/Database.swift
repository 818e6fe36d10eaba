import CSQLite

/// A connection to one SQLite file: the one SQLite wrapper, for the store's own tables and
/// for the schema extensions other modules keep in the same file (the uplink's outbox).
/// Not thread-safe by design: the daemon owns its store from one thread (never the Swift
/// concurrency pool, since every call blocks on the disk).
public final class Database {
  let handle: OpaquePointer
  public let path: String
  private var statements: [String: Statement] = [:]
  /// Watches one table's rows for removals (`watchRows(ofTable:)`); its hooks hold an
  /// unretained pointer to it, so the connection keeps it for as long as they are set.
  private(set) var rowWatch: RowWatch?

  /// Opens (creating if needed) the file at `path`.
  public convenience init(path: String, readOnly: Bool = false) throws(StoreError) {
    try self.init(path: path, readOnly: readOnly, vfs: nil)
  }

  /// `vfs` names a registered SQLite VFS (nil: the default); tests use one that injects
  /// I/O errors into the real file system.
  init(path: String, readOnly: Bool, vfs: String?) throws(StoreError) {
    var db: OpaquePointer?
    let flags =
      (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) | SQLITE_OPEN_NOMUTEX
    let rc = sqlite3_open_v2(path, &db, flags, vfs)
    guard rc == SQLITE_OK, let db else {
      let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(rc))
      let code = db.map { sqlite3_extended_errcode($0) } ?? rc
      sqlite3_close_v2(db)
      throw .sqlite(code: code, message: message, operation: "open \(path)")
    }
    sqlite3_extended_result_codes(db, 1)
    // Another process (dashpilotctl reading, a backup) may hold a lock briefly.
    sqlite3_busy_timeout(db, 5_000)
    handle = db
    self.path = path
  }

  deinit {
    for statement in statements.values { statement.finalize() }
    sqlite3_update_hook(handle, nil, nil)
    sqlite3_rollback_hook(handle, nil, nil)
    sqlite3_close_v2(handle)
  }

  /// Starts watching `table` for rows that go or change (see `RowWatch`). One table per
  /// connection.
  func watchRows(ofTable table: String) -> RowWatch {
    if let rowWatch { return rowWatch }
    let watch = RowWatch(table: table)
    rowWatch = watch
    let context = Unmanaged.passUnretained(watch).toOpaque()
    sqlite3_update_hook(
      handle,
      { context, operation, _, table, _ in
        guard let context, let table else { return }
        Unmanaged<RowWatch>.fromOpaque(context).takeUnretainedValue().rowChanged(operation: operation, table: table)
      }, context)
    sqlite3_rollback_hook(
      handle,
      { context in
        guard let context else { return }
        Unmanaged<RowWatch>.fromOpaque(context).takeUnretainedValue().rolledBack(savepointOnly: false)
      }, context)
    return watch
  }

  /// Runs `sql` (one or more statements, no parameters, rows ignored).
  public func execute(_ sql: String) throws(StoreError) {
    var message: UnsafeMutablePointer<CChar>?
    let rc = sqlite3_exec(handle, sql, nil, nil, &message)
    guard rc != SQLITE_OK else { return }
    let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(rc))
    sqlite3_free(message)
    throw .sqlite(
      code: sqlite3_extended_errcode(handle), message: text,
      operation: "run \"\(Statement.abbreviated(sql))\"")
  }

  /// Runs `body` with the cached statement for `sql`, then resets it for its next use.
  public func withStatement<T>(
    _ sql: String, _ body: (Statement) throws(StoreError) -> T
  ) throws(StoreError) -> T {
    let statement = try prepared(sql)
    defer { statement.reset() }
    return try body(statement)
  }

  /// The first column of the first row of `sql` as text, or nil when there is no row.
  public func scalarText(_ sql: String) throws(StoreError) -> String? {
    try withStatement(sql) { (s) throws(StoreError) -> String? in try s.step() ? s.text(0) : nil }
  }

  public func scalarInt64(_ sql: String) throws(StoreError) -> Int64? {
    try withStatement(sql) { (s) throws(StoreError) -> Int64? in try s.step() ? s.optionalInt64(0) : nil }
  }

  /// Every row of the first column of `sql` as text (PRAGMA quick_check, for one).
  public func textColumn(_ sql: String) throws(StoreError) -> [String] {
    try withStatement(sql) { (s) throws(StoreError) -> [String] in
      var rows: [String] = []
      while try s.step() { rows.append(s.text(0) ?? "") }
      return rows
    }
  }

  /// Whether a transaction is open on this connection.
  public var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

  /// The rowid of the last row inserted on this connection.
  public var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

  /// Rows changed by the last INSERT, UPDATE or DELETE on this connection.
  public var changes: Int { Int(sqlite3_changes(handle)) }

  /// Runs `body` in one write transaction (BEGIN IMMEDIATE, so it never fails half-way for
  /// want of a lock). Any failure, including one at COMMIT, rolls back, so either all of
  /// `body`'s writes are committed or none are. Inside an open transaction it is a
  /// savepoint of it: a failure undoes `body`'s writes alone and is thrown on to the
  /// enclosing one, which commits or rolls back everything together (a command's effect,
  /// its reply and the record that it was answered).
  public func writeTransaction<T>(
    _ operation: String, _ body: () throws(StoreError) -> T
  ) throws(StoreError) -> T {
    guard !isInTransaction else {
      do {
        return try bracket(
          "SAVEPOINT store_write", "RELEASE store_write", undo: "ROLLBACK TO store_write; RELEASE store_write", body)
      } catch {
        // SQLite's rollback hook is not told of a savepoint undone.
        rowWatch?.rolledBack(savepointOnly: true)
        throw error
      }
    }
    rowWatch?.transactionBegins()
    return try bracket("BEGIN IMMEDIATE", "COMMIT", undo: "ROLLBACK", body)
  }

  /// `writeTransaction`, with the statements a schema extension runs in it.
  public func transaction<T>(
    _ operation: String, _ body: (StoreTransaction) throws(StoreError) -> T
  ) throws(StoreError) -> T {
    try writeTransaction(operation) { () throws(StoreError) -> T in try body(StoreTransaction(database: self)) }
  }

  /// `readTransaction`, with the statements a schema extension runs in it.
  public func read<T>(_ body: (StoreTransaction) throws(StoreError) -> T) throws(StoreError) -> T {
    try readTransaction { () throws(StoreError) -> T in try body(StoreTransaction(database: self)) }
  }

  /// Runs `body` inside one read transaction so every query sees the same snapshot; inside
  /// an open transaction it simply joins it.
  public func readTransaction<T>(_ body: () throws(StoreError) -> T) throws(StoreError) -> T {
    guard !isInTransaction else { return try body() }
    return try bracket("BEGIN DEFERRED", "COMMIT", undo: "ROLLBACK", body)
  }

  /// Runs `body` with SQLite's foreign-key checks off, for a delete of parent rows the caller
  /// has shown no row still names: without an index on the child column, SQLite checks each
  /// one by reading the whole child table. Outside any transaction only (SQLite ignores the
  /// pragma inside one); the checks are back on however `body` ends.
  func withoutForeignKeyChecks<T>(_ body: () throws(StoreError) -> T) throws(StoreError) -> T {
    precondition(!isInTransaction, "foreign_keys cannot change inside a transaction")
    try execute("PRAGMA foreign_keys = OFF")
    defer { _ = sqlite3_exec(handle, "PRAGMA foreign_keys = ON", nil, nil, nil) }
    return try body()
  }

  /// `body` between `begin` and `end`; on any failure, `undo`, then the error. SQLite may
  /// already have rolled back after SQLITE_FULL or SQLITE_IOERR: `undo` runs only while a
  /// transaction is still open, and a failed undo never hides the original error.
  private func bracket<T>(
    _ begin: String, _ end: String, undo: String, _ body: () throws(StoreError) -> T
  ) throws(StoreError) -> T {
    try execute(begin)
    do {
      let result = try body()
      try execute(end)
      return result
    } catch {
      if isInTransaction { _ = sqlite3_exec(handle, undo, nil, nil, nil) }
      throw error
    }
  }

  private func prepared(_ sql: String) throws(StoreError) -> Statement {
    if let cached = statements[sql] { return cached }
    var statement: OpaquePointer?
    let rc = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
    guard rc == SQLITE_OK, let statement else {
      throw .sqlite(
        code: sqlite3_extended_errcode(handle), message: String(cString: sqlite3_errmsg(handle)),
        operation: "prepare \"\(Statement.abbreviated(sql))\"")
    }
    let wrapped = Statement(handle: statement, sql: sql)
    statements[sql] = wrapped
    return wrapped
  }
}
