import ControlProtocol
import DashPilotCore
import Foundation
import Store
import TestSupport
import Testing

@testable import Uplink

/// Version 4 of the outbox's tables lets it hold `stop` messages: a file an older version
/// wrote keeps what it queued, sequences and payloads as they were, and takes stops after.
@Suite struct OutboxStopTopicTests {
  let t0 = Date(timeIntervalSince1970: 1_700_000_000)

  @Test func whatVersionThreeQueuedIsKeptAndAStopIsQueuedAfterIt() throws {
    let database = try TestDatabase()
    let batch = sampleBatches(count: 1, size: 2)[0]
    do {
      let older = try Database(path: database.path)
      try older.install(
        SchemaExtension(name: Outbox.schema.name, migrations: Array(Outbox.schema.migrations.prefix(3))))
      try older.transaction("queue as version 3") { (transaction) throws(StoreError) in
        try enqueueAsAnOlderVersion(batch, vehicle: "van-7", queuedAt: t0, in: transaction)
      }
    }
    let outbox = try database.open(vehicle: "van-7")
    let stop = Stop(
      arrival: t0 + 119, departure: t0 + 421, start: .arrived, end: .departed,
      position: GeoCoordinate(latitude: 51.5107092, longitude: -0.12), wander: 0, positions: 7)
    let message = UplinkMessage.stop(StopReport(shiftID: 42, stop: WireStop(stop)))
    try outbox.enqueue(message, queuedAt: t0 + 421)
    let entries = try outbox.peek(limit: 10)
    #expect(entries.map(\.sequence) == [1, 2])
    #expect(entries.map(\.topic) == [.samples, .stop])
    let encoder = UplinkEncoder(vehicleID: "van-7")
    #expect(entries[0].payload == encoder.encode(batch, sequence: 1, queuedAt: t0))
    #expect(entries[1].payload == encoder.encode(message, sequence: 2, queuedAt: t0 + 421))
    // What the older version queued counts for its shift when the broker takes it (version 5).
    #expect(try outbox.remove(sequences: [1]) == 1)
    #expect(
      try DaemonDatabaseProbe.query(
        database.path, "SELECT samples_acknowledged FROM uplink_shift_delivery WHERE shift_id = 42") == ["2"])
  }
}
