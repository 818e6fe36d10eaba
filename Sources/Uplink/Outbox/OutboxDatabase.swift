import CSQLite
import FoundationEssentials

/// A SQLite file of the outbox's own, for running the uplink without the store (the
/// benchmark, a standalone tool). The daemon passes the store's connection to `Outbox`
/// instead, so a batch and its message share one transaction.
public final class OutboxDatabase {
  public let path: String
  public let handle: OpaquePointer

  public init(path: String) throws(OutboxError) {
    var handle: OpaquePointer?
    let code = sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil)
    guard code == SQLITE_OK, let handle else {
      let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
      sqlite3_close_v2(handle)
      throw OutboxError(operation: "open \(path)", code: code, message: message)
    }
    self.path = path
    self.handle = handle
    let connection = SQLiteConnection(handle: handle)
    try connection.execute("PRAGMA journal_mode=WAL; PRAGMA busy_timeout=5000", operation: "configure \(path)")
    try Outbox.createSchema(on: handle)
  }

  /// Runs `body` in one IMMEDIATE transaction: committed if it returns, rolled back if it throws.
  @discardableResult
  public func transaction<T>(_ body: () throws -> T) throws -> T {
    let connection = SQLiteConnection(handle: handle)
    try connection.execute("BEGIN IMMEDIATE", operation: "begin a transaction")
    do {
      let result = try body()
      try connection.execute("COMMIT", operation: "commit a transaction")
      return result
    } catch {
      try? connection.execute("ROLLBACK", operation: "roll back a transaction")
      throw error
    }
  }

  deinit { sqlite3_close_v2(handle) }
}
