import CSQLite
import DashPilotCore
import Foundation
import TestSupport
import Testing

@testable import Uplink

/// A real SQLite file in a temporary directory, closed and removed at the end.
final class TestDatabase {
  let directory: URL
  let path: String
  private(set) var handle: OpaquePointer

  init() throws {
    directory = try TestPaths.temporaryDirectory("uplink-outbox")
    path = directory.appendingPathComponent("dashpilot.sqlite").path
    handle = try Self.open(path)
  }

  static func open(_ path: String) throws -> OpaquePointer {
    var handle: OpaquePointer?
    let code = sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil)
    guard code == SQLITE_OK, let handle else { throw OutboxError(operation: "open", code: code, message: path) }
    sqlite3_exec(handle, "PRAGMA journal_mode=WAL", nil, nil, nil)
    return handle
  }

  /// Closes and opens the file again, as a restarted daemon would.
  func reopen() throws {
    sqlite3_close_v2(handle)
    handle = try Self.open(path)
  }

  func execute(_ sql: String) {
    #expect(sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK, "\(sql): \(String(cString: sqlite3_errmsg(handle)))")
  }

  deinit {
    sqlite3_close_v2(handle)
    try? FileManager.default.removeItem(at: directory)
  }
}

/// Sample batches for tests: `count` batches of `size` positions, one second apart.
func sampleBatches(count: Int, size: Int, shiftID: Int64 = 42) -> [UplinkMessage] {
  var builder = RouteBuilder(session: CaptureSessionID("cs-1"))
  for _ in 1..<(count * size) { builder.drive(12) }
  return (0..<count).map { index in
    .samples(SampleBatch(shiftID: shiftID, samples: Array(builder.samples[(index * size)..<((index + 1) * size)])))
  }
}

@Suite struct OutboxTests {
  let t0 = Date(timeIntervalSince1970: 1_700_000_000)

  @Test func entriesComeBackInCommitOrderWithTheirExactPayload() throws {
    let database = try TestDatabase()
    try Outbox.createSchema(on: database.handle)
    let outbox = Outbox(connection: database.handle, encoder: UplinkEncoder(vehicleID: "van-7"), bound: 100)
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
    try Outbox.createSchema(on: database.handle)
    let outbox = Outbox(connection: database.handle, encoder: UplinkEncoder(vehicleID: "v"), bound: 100)
    for message in sampleBatches(count: 2, size: 1) { try outbox.enqueue(message, queuedAt: t0) }
    #expect(try outbox.remove(sequence: 2) == true)
    #expect(try outbox.remove(sequence: 2) == false)
    #expect(try outbox.remove(sequence: 1) == true)
    #expect(try outbox.depth() == 0)
    #expect(try outbox.oldestQueuedAt() == nil)
    try database.reopen()
    try Outbox.createSchema(on: database.handle)
    let reopened = Outbox(connection: database.handle, encoder: UplinkEncoder(vehicleID: "v"), bound: 100)
    try reopened.enqueue(sampleBatches(count: 1, size: 1)[0], queuedAt: t0)
    #expect(try reopened.peek(limit: 5).map(\.sequence) == [3])
  }

  @Test func aBurstOfAcknowledgementsIsRemovedAtOnce() throws {
    let database = try TestDatabase()
    try Outbox.createSchema(on: database.handle)
    let outbox = Outbox(connection: database.handle, encoder: UplinkEncoder(vehicleID: "v"), bound: 2000)
    database.execute("BEGIN")
    for message in sampleBatches(count: 1200, size: 1) { try outbox.enqueue(message, queuedAt: t0) }
    database.execute("COMMIT")
    #expect(try outbox.remove(sequences: Array(1...1100) + [5000]) == 1100)
    #expect(try outbox.remove(sequences: []) == 0)
    #expect(try outbox.peek(limit: 200).map(\.sequence) == Array(1101...1200))
  }

  @Test func aRolledBackTransactionTakesItsMessageWithIt() throws {
    let database = try TestDatabase()
    try Outbox.createSchema(on: database.handle)
    database.execute("CREATE TABLE batches (id INTEGER PRIMARY KEY)")
    let outbox = Outbox(connection: database.handle, encoder: UplinkEncoder(vehicleID: "v"), bound: 100)
    let messages = sampleBatches(count: 2, size: 1)
    database.execute("BEGIN IMMEDIATE; INSERT INTO batches DEFAULT VALUES")
    try outbox.enqueue(messages[0], queuedAt: t0)
    database.execute("ROLLBACK")
    database.execute("BEGIN IMMEDIATE; INSERT INTO batches DEFAULT VALUES")
    try outbox.enqueue(messages[1], queuedAt: t0)
    database.execute("COMMIT")
    try database.reopen()
    let reopened = Outbox(connection: database.handle, encoder: UplinkEncoder(vehicleID: "v"), bound: 100)
    let entries = try reopened.peek(limit: 5)
    // The rolled-back sequence is handed out again: it was never seen by anyone.
    #expect(entries.map(\.sequence) == [1])
    #expect(entries.first?.payload == UplinkEncoder(vehicleID: "v").encode(messages[1], sequence: 1, queuedAt: t0))
  }

  @Test func theBoundDropsTheOldestAndSaysSo() throws {
    let database = try TestDatabase()
    try Outbox.createSchema(on: database.handle)
    let outbox = Outbox(connection: database.handle, encoder: UplinkEncoder(vehicleID: "v"), bound: 3)
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
    try Outbox.createSchema(on: database.handle)
    let wide = Outbox(connection: database.handle, encoder: UplinkEncoder(vehicleID: "v"), bound: 10)
    let messages = sampleBatches(count: 7, size: 1)
    for message in messages.prefix(6) { try wide.enqueue(message, queuedAt: t0) }
    #expect(try wide.remove(sequence: 2))
    let narrow = Outbox(connection: database.handle, encoder: UplinkEncoder(vehicleID: "v"), bound: 2)
    let overflow = try #require(try narrow.enqueue(messages[6], queuedAt: t0))
    #expect(
      overflow.logLine
        == "uplink outbox full (bound 2 entries): dropped the oldest 4 entries (sequences 1-5, 4 samples, queued since "
        + "2023-11-14T22:13:20.000Z); they will never reach the broker")
    #expect(try narrow.peek(limit: 10).map(\.sequence) == [6, 7])
  }

  @Test func aMissingSchemaIsAClearError() throws {
    let database = try TestDatabase()
    let outbox = Outbox(connection: database.handle, encoder: UplinkEncoder(vehicleID: "v"), bound: 2)
    #expect {
      try outbox.enqueue(sampleBatches(count: 1, size: 1)[0], queuedAt: t0)
    } throws: { error in
      (error as? OutboxError)?.description
        == "uplink outbox: assign a sequence failed (SQLite 1): no such table: uplink_outbox_sequence"
    }
    #expect(sqlite3_get_autocommit(database.handle) == 1)
  }
}
