/// A value bound to a statement's parameter.
public enum SQLValue: Sendable, Hashable {
  case integer(Int64)
  case real(Double)
  case text(String)
  case blob([UInt8])
  case null
}

/// The store's connection inside one transaction, handed to what writes its own tables in
/// it: a commit observer (the uplink queues a message in the transaction that commits what
/// it describes) or the body of `SampleStore.transaction`. What it runs commits or rolls
/// back with the rest; it is valid only inside the call it was given to.
public struct StoreTransaction {
  let database: Database

  /// Runs `sql` (one statement, prepared once and cached) with `bindings`, handing each
  /// row to `row`.
  public func query(
    _ sql: String, _ bindings: [SQLValue] = [], row: (Statement) throws(StoreError) -> Void = { _ in }
  ) throws(StoreError) {
    try database.withStatement(sql) { (statement) throws(StoreError) in
      for (offset, value) in bindings.enumerated() { try statement.bind(value, at: Int32(offset + 1)) }
      while try statement.step() { try row(statement) }
    }
  }

  /// Rows changed by the last statement.
  public var changes: Int { database.changes }

  /// A nested step: a savepoint whose writes a failure undoes alone (see
  /// `Database.writeTransaction`).
  public func savepoint<T>(_ body: () throws(StoreError) -> T) throws(StoreError) -> T {
    try database.writeTransaction("savepoint", body)
  }
}
