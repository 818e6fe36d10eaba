import CSQLite
import DashPilotCore

/// What SQLite said when an operation failed: kept whole so the daemon's log line says which
/// operation failed, SQLite's own words, and the (extended) result code.
public struct SQLiteFailure: Sendable, Hashable, CustomStringConvertible {
  /// What the store was doing, such as "insert samples" or "open /var/lib/...".
  public var operation: String
  /// SQLite's extended result code (for example SQLITE_IOERR_FSYNC).
  public var resultCode: Int32
  /// SQLite's message for the failure.
  public var message: String

  public init(operation: String, resultCode: Int32, message: String) {
    self.operation = operation
    self.resultCode = resultCode
    self.message = message
  }

  /// The primary result code (SQLITE_FULL, SQLITE_IOERR, ...).
  public var primaryResultCode: Int32 { resultCode & 0xff }

  public var description: String {
    "\(operation) failed: \(message) (SQLite result code \(resultCode))"
  }
}

/// Every way the store can fail, typed so that capture can tell a full disk from a bug, and
/// a refused request from a broken database.
public enum StoreError: Error, Sendable, Hashable, CustomStringConvertible {
  /// SQLITE_FULL: the disk (or the database's page limit) is full.
  case diskFull(SQLiteFailure)
  /// SQLITE_IOERR: the operating system reported an I/O error.
  case ioError(SQLiteFailure)
  /// SQLITE_CORRUPT or SQLITE_NOTADB: the file is not a healthy database.
  case corrupt(SQLiteFailure)
  /// SQLITE_BUSY or SQLITE_LOCKED: another connection held the database too long.
  case busy(SQLiteFailure)
  /// SQLITE_READONLY, SQLITE_CANTOPEN or SQLITE_PERM: the file cannot be written or opened.
  case cannotWrite(SQLiteFailure)
  /// SQLITE_CONSTRAINT: a row broke one of the schema's rules.
  case constraint(SQLiteFailure)
  /// Any other SQLite failure.
  case sqlite(SQLiteFailure)

  /// The file was written by a newer DashPilot; it is left exactly as it was.
  case newerSchema(path: String, found: Int32, supported: Int32)
  /// A reader opened a file its writer has not brought to this code's schema yet.
  case notMigrated(path: String, found: Int32, expected: Int32)
  /// A PRAGMA did not take effect (for example WAL refused on a file system without shared
  /// memory), so the durability the store promises would not hold.
  case settingRefused(pragma: String, result: String)
  /// The file could not be moved aside after it failed its integrity check.
  case couldNotMoveAside(path: String, reason: String)
  /// A copy of the store made while recording (`StoreRebuild`) could not be used; it was
  /// removed, and the live file is left as it was.
  case rebuildDiscarded(path: String, reason: String)

  /// A shift was started while another is still open.
  case shiftAlreadyOpen(Shift)
  case shiftNotFound(Int64)
  case shiftAlreadyEnded(Shift)
  /// Only a completed shift can be deleted.
  case shiftStillOpen(Shift)
  /// A request that needs the open shift was made with none open.
  case noOpenShift
  /// A setting that cannot be used, with what was wrong.
  case invalidSetting(String)
  /// A sample (or an imported position) that cannot be stored, with what was wrong.
  case invalidSample(String)
  /// A time that cannot be stored (not finite, or millennia away), with what it was for.
  case invalidTime(String)
  /// An import was given no positions.
  case emptyTrack
  case captureSessionAlreadyBegun(CaptureSessionID)
  case captureSessionNotFound(CaptureSessionID)
  case captureSessionAlreadyEnded(CaptureSessionID)

  /// SQLite's words when the failure came from SQLite.
  public var sqliteFailure: SQLiteFailure? {
    switch self {
    case .diskFull(let f), .ioError(let f), .corrupt(let f), .busy(let f), .cannotWrite(let f),
      .constraint(let f), .sqlite(let f):
      return f
    default:
      return nil
    }
  }

  /// The same error with `operation` named as the larger task it failed in, so the log says
  /// "save 10 samples: run INSERT ..." rather than only the statement.
  public func within(_ operation: String) -> StoreError {
    guard var failure = sqliteFailure else { return self }
    failure.operation = "\(operation): \(failure.operation)"
    return .sqlite(code: failure.resultCode, message: failure.message, operation: failure.operation)
  }

  /// Maps a SQLite result code to the case a caller acts on.
  public static func sqlite(code: Int32, message: String, operation: String) -> StoreError {
    let failure = SQLiteFailure(operation: operation, resultCode: code, message: message)
    switch code & 0xff {
    case SQLITE_FULL: return .diskFull(failure)
    case SQLITE_IOERR: return .ioError(failure)
    case SQLITE_CORRUPT, SQLITE_NOTADB: return .corrupt(failure)
    case SQLITE_BUSY, SQLITE_LOCKED: return .busy(failure)
    case SQLITE_READONLY, SQLITE_CANTOPEN, SQLITE_PERM: return .cannotWrite(failure)
    case SQLITE_CONSTRAINT: return .constraint(failure)
    default: return .sqlite(failure)
    }
  }

  public var description: String {
    switch self {
    case .diskFull(let f): "disk full: \(f)"
    case .ioError(let f): "I/O error: \(f)"
    case .corrupt(let f): "database corrupt: \(f)"
    case .busy(let f): "database busy: \(f)"
    case .cannotWrite(let f): "database cannot be written: \(f)"
    case .constraint(let f): "rejected by the schema: \(f)"
    case .sqlite(let f): "\(f)"
    case let .newerSchema(path, found, supported):
      "\(path) has schema version \(found), newer than the \(supported) this DashPilot understands; "
        + "it was left unchanged (upgrade DashPilot or point it at another database)"
    case let .notMigrated(path, found, expected):
      "\(path) has schema version \(found), not the \(expected) this DashPilot reads; dashpilotd migrates it when it starts"
    case let .settingRefused(pragma, result):
      "SQLite refused \(pragma) (it answered \"\(result)\"), so writes would not be durable"
    case let .couldNotMoveAside(path, reason):
      "\(path) failed its integrity check and could not be moved aside: \(reason)"
    case let .rebuildDiscarded(path, reason):
      "the copy \(path) could not be used and was removed: \(reason)"
    case .shiftAlreadyOpen(let shift): "shift \(shift.id) is still open; end it before starting another"
    case .shiftNotFound(let id): "no shift with id \(id)"
    case .shiftAlreadyEnded(let shift): "shift \(shift.id) has already ended"
    case .shiftStillOpen(let shift): "shift \(shift.id) is still open; only a completed shift is deleted"
    case .noOpenShift: "no shift is open"
    case .invalidSetting(let reason): "setting refused: \(reason)"
    case .invalidSample(let reason): "sample not stored: \(reason)"
    case .invalidTime(let reason): "time not stored: \(reason)"
    case .emptyTrack: "the track to import has no positions"
    case .captureSessionAlreadyBegun(let id): "capture session \(id) has already begun"
    case .captureSessionNotFound(let id): "no capture session \(id)"
    case .captureSessionAlreadyEnded(let id): "capture session \(id) has already ended"
    }
  }
}
