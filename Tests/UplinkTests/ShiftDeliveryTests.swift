import DashPilotCore
import Foundation
import Store
import TestSupport
import Testing

@testable import Uplink

/// The record of what the broker acknowledged of each shift (`ShiftDelivery`), which
/// retention trusts before it deletes a shift under an uplink: the shift message and every
/// one of its samples, each counted once as the drain removes it; never an entry the bound
/// dropped, nor a sample recorded before the uplink was there.
@Suite struct ShiftDeliveryTests {
  static let t0: TimeInterval = 1_700_000_000

  /// The store as the daemon has it: the outbox installed in its file, its commits queued by
  /// the observer.
  static func store(at path: String, bound: Int = 100) throws -> SampleStore {
    let store = try SampleStore(path: path)
    try store.install(Outbox.schema)
    store.commitObserver = OutboxCommitObserver(
      outbox: Outbox(encoder: UplinkEncoder(vehicleID: "van-7"), bound: bound), unit: .miles)
    return store
  }

  /// Records a completed shift of `batches` one-second batches of `size` samples each.
  @discardableResult
  static func record(_ store: SampleStore, batches: Int, size: Int = 5, session: String, start: TimeInterval) throws
    -> StoredShift
  {
    let shift = try store.startShift(at: Date(timeIntervalSince1970: start))
    var builder = RouteBuilder(time: Date(timeIntervalSince1970: start), session: CaptureSessionID(session))
    for _ in 1..<(batches * size) { builder.drive(20) }
    for batch in 0..<batches {
      try store.append(Array(builder.samples[(batch * size)..<((batch + 1) * size)]), toShift: shift.id)
    }
    return try store.endShift(shift.id, at: Date(timeIntervalSince1970: start + Double(batches * size)))
  }

  static func acknowledged(_ store: SampleStore, _ id: Int64) throws -> Bool {
    try store.read { (transaction) throws(StoreError) in try ShiftDelivery.isAcknowledged(shift: id, in: transaction) }
  }

  static func delivery(_ path: String, _ id: Int64) throws -> [String] {
    try DaemonDatabaseProbe.query(
      path,
      "SELECT sample_rows || '|' || samples_acknowledged || '|' || shift_acknowledged FROM uplink_shift_delivery WHERE shift_id = \(id)"
    )
  }

  @Test func eachAcknowledgedEntryCountsOnceAndOnlyACompleteShiftIsAcknowledged() throws {
    let database = try TestDatabase()
    let store = try Self.store(at: database.path)
    try Self.record(store, batches: 3, session: "a", start: Self.t0)
    let drain = try database.open()
    // Session start, three batches, the shift: sequences 1-5.
    #expect(try drain.peek(limit: 10).map(\.topic) == [.session, .samples, .samples, .samples, .shift])
    #expect(try drain.remove(sequences: [2, 3]) == 2)
    #expect(try drain.remove(sequences: [3]) == 0)
    #expect(try Self.delivery(database.path, 1) == ["15|10|0"])
    #expect(try drain.remove(sequences: [5]) == 1)
    #expect(try !Self.acknowledged(store, 1))
    #expect(try drain.remove(sequences: [1, 4]) == 2)
    #expect(try Self.delivery(database.path, 1) == ["15|15|1"])
    #expect(try Self.acknowledged(store, 1))
    #expect(try !Self.acknowledged(store, 2))
  }

  @Test func samplesRecordedBeforeTheUplinkWereNeverSentSoTheShiftIsNotAcknowledged() throws {
    let database = try TestDatabase()
    let store = try SampleStore(path: database.path)
    let shift = try store.startShift(at: Date(timeIntervalSince1970: Self.t0))
    try store.append(straightRoute(4), toShift: shift.id)
    // The uplink is configured and the daemon restarted in the middle of the shift.
    try store.install(Outbox.schema)
    store.commitObserver = OutboxCommitObserver(
      outbox: Outbox(encoder: UplinkEncoder(vehicleID: "van-7"), bound: 100), unit: .miles)
    try store.append(straightRoute(3, start: Self.t0 + 10), toShift: shift.id)
    _ = try store.endShift(shift.id, at: Date(timeIntervalSince1970: Self.t0 + 20))
    let drain = try database.open()
    #expect(try drain.remove(sequences: try drain.peek(limit: 10).map(\.sequence)) == 2)
    #expect(try Self.delivery(database.path, shift.id) == ["7|3|1"])
    #expect(try !Self.acknowledged(store, shift.id))
  }

  /// Against a real mosquitto: a shift drained while the broker is up is acknowledged; one
  /// recorded while it was down, whose oldest batches the outbox's bound dropped, is not,
  /// even once the rest, its shift message included, reached the broker; one still queued
  /// is not.
  @Test(.timeLimit(.minutes(2)), .requiresMosquitto)
  func onlyWhatTheBrokerAcknowledgedCounts() async throws {
    let directory = try TestPaths.temporaryDirectory("shift-delivery")
    defer { try? FileManager.default.removeItem(at: directory) }
    let broker = try MosquittoBroker(directory: directory)
    try broker.start()
    defer { broker.stop() }
    let bound = 6
    let harness = try UplinkHarness(configuration: testConfiguration(port: broker.port) { $0.outboxBound = bound })
    let store = try Self.store(at: harness.database.path, bound: bound)
    try harness.start()
    #expect(await eventually(within: 10) { harness.status?.connected == true })

    try Self.record(store, batches: 3, session: "a", start: Self.t0)
    harness.onService { $0.outboxDidChange() }
    #expect(await eventually(within: 20) { harness.depth == 0 })
    #expect(await eventually(within: 5) { (try? Self.acknowledged(store, 1)) == true })

    broker.stop()
    #expect(await eventually(within: 10) { harness.status?.connected == false })
    // A session start, eight batches and the shift: the bound keeps the last six.
    try Self.record(store, batches: 8, session: "b", start: Self.t0 + 1_000)
    #expect(
      try harness.outbox.peek(limit: 10).map(\.topic) == [.samples, .samples, .samples, .samples, .samples, .shift])
    try broker.start()
    #expect(await eventually(within: 30) { harness.depth == 0 })
    #expect(try Self.delivery(harness.database.path, 2) == ["40|25|1"])
    #expect(try !Self.acknowledged(store, 2))

    broker.stop()
    #expect(await eventually(within: 10) { harness.status?.connected == false })
    try Self.record(store, batches: 1, session: "c", start: Self.t0 + 2_000)
    #expect(try !Self.acknowledged(store, 3))
    #expect(try Self.acknowledged(store, 1))
    harness.stop()
  }
}

/// `count` positions 100 m and one second apart in session s1.
private func straightRoute(_ count: Int, start: TimeInterval = 1_700_000_000) -> [RouteSample] {
  var builder = RouteBuilder(time: Date(timeIntervalSince1970: start))
  for _ in 1..<count { builder.drive(100) }
  return builder.samples
}
