import CSQLite

/// One prepared statement. `Database` caches these by their SQL, so a statement run for
/// every sample is compiled once; `Database.withStatement` resets it after each use.
public final class Statement {
  let handle: OpaquePointer
  public let sql: String

  init(handle: OpaquePointer, sql: String) {
    self.handle = handle
    self.sql = sql
  }

  /// SQLite copies the text before `bind` returns (SQLITE_TRANSIENT), so the Swift string's
  /// temporary buffer may go away at once.
  private static var transient: sqlite3_destructor_type {
    unsafeBitCast(-1 as Int, to: sqlite3_destructor_type.self)
  }

  public func bind(_ value: Int64?, at index: Int32) throws(StoreError) {
    let rc = value.map { sqlite3_bind_int64(handle, index, $0) } ?? sqlite3_bind_null(handle, index)
    try check(rc, "bind parameter \(index)")
  }

  public func bind(_ value: Double?, at index: Int32) throws(StoreError) {
    let rc = value.map { sqlite3_bind_double(handle, index, $0) } ?? sqlite3_bind_null(handle, index)
    try check(rc, "bind parameter \(index)")
  }

  public func bind(_ value: String?, at index: Int32) throws(StoreError) {
    let rc: Int32
    if let value {
      rc = sqlite3_bind_text(handle, index, value, -1, Self.transient)
    } else {
      rc = sqlite3_bind_null(handle, index)
    }
    try check(rc, "bind parameter \(index)")
  }

  /// The bytes are copied before `bind` returns, as text is.
  public func bind(_ value: [UInt8]?, at index: Int32) throws(StoreError) {
    let rc: Int32
    if let value {
      rc = value.withUnsafeBytes { buffer in
        // A zero-length blob still needs a non-null pointer, or SQLite binds NULL.
        sqlite3_bind_blob(
          handle, index, buffer.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(buffer.count), Self.transient)
      }
    } else {
      rc = sqlite3_bind_null(handle, index)
    }
    try check(rc, "bind parameter \(index)")
  }

  public func bind(_ value: SQLValue, at index: Int32) throws(StoreError) {
    switch value {
    case .integer(let integer): try bind(integer, at: index)
    case .real(let real): try bind(real, at: index)
    case .text(let text): try bind(text, at: index)
    case .blob(let bytes): try bind(bytes, at: index)
    case .null: try bind(nil as Int64?, at: index)
    }
  }

  /// Runs to the next row: true when a row is ready to read, false when done.
  @discardableResult
  public func step() throws(StoreError) -> Bool {
    let rc = sqlite3_step(handle)
    switch rc {
    case SQLITE_ROW: return true
    case SQLITE_DONE: return false
    default: throw error(rc, "run \"\(Self.abbreviated(sql))\"")
    }
  }

  @inline(__always)
  public func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }

  @inline(__always)
  public func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }

  /// NULL reads as 0, so only a 0 needs the column's type: this runs for several columns
  /// of every row a shift's measurement reads.
  @inline(__always)
  public func optionalInt64(_ column: Int32) -> Int64? {
    let value = int64(column)
    return value == 0 && isNull(column) ? nil : value
  }

  public func double(_ column: Int32) -> Double { sqlite3_column_double(handle, column) }

  public func text(_ column: Int32) -> String? {
    guard let bytes = sqlite3_column_text(handle, column) else { return nil }
    return String(cString: bytes)
  }

  public func blob(_ column: Int32) -> [UInt8] {
    let count = Int(sqlite3_column_bytes(handle, column))
    guard count > 0, let pointer = sqlite3_column_blob(handle, column) else { return [] }
    return Array(UnsafeRawBufferPointer(start: pointer, count: count))
  }

  /// Makes the statement ready to run again, with no parameters bound.
  func reset() {
    sqlite3_reset(handle)
    sqlite3_clear_bindings(handle)
  }

  func finalize() { sqlite3_finalize(handle) }

  /// `operation` is built only for a failure: a bind runs for every column of every row
  /// written, and building its name each time cost more than the bind.
  private func check(_ rc: Int32, _ operation: @autoclosure () -> String) throws(StoreError) {
    guard rc != SQLITE_OK else { return }
    throw error(rc, operation())
  }

  private func error(_ rc: Int32, _ operation: String) -> StoreError {
    // The extended code of the connection is more specific than the step's return value.
    let db = sqlite3_db_handle(handle)
    let extended = db.map { sqlite3_extended_errcode($0) } ?? rc
    let code = (extended & 0xff) == (rc & 0xff) ? extended : rc
    let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(rc))
    return .sqlite(code: code, message: message, operation: operation)
  }

  static func abbreviated(_ sql: String) -> String {
    let oneLine = sql.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    return oneLine.count > 60 ? String(oneLine.prefix(57)) + "..." : oneLine
  }
}
