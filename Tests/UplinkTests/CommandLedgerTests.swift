import ControlProtocol
import DashPilotCore
import Foundation
import Store
import TestSupport
import Testing

@testable import Uplink

/// The record of fleet commands in a real SQLite file: a new id is recorded once, an
/// answered one gives its reply back, what was never answered survives a reopening, and
/// old ids are forgotten only past both bounds.
@Suite struct CommandLedgerTests {
  let t0 = Date(timeIntervalSince1970: 1_700_000_000)
  let ledger = CommandLedger()

  func open(_ database: TestDatabase) throws -> OutboxDatabase {
    let outbox = try database.open(vehicle: "van-7")
    try outbox.install(CommandLedger.schema)
    return outbox
  }

  func record(_ outbox: OutboxDatabase, _ id: String, at time: Date) throws -> CommandLedger.Recorded {
    try outbox.transaction("record") { (transaction) throws(StoreError) in
      try ledger.record(id: id, command: "status", request: Array("{\(id)}".utf8), receivedAt: time, in: transaction)
    }
  }

  func answer(_ outbox: OutboxDatabase, _ id: String, at time: Date) throws {
    try outbox.transaction("answer") { (transaction) throws(StoreError) in
      try ledger.answer(CommandReply(id: id, payload: Array("reply \(id)".utf8)), at: time, in: transaction)
    }
  }

  @Test func anIDIsNewOnceThenRunningThenAnsweredWithItsReply() throws {
    let database = try TestDatabase()
    let outbox = try open(database)
    #expect(try record(outbox, "a", at: t0) == .new)
    #expect(try record(outbox, "a", at: t0 + 1) == .running)
    try answer(outbox, "a", at: t0 + 2)
    #expect(try record(outbox, "a", at: t0 + 3) == .answered(CommandReply(id: "a", payload: Array("reply a".utf8))))
    #expect(try record(outbox, "b", at: t0 + 4) == .new)
    // Reopened, as after a restart: "b" is still waiting to be run, as it arrived.
    let reopened = try open(database)
    let waiting = try reopened.transaction("read") { (transaction) throws(StoreError) in
      try ledger.unanswered(in: transaction)
    }
    #expect(waiting.map(\.id) == ["b"])
    #expect(waiting.map(\.request) == [Array("{b}".utf8)])
  }

  @Test func answeredIDsAreKeptADayAndTheLast10000() throws {
    let database = try TestDatabase()
    let outbox = try open(database)
    // 10,003 answered, the first five more than a day before `now`, then one never answered
    // (10,004 recorded: the last 10,000 are c4 onwards).
    let now = t0 + 3 * 86_400
    try outbox.transaction("fill") { (transaction) throws(StoreError) in
      for index in 0..<10_003 {
        let at = index < 5 ? now - 86_401 : now - 10
        _ = try ledger.record(id: "c\(index)", command: "status", request: [], receivedAt: at, in: transaction)
        try ledger.answer(CommandReply(id: "c\(index)", payload: [1]), at: at, in: transaction)
      }
      _ = try ledger.record(
        id: "old-unanswered", command: "status", request: [], receivedAt: now - 90_000, in: transaction)
    }
    func prune(at time: Date) throws -> Int {
      try outbox.transaction("prune") { (transaction) throws(StoreError) in try ledger.prune(now: time, in: transaction)
      }
    }
    // c0-c4 are older than a day, but c4 is among the last 10,000: c0-c3 go.
    #expect(try prune(at: now) == 4)
    let (count, kept, forgotten) = try outbox.transaction("read") { (transaction) throws(StoreError) in
      (
        try ledger.count(in: transaction), try ledger.reply(to: "c4", in: transaction),
        try ledger.reply(to: "c3", in: transaction)
      )
    }
    #expect(count == 10_000)
    #expect(kept == CommandReply(id: "c4", payload: [1]))
    #expect(forgotten == nil)
    // Nothing more is due: the rest is within a day or among the last 10,000, and the
    // unanswered one is never forgotten (it runs at the next start).
    #expect(try prune(at: now + 1) == 0)
    let waiting = try outbox.transaction("read") { (transaction) throws(StoreError) in
      try ledger.unanswered(in: transaction)
    }
    #expect(waiting.map(\.id) == ["old-unanswered"])
  }

  @Test func theOutboxMigratesToHoldEventsAndRepliesKeepingWhatWasQueued() throws {
    let database = try TestDatabase()
    // A file as version 1 of the outbox left it, with one message queued.
    do {
      let store = try SampleStore(path: database.path)
      try store.install(SchemaExtension(name: "uplink_outbox", migrations: [Outbox.schema.migrations[0]]))
      try store.transaction("queue") { (transaction) throws(StoreError) in
        try enqueueAsAnOlderVersion(
          sampleBatches(count: 1, size: 1)[0], vehicle: "van-7", queuedAt: t0, in: transaction)
      }
    }
    do {
      let v1 = try DaemonDatabaseProbe.query(
        database.path, "SELECT version FROM schema_extensions WHERE name = 'uplink_outbox'")
      #expect(v1 == ["1"])
    }
    let outbox = try database.open(vehicle: "van-7")
    #expect(
      try DaemonDatabaseProbe.query(database.path, "SELECT version FROM schema_extensions WHERE name = 'uplink_outbox'")
        == ["\(Outbox.schema.latestVersion)"])
    let reply = CommandReply(id: "x", answer: .failure(ControlError(.expired, "late")))
    try outbox.enqueue(.reply(reply), queuedAt: t0)
    let entries = try outbox.peek(limit: 5)
    #expect(entries.map(\.topic) == [.samples, .reply])
    #expect(entries.map(\.sequence) == [1, 2])
    #expect(
      String(decoding: entries[1].payload, as: UTF8.self)
        == #"{"error":{"code":"expired","message":"late"},"id":"x","ok":false,"v":1}"#)
  }
}
