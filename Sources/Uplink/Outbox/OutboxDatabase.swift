import FoundationEssentials
import Store

/// The outbox through a connection of its own to the database file: the drain's (the
/// uplink service reads and deletes on its own queue, so WAL lets its reads pass the
/// store's writes), the benchmark's and the tests'. Each call is a transaction of its own.
public final class OutboxDatabase {
  public let path: String
  public let outbox: Outbox
  private let database: Database

  /// Opens (creating if needed) the file at `path` and installs the outbox's tables.
  public init(path: String, outbox: Outbox) throws(StoreError) {
    self.path = path
    self.outbox = outbox
    database = try Database(path: path)
    // WAL as the store sets it: a reader here never waits for the store's writer.
    _ = try database.textColumn("PRAGMA journal_mode = WAL")
    try database.install(Outbox.schema)
  }

  /// Creates or migrates another of the uplink's tables in the file (the command ledger).
  public func install(_ schema: SchemaExtension) throws(StoreError) {
    try database.install(schema)
  }

  /// Runs `body` in one write transaction (joining one the caller opened with this).
  public func transaction<T>(
    _ operation: String, _ body: (StoreTransaction) throws(StoreError) -> T
  ) throws(StoreError) -> T {
    try database.transaction(operation, body)
  }

  /// Queues `message` in a transaction of its own.
  @discardableResult
  public func enqueue(_ message: UplinkMessage, queuedAt: Date) throws(StoreError) -> OutboxOverflow? {
    try transaction("queue an uplink message") { (transaction) throws(StoreError) in
      try outbox.enqueue(message, queuedAt: queuedAt, in: transaction)
    }
  }

  public func peek(after: Int64 = 0, limit: Int) throws(StoreError) -> [OutboxEntry] {
    try database.read { (transaction) throws(StoreError) in try outbox.peek(after: after, limit: limit, in: transaction)
    }
  }

  /// Removes acknowledged entries in one transaction (one disk sync for a burst of
  /// acknowledgements); returns how many were still there.
  @discardableResult
  public func remove(sequences: [Int64]) throws(StoreError) -> Int {
    guard !sequences.isEmpty else { return 0 }
    return try transaction("remove acknowledged uplink messages") { (transaction) throws(StoreError) in
      try outbox.remove(sequences: sequences, in: transaction)
    }
  }

  public func depth() throws(StoreError) -> Int {
    try database.read { (transaction) throws(StoreError) in try outbox.depth(in: transaction) }
  }

  public func oldestQueuedAt() throws(StoreError) -> Date? {
    try database.read { (transaction) throws(StoreError) in try outbox.oldestQueuedAt(in: transaction) }
  }
}
