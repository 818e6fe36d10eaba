import CSQLite
import FoundationEssentials

/// A failed SQLite call: what was being done and SQLite's own message.
public struct OutboxError: Error, Sendable, Hashable, CustomStringConvertible {
  public var operation: String
  public var code: Int32
  public var message: String

  public var description: String { "uplink outbox: \(operation) failed (SQLite \(code)): \(message)" }
}

/// The few SQLite calls the outbox needs, over a connection someone else owns (the store's,
/// so that an enqueue shares the transaction that commits the batch). Statements are
/// prepared per call: the outbox runs a handful a second at most.
struct SQLiteConnection {
  let handle: OpaquePointer

  // SQLITE_TRANSIENT: SQLite copies bound text and blobs before the call returns.
  private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

  func execute(_ sql: String, operation: String) throws(OutboxError) {
    var message: UnsafeMutablePointer<CChar>?
    let code = sqlite3_exec(handle, sql, nil, nil, &message)
    if code != SQLITE_OK {
      let text = message.map { String(cString: $0) } ?? "unknown error"
      sqlite3_free(message)
      throw OutboxError(operation: operation, code: code, message: text)
    }
  }

  /// Runs `sql` with `bindings`, handing each row to `row`.
  func query(
    _ sql: String, _ bindings: [SQLiteValue] = [], operation: String, row: (SQLiteRow) throws -> Void = { _ in }
  ) throws(OutboxError) {
    var statement: OpaquePointer?
    guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
      throw failure(operation)
    }
    defer { sqlite3_finalize(statement) }
    for (offset, value) in bindings.enumerated() {
      let index = Int32(offset + 1)
      let code: Int32
      switch value {
      case .integer(let integer): code = sqlite3_bind_int64(statement, index, integer)
      case .real(let real): code = sqlite3_bind_double(statement, index, real)
      case .text(let text): code = sqlite3_bind_text(statement, index, text, -1, Self.transient)
      case .blob(let bytes):
        code = bytes.withUnsafeBytes { buffer in
          sqlite3_bind_blob(
            statement, index, buffer.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(buffer.count), Self.transient
          )
        }
      case .null: code = sqlite3_bind_null(statement, index)
      }
      guard code == SQLITE_OK else { throw failure(operation) }
    }
    while true {
      let step = sqlite3_step(statement)
      if step == SQLITE_DONE { return }
      guard step == SQLITE_ROW else { throw failure(operation) }
      do {
        try row(SQLiteRow(statement: statement))
      } catch let error as OutboxError {
        throw error
      } catch {
        throw OutboxError(operation: operation, code: SQLITE_ERROR, message: "\(error)")
      }
    }
  }

  var changes: Int { Int(sqlite3_changes(handle)) }

  private func failure(_ operation: String) -> OutboxError {
    OutboxError(operation: operation, code: sqlite3_errcode(handle), message: String(cString: sqlite3_errmsg(handle)))
  }
}

enum SQLiteValue {
  case integer(Int64)
  case real(Double)
  case text(String)
  case blob([UInt8])
  case null
}

struct SQLiteRow {
  let statement: OpaquePointer

  func integer(_ column: Int32) -> Int64 { sqlite3_column_int64(statement, column) }
  func real(_ column: Int32) -> Double { sqlite3_column_double(statement, column) }
  func isNull(_ column: Int32) -> Bool { sqlite3_column_type(statement, column) == SQLITE_NULL }

  func text(_ column: Int32) -> String {
    guard let pointer = sqlite3_column_text(statement, column) else { return "" }
    return String(cString: pointer)
  }

  func blob(_ column: Int32) -> [UInt8] {
    let count = Int(sqlite3_column_bytes(statement, column))
    guard count > 0, let pointer = sqlite3_column_blob(statement, column) else { return [] }
    return Array(UnsafeRawBufferPointer(start: pointer, count: count))
  }
}
