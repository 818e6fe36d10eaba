import FoundationEssentials
import Store

/// The record of fleet commands, in the store's file: each command id the box was given,
/// with the request as it arrived and, once answered, the reply. It is what makes a
/// command take effect once however often it is delivered (a QoS 1 redelivery, a sender's
/// retry): an id already recorded is never run again, and an answered one is answered with
/// its stored reply. A command's answer is recorded in the transaction that carries out its
/// effect and queues the reply, so a crash leaves either all three or none; a command
/// recorded but never answered (the box stopped while it ran) is run again at the next
/// start. Answered ids are kept at least `retention` and the last `keptAtLeast` of them.
public struct CommandLedger: Sendable {
  /// How long an answered id is remembered at least: a dispatcher's retries and a broker's
  /// redeliveries come within it.
  public static let retention: TimeInterval = 24 * 3600
  /// How many answered ids are remembered at least, however old.
  public static let keptAtLeast = 10_000

  public init() {}

  public static let schema = SchemaExtension(
    name: "uplink_commands",
    migrations: [
      SchemaExtension.Migration(
        version: 1,
        statements: [
          """
          CREATE TABLE uplink_commands (
            seq INTEGER PRIMARY KEY,
            id TEXT NOT NULL UNIQUE,
            command TEXT NOT NULL,
            received_at REAL NOT NULL,
            request BLOB NOT NULL,
            answered_at REAL,
            reply BLOB
          )
          """,
          "CREATE INDEX uplink_commands_unanswered ON uplink_commands (seq) WHERE answered_at IS NULL",
        ])
    ])

  /// What recording an arriving command found.
  public enum Recorded: Sendable, Hashable {
    /// Never seen: recorded now, to be run.
    case new
    /// Seen and answered: this is the reply to send again.
    case answered(CommandReply)
    /// Seen and not answered yet: it is running (or runs at the next start).
    case running
  }

  /// Records command `id` as received, unless it was before.
  public func record(
    id: String, command: String, request: [UInt8], receivedAt: Date, in transaction: StoreTransaction
  ) throws(StoreError) -> Recorded {
    try transaction.query(
      "INSERT OR IGNORE INTO uplink_commands (id, command, received_at, request) VALUES (?, ?, ?, ?)",
      [.text(id), .text(command), .real(receivedAt.timeIntervalSince1970), .blob(request)])
    if transaction.changes == 1 { return .new }
    var reply: [UInt8]?
    try transaction.query("SELECT reply FROM uplink_commands WHERE id = ?", [.text(id)]) { row in
      reply = row.isNull(0) ? nil : row.blob(0)
    }
    return reply.map { .answered(CommandReply(id: id, payload: $0)) } ?? .running
  }

  /// Records the reply to command `id`: from now on the id is answered with it.
  public func answer(_ reply: CommandReply, at answeredAt: Date, in transaction: StoreTransaction) throws(StoreError) {
    try transaction.query(
      "UPDATE uplink_commands SET answered_at = ?, reply = ? WHERE id = ?",
      [.real(answeredAt.timeIntervalSince1970), .blob(reply.payload), .text(reply.id)])
  }

  /// The stored reply to `id`, if it was answered.
  public func reply(to id: String, in transaction: StoreTransaction) throws(StoreError) -> CommandReply? {
    var reply: CommandReply?
    try transaction.query("SELECT reply FROM uplink_commands WHERE id = ? AND answered_at IS NOT NULL", [.text(id)]) {
      row in reply = row.isNull(0) ? nil : CommandReply(id: id, payload: row.blob(0))
    }
    return reply
  }

  /// Commands recorded but never answered, in the order they arrived, as they arrived.
  public func unanswered(in transaction: StoreTransaction) throws(StoreError) -> [(id: String, request: [UInt8])] {
    var rows: [(id: String, request: [UInt8])] = []
    try transaction.query("SELECT id, request FROM uplink_commands WHERE answered_at IS NULL ORDER BY seq") { row in
      rows.append((row.text(0) ?? "", row.blob(1)))
    }
    return rows
  }

  /// Forgets answered ids that are both older than `retention` at `now` and not among the
  /// last `keptAtLeast`; returns how many.
  @discardableResult
  public func prune(now: Date, in transaction: StoreTransaction) throws(StoreError) -> Int {
    try transaction.query(
      """
      DELETE FROM uplink_commands WHERE answered_at IS NOT NULL AND answered_at < ?
        AND seq <= (SELECT max(seq) FROM uplink_commands) - ?
      """, [.real(now.timeIntervalSince1970 - Self.retention), .integer(Int64(Self.keptAtLeast))])
    return transaction.changes
  }

  /// How many ids are remembered (answered or not).
  public func count(in transaction: StoreTransaction) throws(StoreError) -> Int {
    var count = 0
    try transaction.query("SELECT count(*) FROM uplink_commands") { row in count = Int(row.int64(0)) }
    return count
  }
}
