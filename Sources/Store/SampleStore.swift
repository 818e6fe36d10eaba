import DashPilotCore
import FoundationEssentials

/// The daemon's durable record: shifts, capture sessions and the samples of each shift, in
/// one SQLite file. Every call blocks on the disk, so the store belongs to one thread of
/// the daemon's own (never the Swift concurrency pool); it is deliberately not Sendable.
///
/// Nothing derived is persisted: a shift's distance is measured from its rows whenever it
/// is asked (`recordedDistance(ofShift:)`).
public final class SampleStore {
  /// The connection. Other modules reach it only through `transaction`, `read` and the
  /// commit observer, each inside a transaction the store knows of.
  let database: Database
  /// What happened on open (created, migrated, or a damaged file moved aside), for the log.
  public private(set) var openReport: StoreOpenReport

  /// Capture sessions by row id and by identifier: a shift has a handful, read with every
  /// sample, so they are resolved in memory. Cleared whenever a write fails, since the rows
  /// they describe may have been rolled back.
  var sessionIDsByRow: [Int64: CaptureSessionID] = [:]
  var sessionRowsByID: [CaptureSessionID: Int64] = [:]
  var lastSessionResolved: (row: Int64, id: CaptureSessionID)?
  /// Told of every batch, completed shift and capture session inside the transaction that
  /// commits it (the uplink's outbox); nil when nothing listens.
  public var commitObserver: (any StoreCommitObserver)?
  /// Says when sample rows already read may have gone (`rowTally`).
  let sampleRowWatch: RowWatch
  /// How the timed commits of samples kept their time (`SampleBatch.flushIfDue`).
  public internal(set) var commitTally = CommitTally()

  /// How much a committed write is worth keeping through a power cut.
  public enum Durability: Sendable {
    /// synchronous=FULL: a committed transaction survives a power cut (the daemon's store).
    case powerCutSafe
    /// synchronous=OFF: no fsync per commit, for a file thrown away afterwards (a replay's).
    case disposable
  }

  /// Opens the store at `path`, creating it if needed. `now` names a damaged file moved
  /// aside. Throws `.newerSchema` (file untouched) for a file from a newer DashPilot.
  public convenience init(path: String, now: Date = Date(), durability: Durability = .powerCutSafe)
    throws(StoreError)
  {
    try self.init(path: path, now: now, vfs: nil, durability: durability)
  }

  /// `vfs` names a registered SQLite VFS; tests use one that injects I/O errors.
  init(path: String, now: Date, vfs: String?, durability: Durability = .powerCutSafe) throws(StoreError) {
    (database, openReport) = try DatabaseOpener.open(path: path, now: now, vfs: vfs)
    if durability == .disposable { try database.execute("PRAGMA synchronous = OFF") }
    sampleRowWatch = database.watchRows(ofTable: "samples")
  }

  /// A read-only connection to the store's file at `path`, for a thread that reads history
  /// beside the daemon's one writer: in WAL neither waits for the other, and each read
  /// transaction sees one committed snapshot. It never migrates or checks: the writer did
  /// that when it opened the file, so a file at another schema version is refused.
  public init(readingFrom path: String) throws(StoreError) {
    database = try Database(path: path, readOnly: true, vfs: nil)
    let version = try Schema.userVersion(database)
    guard version <= Schema.latestVersion else {
      throw .newerSchema(path: path, found: version, supported: Schema.latestVersion)
    }
    guard version == Schema.latestVersion else {
      throw .notMigrated(path: path, found: version, expected: Schema.latestVersion)
    }
    // A reader's page cache is its own: a long listing must not hold a writer's memory.
    try database.execute("PRAGMA cache_size = -1024")
    openReport = StoreOpenReport(path: path, foundSchemaVersion: version, schemaVersion: version, movedAside: nil)
    sampleRowWatch = database.watchRows(ofTable: "samples")
  }

  /// Forgets cached session rows after a failed write.
  func forgetCachedRows() {
    sessionIDsByRow.removeAll()
    sessionRowsByID.removeAll()
    lastSessionResolved = nil
  }

  /// A write transaction that forgets cached rows if it fails. Inside `transaction` it
  /// joins the enclosing one.
  func write<T>(_ operation: String, _ body: () throws(StoreError) -> T) throws(StoreError) -> T {
    do {
      return try database.writeTransaction(operation, body)
    } catch {
      forgetCachedRows()
      throw error.within(operation)
    }
  }

  /// The open transaction, for the commit observer to write its own tables in.
  var currentTransaction: StoreTransaction { StoreTransaction(database: database) }

  /// Creates or migrates another module's tables in this file (see `SchemaExtension`).
  /// Install before anything writes to them.
  public func install(_ schema: SchemaExtension) throws(StoreError) {
    try database.install(schema)
  }

  /// Runs `body` in one write transaction, with the statements an extension writes its
  /// tables with. The store's own writes called inside (`endShift`, `append`, ...) join it,
  /// so they, what their commit observer queues and what `body` writes commit together or
  /// not at all: a fleet command's effect, its reply in the outbox and the record that it
  /// was answered.
  public func transaction<T>(
    _ operation: String, _ body: (StoreTransaction) throws(StoreError) -> T
  ) throws(StoreError) -> T {
    try write(operation) { () throws(StoreError) -> T in try body(currentTransaction) }
  }

  /// Runs `body` in one read transaction (joining an open one): one snapshot of the file.
  public func read<T>(_ body: (StoreTransaction) throws(StoreError) -> T) throws(StoreError) -> T {
    try database.read(body)
  }

  /// Copies the write-ahead log into the file and empties it (a backup, a size measured).
  public func checkpoint() throws(StoreError) {
    _ = try database.textColumn("PRAGMA wal_checkpoint(TRUNCATE)")
  }

  /// The whole file's health as `PRAGMA quick_check` reports it (["ok"] when healthy): every
  /// page is read, so it takes time in proportion to the file (a reader's work, never the
  /// writer's at start-up). A file too damaged to be walked is reported as its error.
  public func quickCheck() throws(StoreError) -> [String] {
    do {
      return try database.textColumn("PRAGMA quick_check")
    } catch .corrupt(let failure) {
      return [failure.description]
    }
  }

  /// The whole file's health, as `PRAGMA integrity_check` reports it ("ok" when healthy).
  public func integrityCheck() throws(StoreError) -> [String] {
    try database.textColumn("PRAGMA integrity_check")
  }
}
