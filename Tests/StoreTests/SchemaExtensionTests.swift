import DashPilotCore
import Foundation
import TestSupport
import Testing

@testable import Store

/// Another module's tables in the store's file: installed with migrations of their own,
/// and written in the store's transactions, committing or rolling back with its rows.
struct SchemaExtensionTests {
  /// A ledger of answered commands, as a fleet dispatcher would keep one: version 2 adds
  /// a column to version 1's table.
  static let ledger = SchemaExtension(
    name: "answered_commands",
    migrations: [
      .init(version: 1, statements: ["CREATE TABLE answered_commands (id TEXT PRIMARY KEY, reply TEXT NOT NULL)"]),
      .init(version: 2, statements: ["ALTER TABLE answered_commands ADD COLUMN answered_at_ms INTEGER"]),
    ])

  static func columns(_ store: SampleStore) throws -> [String] {
    try store.database.textColumn("SELECT name FROM pragma_table_info('answered_commands') ORDER BY cid")
  }

  static func answered(_ store: SampleStore) throws -> [String] {
    try store.read { (transaction) throws(StoreError) in
      var ids: [String] = []
      try transaction.query("SELECT id FROM answered_commands ORDER BY id") { row in ids.append(row.text(0) ?? "") }
      return ids
    }
  }

  @Test func migrationsRunOnceEachAndTheVersionIsKeptApartFromTheStores() throws {
    let file = try TemporaryStoreFile("extension")
    do {
      let store = try file.open()
      var first = Self.ledger
      first.migrations.removeLast()
      try store.install(first)
      #expect(try Self.columns(store) == ["id", "reply"])
      // The next version migrates the same file forwards; installing again changes nothing.
      try store.install(Self.ledger)
      try store.install(Self.ledger)
      #expect(try Self.columns(store) == ["id", "reply", "answered_at_ms"])
      #expect(
        try store.database.scalarInt64("SELECT version FROM schema_extensions WHERE name = 'answered_commands'") == 2)
      #expect(try Schema.userVersion(store.database) == Schema.latestVersion)
    }
    // Reopened by code that knows only version 1: refused, and the file is left alone.
    let store = try file.open()
    var older = Self.ledger
    older.migrations.removeLast()
    #expect(throws: StoreError.newerSchema(path: "\(file.path) (answered_commands)", found: 2, supported: 1)) {
      try store.install(older)
    }
    #expect(try Self.columns(store) == ["id", "reply", "answered_at_ms"])
  }

  /// A command's effect (the shift ended), its answer recorded, and what the commit
  /// observer queued: one transaction, so a failure anywhere leaves none of them.
  @Test func theStoresOwnWritesJoinATransactionAndRollBackWithIt() throws {
    let file = try TemporaryStoreFile("extension")
    let store = try file.open()
    try store.install(Self.ledger)
    let shift = try store.startShift(at: at(1_700_000_000))
    try store.append(straightRoute(count: 3), toShift: shift.id)
    #expect(throws: StoreError.noOpenShift) {
      try store.transaction("answer command c-1") { (transaction) throws(StoreError) in
        _ = try store.endShift(shift.id, at: at(1_700_000_100))
        try transaction.query("INSERT INTO answered_commands (id, reply) VALUES (?, ?)", [.text("c-1"), .text("{}")])
        throw StoreError.noOpenShift
      }
    }
    #expect(try store.openShift()?.id == shift.id)
    #expect(try Self.answered(store) == [])

    let ended = try store.transaction("answer command c-2") { (transaction) throws(StoreError) -> StoredShift in
      let ended = try store.endShift(shift.id, at: at(1_700_000_100))
      try transaction.query("INSERT INTO answered_commands (id, reply) VALUES (?, ?)", [.text("c-2"), .text("{}")])
      return ended
    }
    #expect(ended.shift.endedAt == at(1_700_000_100))
    #expect(try store.openShift() == nil)
    #expect(try Self.answered(store) == ["c-2"])
  }

  /// A nested step that fails is undone alone when the enclosing transaction goes on.
  @Test func aFailedSavepointUndoesOnlyItsOwnWrites() throws {
    let file = try TemporaryStoreFile("extension")
    let store = try file.open()
    try store.install(Self.ledger)
    try store.transaction("answer two") { (transaction) throws(StoreError) in
      try transaction.query("INSERT INTO answered_commands (id, reply) VALUES ('a', '{}')")
      do {
        try transaction.savepoint { () throws(StoreError) in
          try transaction.query("INSERT INTO answered_commands (id, reply) VALUES ('b', '{}')")
          try transaction.query("INSERT INTO answered_commands (id, reply) VALUES ('a', '{}')")
        }
      } catch {
        #expect("\(error)".contains("UNIQUE constraint failed: answered_commands.id"))
      }
    }
    #expect(try Self.answered(store) == ["a"])
  }
}
