import CPostgres
import FoundationEssentials
import PlatformSupport

#if canImport(Glibc)
  import Glibc
#endif

/// One libpq connection, used by one thread at a time: statements in text form, COPY in,
/// and errors that keep PostgreSQL's SQLSTATE so the caller can tell a full disk from a
/// lost server from a row the server refuses.
public final class PostgresConnection {
  private var handle: OpaquePointer?

  /// Connects with a libpq connection string (`host=... dbname=...`, or a URI).
  public init(_ conninfo: String) throws(PostgresError) {
    handle = PQconnectdb(conninfo)
    guard let handle, PQstatus(handle) == CONNECTION_OK else {
      let message = handle.map { String(cString: PQerrorMessage($0)) } ?? "out of memory"
      if let handle { PQfinish(handle) }
      self.handle = nil
      throw PostgresError(sqlState: nil, message: Self.trimmed(message), connectionLost: true)
    }
    // NOTICEs ("already exists, skipping") are not errors; libpq would print them.
    PQsetNoticeProcessor(handle, { _, _ in }, nil)
  }

  deinit { close() }

  public func close() {
    if let handle { PQfinish(handle) }
    handle = nil
  }

  public var isOpen: Bool { handle.map { PQstatus($0) == CONNECTION_OK } ?? false }

  /// The server's process id for this connection (what pg_stat_activity calls `pid`).
  public var backendPID: Int32 { handle.map { PQbackendPID($0) } ?? 0 }

  /// Runs `sql` (one or more statements, no parameters) and returns the last result.
  @discardableResult
  public func execute(_ sql: String) throws(PostgresError) -> PostgresResult {
    let handle = try open()
    return try checked(PQexec(handle, sql), handle)
  }

  /// Runs one statement with `$1`, `$2`, ... bound to `parameters` in text form (nil: NULL).
  @discardableResult
  public func execute(_ sql: String, _ parameters: [String?]) throws(PostgresError) -> PostgresResult {
    let handle = try open()
    var texts = parameters.map { $0.map { strdup($0) } ?? nil }
    defer { for text in texts { free(text) } }
    let result = texts.withUnsafeMutableBufferPointer { buffer in
      buffer.withMemoryRebound(to: UnsafePointer<CChar>?.self) { values in
        PQexecParams(handle, sql, Int32(parameters.count), nil, values.baseAddress, nil, nil, 0)
      }
    }
    return try checked(result, handle)
  }

  /// `COPY ... FROM STDIN` with `data` in COPY's text format (`CopyText`).
  public func copy(_ statement: String, data: [UInt8]) throws(PostgresError) {
    let handle = try open()
    let started = PQexec(handle, statement)
    let status = PQresultStatus(started)
    guard status == PGRES_COPY_IN else {
      _ = try checked(started, handle)
      throw PostgresError(sqlState: nil, message: "\(statement) did not start a COPY", connectionLost: false)
    }
    PQclear(started)
    let sent = data.withUnsafeBufferPointer { buffer in
      buffer.withMemoryRebound(to: CChar.self) { PQputCopyData(handle, $0.baseAddress, Int32($0.count)) }
    }
    let ended = sent == 1 ? PQputCopyEnd(handle, nil) : -1
    // The COPY's own result, then the NULL that ends it.
    var failure: PostgresError?
    while let result = PQgetResult(handle) {
      if failure == nil, PQresultStatus(result) != PGRES_COMMAND_OK { failure = error(from: result, handle) }
      PQclear(result)
    }
    if let failure { throw failure }
    guard ended == 1 else { throw lost(handle) }
  }

  private func open() throws(PostgresError) -> OpaquePointer {
    guard let handle else {
      throw PostgresError(sqlState: nil, message: "the connection is closed", connectionLost: true)
    }
    return handle
  }

  private func checked(_ result: OpaquePointer?, _ handle: OpaquePointer) throws(PostgresError) -> PostgresResult {
    guard let result else { throw lost(handle) }
    switch PQresultStatus(result) {
    case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY:
      return PostgresResult(result)
    default:
      let failure = error(from: result, handle)
      PQclear(result)
      throw failure
    }
  }

  private func error(from result: OpaquePointer, _ handle: OpaquePointer) -> PostgresError {
    let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) }
    // The primary message alone ("could not extend file ...: No space left on device"),
    // without the "ERROR:" and the HINT and CONTEXT lines the full text adds.
    let text = PQresultErrorField(result, Int32(UInt8(ascii: "M"))).map { String(cString: $0) } ?? ""
    return PostgresError(
      sqlState: state, message: Self.trimmed(text.isEmpty ? String(cString: PQerrorMessage(handle)) : text),
      connectionLost: PQstatus(handle) != CONNECTION_OK)
  }

  private func lost(_ handle: OpaquePointer) -> PostgresError {
    PostgresError(
      sqlState: nil, message: Self.trimmed(String(cString: PQerrorMessage(handle))),
      connectionLost: PQstatus(handle) != CONNECTION_OK)
  }

  static func trimmed(_ text: String) -> String {
    text.split(separator: "\n").map { String($0).trimmingSpacesAndTabs }.joined(separator: " ")
  }
}

/// The rows of a result, read as text; freed with the value.
public final class PostgresResult {
  private let handle: OpaquePointer

  init(_ handle: OpaquePointer) { self.handle = handle }
  deinit { PQclear(handle) }

  public var rowCount: Int { Int(PQntuples(handle)) }
  public var columnCount: Int { Int(PQnfields(handle)) }
  /// Rows a command touched (INSERT's count), 0 when it says none.
  public var affectedRows: Int { Int(String(cString: PQcmdTuples(handle))) ?? 0 }

  /// The text of row `row`, column `column`; nil for NULL.
  public func value(_ row: Int, _ column: Int) -> String? {
    guard PQgetisnull(handle, Int32(row), Int32(column)) == 0 else { return nil }
    return String(cString: PQgetvalue(handle, Int32(row), Int32(column)))
  }

  /// Every row, each as its columns' texts.
  public var rows: [[String?]] {
    (0..<rowCount).map { row in (0..<columnCount).map { value(row, $0) } }
  }
}
