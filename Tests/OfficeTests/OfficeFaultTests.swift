import Foundation
import Office
import OfficeLoad
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The faults, each with a real broker and a real PostgreSQL: a worker killed with SIGKILL
/// in the middle of a batch, PostgreSQL restarted, the broker restarted, the database's disk
/// full. After each, the database holds exactly what the boxes sent: every message once,
/// every sample once, nothing more.
@Suite(.requiresPostGIS, .requiresMosquitto)
struct OfficeFaultTests {
  /// Publishes `ticks` seconds of `vehicles` boxes' messages; returns how many.
  static func publish(
    _ fleet: inout SimulatedFleet, ticks: Range<Int>, through publisher: FleetPublisher, pause: Double = 0
  ) throws -> Int {
    var count = 0
    for tick in ticks {
      for vehicle in fleet.vehicles.indices {
        let message = fleet.message(vehicle: vehicle, tick: tick, queuedAt: Date())
        try publisher.publish(topic: message.topic, payload: message.payload)
        count += 1
      }
      if pause > 0 { Thread.sleep(forTimeInterval: pause) }
    }
    return count
  }

  /// Exactly what was sent: `messages` keys, as many samples (one each), none twice, no hole.
  static func expectExactly(_ messages: Int, in database: OfficeDatabase) throws {
    #expect(try database.count("ledger") == messages)
    #expect(try database.count("samples") == messages)
    #expect(
      try database.psql("SELECT count(*) FROM (SELECT DISTINCT vehicle, shift, time FROM samples) s")
        == String(messages))
    #expect(try database.count("holes") == 0)
    #expect(try database.count("rejected") == 0)
  }

  @Test func aWorkerKilledMidBatchLosesNothingAndDoublesNothing() throws {
    let rig = try OfficeRig("fault_kill")
    try rig.start(workers: 2)
    let publisher = try rig.publisher()
    var fleet = SimulatedFleet(count: 10, start: BoxPayloads.t0)
    var sent = try Self.publish(&fleet, ticks: 0..<5, through: publisher)
    try rig.waitForLedger(sent)

    // Hold every worker inside its next transaction: its samples written, its ledger insert
    // waiting on a lock the test holds.
    let holder = try PostgresConnection(rig.database.conninfo)
    try holder.execute("BEGIN; LOCK TABLE ledger IN SHARE ROW EXCLUSIVE MODE")
    sent += try Self.publish(&fleet, ticks: 5..<10, through: publisher)
    #expect(publisher.waitUntilAcknowledged(timeout: 20))
    var waiting: [String] = []
    try rig.waitFor("a worker waiting inside its batch", timeout: 20) {
      waiting = try rig.database.psql(
        """
        SELECT application_name FROM pg_stat_activity
        WHERE application_name LIKE 'dashpilot-officed worker %' AND wait_event_type = 'Lock'
          AND xact_start IS NOT NULL
        """
      ).split(separator: "\n").map(String.init)
      return !waiting.isEmpty
    }
    let victim = Int(waiting[0].split(separator: " ").last ?? "") ?? 0
    let pid = try rig.pid(ofWorker: victim)
    #expect(pid > 0)
    #expect(kill(pid, SIGKILL) == 0)
    try holder.execute("COMMIT")

    try rig.waitForLedger(sent)
    try rig.waitFor("worker \(victim) started again", timeout: 20) {
      try rig.pid(ofWorker: victim) != pid && rig.childPIDs().count == 2
    }
    #expect(rig.log.contains("worker \(victim) (pid \(pid)) was killed by signal 9; starting it again in 1 s"))
    sent += try Self.publish(&fleet, ticks: 10..<12, through: publisher)
    try rig.waitForLedger(sent)
    try Self.expectExactly(sent, in: rig.database)
    #expect(sent == 120)
  }

  @Test func postgresRestartedMeanwhile() throws {
    let database = try OfficeDatabase.onOwnServer()
    let server = database.server
    let rig = try OfficeRig("fault_postgres", database: database)
    try rig.start(workers: 2)
    let publisher = try rig.publisher()
    var fleet = SimulatedFleet(count: 10, start: BoxPayloads.t0)
    var sent = try Self.publish(&fleet, ticks: 0..<3, through: publisher)
    try rig.waitForLedger(sent)
    server.stop()
    sent += try Self.publish(&fleet, ticks: 3..<8, through: publisher, pause: 0.2)
    #expect(publisher.waitUntilAcknowledged(timeout: 20))
    try rig.waitFor("the workers saying PostgreSQL is unavailable", timeout: 20) {
      rig.log.contains("PostgreSQL is unavailable") || rig.log.contains("cannot reach PostgreSQL")
    }
    try server.start()
    sent += try Self.publish(&fleet, ticks: 8..<10, through: publisher)
    try rig.waitForLedger(sent)
    try Self.expectExactly(sent, in: rig.database)
    #expect(sent == 100)
  }

  /// Debian 12's mosquitto (2.0.11) keeps a durable session's queued messages across its
  /// restart but not its shared subscriptions (they are persisted from 2.0.19): until the
  /// workers subscribe again, what boxes publish has no subscriber. So the boxes here publish
  /// again once the workers are back, as boxes reconnecting after their ReconnectDelay do;
  /// docs/office.md says what this means in production.
  @Test func brokerRestartedMeanwhile() throws {
    let rig = try OfficeRig("fault_broker")
    try rig.start(workers: 2)
    let publisher = try rig.publisher()
    var fleet = SimulatedFleet(count: 10, start: BoxPayloads.t0)
    // Held in the workers' sessions while the broker goes down: the database lets none in.
    let holder = try PostgresConnection(rig.database.conninfo)
    try holder.execute("BEGIN; LOCK TABLE ledger IN SHARE ROW EXCLUSIVE MODE")
    var sent = try Self.publish(&fleet, ticks: 0..<5, through: publisher)
    #expect(publisher.waitUntilAcknowledged(timeout: 20))
    rig.broker.stop()
    try holder.execute("COMMIT")
    try rig.broker.start()
    try rig.waitFor("both workers subscribed again", timeout: 20) {
      rig.log.components(separatedBy: "connected to the broker (its session kept what came meanwhile)").count == 3
    }
    sent += try Self.publish(&fleet, ticks: 5..<10, through: publisher)
    #expect(publisher.waitUntilAcknowledged(timeout: 30))
    try rig.waitForLedger(sent)
    try Self.expectExactly(sent, in: rig.database)
    #expect(sent == 100)
    #expect(rig.log.contains("connected to the broker (its session kept what came meanwhile)"))
  }

  @Test(.requiresTmpfs) func theDatabaseDiskFullHoldsEverythingUntilThereIsRoom() throws {
    let disk = try TmpfsMount(kilobytes: 160 * 1024)
    defer { disk.unmount() }
    let database = try OfficeDatabase.onOwnServer(
      dataParent: disk.directory, settings: ["max_wal_size": "64MB", "min_wal_size": "32MB"])
    let rig = try OfficeRig("fault_disk", database: database)
    try rig.start(workers: 2)
    let publisher = try rig.publisher()
    var fleet = SimulatedFleet(count: 10, start: BoxPayloads.t0)
    var sent = try Self.publish(&fleet, ticks: 0..<3, through: publisher)
    try rig.waitForLedger(sent)
    try disk.fill()
    // Enough rows to need new pages in every table and index they touch.
    sent += try Self.publish(&fleet, ticks: 3..<200, through: publisher)
    #expect(publisher.waitUntilAcknowledged(timeout: 30))
    try rig.waitFor("the workers holding their batches for want of space", timeout: 30) {
      rig.log.contains("No space left on device (SQLSTATE 53100)); holding")
    }
    #expect(try database.count("ledger") < sent)
    try disk.removeFiller()
    try rig.waitForLedger(sent, timeout: 90)
    try Self.expectExactly(sent, in: database)
    #expect(sent == 2000)
    #expect(rig.log.contains("notice: storing again: "))
  }
}
