import CSQLite
import Glibc

/// Says when rows of one table that a reader has already read may have gone or changed, at
/// no cost per row: counting the rows to find out would cost time proportional to the
/// table, on every status. `epoch` grows on each event after which that can be so:
/// - a DELETE or UPDATE of the table's rows on this connection (SQLite's update hook);
/// - the rollback of a transaction, or of a savepoint, in which rows were inserted into the
///   table on this connection (a reader inside the transaction may have read them);
/// - a commit by another connection (`PRAGMA data_version` moved), since what it did is not
///   seen here.
///
/// Inserts alone leave the epoch as it is: rows after the last one read are new rows, found
/// by their ids. So do deletes the store accounts for itself (`accountingForDeletes`): a
/// completed shift deleted whole, whose rows no reader of another shift has read.
final class RowWatch {
  let table: String
  private(set) var epoch: UInt64 = 0
  /// Set while the store deletes rows it accounts for.
  private var deletesAccountedFor = false
  /// Rows were inserted into the table since the outermost transaction began.
  private var insertedInTransaction = false
  private var dataVersion: Int64?

  init(table: String) { self.table = table }

  /// The update hook's report of one row: inserted, deleted or updated.
  func rowChanged(operation: Int32, table changed: UnsafePointer<CChar>) {
    guard strcmp(changed, table) == 0 else { return }
    if operation == SQLITE_INSERT {
      insertedInTransaction = true
    } else if !(operation == SQLITE_DELETE && deletesAccountedFor) {
      epoch &+= 1
    }
  }

  /// Runs `body`, whose deletes of the table's rows leave the epoch as it is: only for rows
  /// of a shift no reader measures (a completed shift being deleted whole; never the open
  /// shift, whose live figure would otherwise go on counting rows that are gone).
  func accountingForDeletes<T>(_ body: () throws(StoreError) -> T) throws(StoreError) -> T {
    deletesAccountedFor = true
    defer { deletesAccountedFor = false }
    return try body()
  }

  /// A write transaction begins: nothing is inserted in it yet.
  func transactionBegins() { insertedInTransaction = false }

  /// The whole transaction was rolled back (the rollback hook), or a savepoint of it was
  /// undone: rows it inserted may have been read and are gone.
  func rolledBack(savepointOnly: Bool) {
    if insertedInTransaction { epoch &+= 1 }
    if !savepointOnly { insertedInTransaction = false }
  }

  /// `PRAGMA data_version` as read now: a change means another connection committed.
  func observe(dataVersion current: Int64) {
    if let dataVersion, dataVersion != current { epoch &+= 1 }
    dataVersion = current
  }
}
