import DashPilotCore
import Foundation
import Store
import TestSupport
import Testing

@testable import Uplink

/// A database file in a temporary directory, removed at the end; `open` gives the outbox
/// through a connection of its own, as the uplink service has it (again after a restart).
final class TestDatabase {
  let directory: URL
  let path: String

  init() throws {
    directory = try TestPaths.temporaryDirectory("uplink-outbox")
    path = directory.appendingPathComponent("dashpilot.sqlite").path
  }

  func open(vehicle: String = "v", bound: Int = 100) throws -> OutboxDatabase {
    try OutboxDatabase(path: path, outbox: Outbox(encoder: UplinkEncoder(vehicleID: vehicle), bound: bound))
  }

  deinit { try? FileManager.default.removeItem(at: directory) }
}

/// Queues `message` as the outbox's versions before 5 did (its columns then, no `counted`):
/// what a file an older DashPilot wrote holds.
func enqueueAsAnOlderVersion(
  _ message: UplinkMessage, vehicle: String, queuedAt: Date, in transaction: StoreTransaction
)
  throws(StoreError)
{
  var sequence: Int64 = 0
  try transaction.query(
    "UPDATE uplink_outbox_sequence SET last_sequence = last_sequence + 1 WHERE singleton = 1 RETURNING last_sequence"
  ) { row in sequence = row.int64(0) }
  let payload = UplinkEncoder(vehicleID: vehicle).encode(message, sequence: sequence, queuedAt: queuedAt)
  try transaction.query(
    "INSERT INTO uplink_outbox (sequence, topic, shift_id, sample_count, queued_at, payload) VALUES (?, ?, ?, ?, ?, ?)",
    [
      .integer(sequence), .text(message.topic.rawValue), message.shiftID.map(SQLValue.integer) ?? .null,
      .integer(Int64(message.sampleCount)), .real(queuedAt.timeIntervalSince1970), .blob(payload),
    ])
}

/// Sample batches for tests: `count` batches of `size` positions, one second apart.
func sampleBatches(count: Int, size: Int, shiftID: Int64 = 42) -> [UplinkMessage] {
  var builder = RouteBuilder(session: CaptureSessionID("cs-1"))
  for _ in 1..<(count * size) { builder.drive(12) }
  return (0..<count).map { index in
    .samples(CommittedSamples(shiftID: shiftID, samples: Array(builder.samples[(index * size)..<((index + 1) * size)])))
  }
}

@Suite struct OutboxTests {
  let t0 = Date(timeIntervalSince1970: 1_700_000_000)

  @Test func entriesComeBackInCommitOrderWithTheirExactPayload() throws {
    let database = try TestDatabase()
    let outbox = try database.open(vehicle: "van-7")
    let messages = sampleBatches(count: 3, size: 2)
    for (index, message) in messages.enumerated() {
      #expect(try outbox.enqueue(message, queuedAt: t0 + Double(index)) == nil)
    }
    #expect(try outbox.depth() == 3)
    #expect(try outbox.oldestQueuedAt() == t0)
    let entries = try outbox.peek(limit: 10)
    #expect(entries.map(\.sequence) == [1, 2, 3])
    #expect(entries.map(\.sampleCount) == [2, 2, 2])
    #expect(entries.map(\.topic) == [.samples, .samples, .samples])
    #expect(entries[1].payload == UplinkEncoder(vehicleID: "van-7").encode(messages[1], sequence: 2, queuedAt: t0 + 1))
    #expect(try outbox.peek(after: 1, limit: 1).map(\.sequence) == [2])
  }

  @Test func removalIsByAcknowledgedSequenceAndSequencesAreNeverReused() throws {
    let database = try TestDatabase()
    let outbox = try database.open()
    for message in sampleBatches(count: 2, size: 1) { try outbox.enqueue(message, queuedAt: t0) }
    #expect(try outbox.remove(sequences: [2]) == 1)
    #expect(try outbox.remove(sequences: [2]) == 0)
    #expect(try outbox.remove(sequences: [1]) == 1)
    #expect(try outbox.depth() == 0)
    #expect(try outbox.oldestQueuedAt() == nil)
    let reopened = try database.open()
    try reopened.enqueue(sampleBatches(count: 1, size: 1)[0], queuedAt: t0)
    #expect(try reopened.peek(limit: 5).map(\.sequence) == [3])
  }

  @Test func aBurstOfAcknowledgementsIsRemovedAtOnce() throws {
    let database = try TestDatabase()
    let outbox = try database.open(bound: 2000)
    try outbox.transaction("queue 1200") { (transaction) throws(StoreError) in
      for message in sampleBatches(count: 1200, size: 1) {
        try outbox.outbox.enqueue(message, queuedAt: t0, in: transaction)
      }
    }
    #expect(try outbox.remove(sequences: Array(1...1100) + [5000]) == 1100)
    #expect(try outbox.remove(sequences: []) == 0)
    #expect(try outbox.peek(limit: 200).map(\.sequence) == Array(1101...1200))
  }

  /// The seam the daemon uses: the outbox installed in the store's own file, its message
  /// queued in the store's transaction, which takes it along when it rolls back.
  @Test func aRolledBackStoreTransactionTakesItsMessageWithIt() throws {
    let database = try TestDatabase()
    let outbox = Outbox(encoder: UplinkEncoder(vehicleID: "v"), bound: 100)
    let messages = sampleBatches(count: 2, size: 1)
    do {
      let store = try SampleStore(path: database.path)
      try store.install(Outbox.schema)
      #expect(throws: StoreError.noOpenShift) {
        try store.transaction("queue, then fail") { (transaction) throws(StoreError) in
          try outbox.enqueue(messages[0], queuedAt: t0, in: transaction)
          throw StoreError.noOpenShift
        }
      }
      try store.transaction("queue") { (transaction) throws(StoreError) in
        try outbox.enqueue(messages[1], queuedAt: t0, in: transaction)
      }
    }
    let entries = try database.open().peek(limit: 5)
    // The rolled-back sequence is handed out again: it was never seen by anyone.
    #expect(entries.map(\.sequence) == [1])
    #expect(entries.first?.payload == UplinkEncoder(vehicleID: "v").encode(messages[1], sequence: 1, queuedAt: t0))
  }

  @Test func theBoundDropsTheOldestAndSaysSo() throws {
    let database = try TestDatabase()
    let outbox = try database.open(bound: 3)
    let messages = sampleBatches(count: 5, size: 4)
    var overflows: [OutboxOverflow] = []
    for (index, message) in messages.enumerated() {
      if let overflow = try outbox.enqueue(message, queuedAt: t0 + Double(index) * 60) { overflows.append(overflow) }
    }
    #expect(overflows.map(\.firstDroppedSequence) == [1, 2])
    #expect(
      overflows.first?.logLine
        == "uplink outbox full (bound 3 entries): dropped the oldest 1 entry (sequence 1, 4 samples, queued since "
        + "2023-11-14T22:13:20.000Z); they will never reach the broker")
    #expect(try outbox.peek(limit: 10).map(\.sequence) == [3, 4, 5])
    #expect(try outbox.oldestQueuedAt() == t0 + 120)
  }

  @Test func aSmallerBoundAfterARestartDropsEverythingPastItAtOnce() throws {
    let database = try TestDatabase()
    let wide = try database.open(bound: 10)
    let messages = sampleBatches(count: 7, size: 1)
    for message in messages.prefix(6) { try wide.enqueue(message, queuedAt: t0) }
    #expect(try wide.remove(sequences: [2]) == 1)
    let narrow = try database.open(bound: 2)
    let overflow = try #require(try narrow.enqueue(messages[6], queuedAt: t0))
    #expect(
      overflow.logLine
        == "uplink outbox full (bound 2 entries): dropped the oldest 4 entries (sequences 1-5, 4 samples, queued since "
        + "2023-11-14T22:13:20.000Z); they will never reach the broker")
    #expect(try narrow.peek(limit: 10).map(\.sequence) == [6, 7])
  }

  /// A store whose file never had the outbox installed: the enqueue fails with SQLite's
  /// words and takes the store's transaction down with it.
  @Test func aMissingSchemaIsAClearError() throws {
    let database = try TestDatabase()
    let store = try SampleStore(path: database.path)
    let outbox = Outbox(encoder: UplinkEncoder(vehicleID: "v"), bound: 2)
    #expect {
      try store.transaction("queue") { (transaction) throws(StoreError) in
        try outbox.enqueue(sampleBatches(count: 1, size: 1)[0], queuedAt: t0, in: transaction)
      }
    } throws: { error in
      (error as? StoreError)?.description.contains("no such table: uplink_outbox_sequence") == true
    }
    // The store is out of that transaction: its next one works.
    #expect(try store.startShift(at: t0).id == 1)
  }
}
