// `office`: dashpilot-officed under load, all real (OfficeBenchRig). Simulated boxes
// (SimulatedFleet: the box's own encoder, one samples message a second with one position,
// as a 1 Hz receiver with a one-second commit sends) publish at QoS 1 through mosquitto:
// 1,000 then 10,000 vehicles at 1 Hz, with 1, 2 and 4 workers, each run into a database of
// its own. Then a backlog drained as fast as the office can, beside a raw COPY of the same
// rows into the same tables: the ratio the issue asks for (goal >= 0.5).
import Foundation
import Office
import OfficeLoad
import TestSupport

func runOfficeBenchmarks(_ report: inout BenchReport) {
  do {
    let rig = try OfficeBenchRig()
    for vehicles in [1_000, 10_000] {
      for workers in [1, 2, 4] {
        try OfficeBench.paced(rig, vehicles: vehicles, workers: workers, seconds: 20, report: &report)
      }
    }
    for workers in [1, 2, 4] {
      try OfficeBench.drain(rig, workers: workers, vehicles: 10_000, ticks: 10, report: &report)
    }
  } catch {
    FileHandle.standardError.write(Data("dashpilot-bench: office: \(error)\n".utf8))
  }
}

enum OfficeBench {
  /// `vehicles` boxes at 1 Hz for `seconds`, their messages spread evenly over each second.
  static func paced(
    _ rig: OfficeBenchRig, vehicles: Int, workers: Int, seconds: Int, report: inout BenchReport
  ) throws {
    let label = "v\(vehicles)w\(workers)"
    let database = try rig.database("bench_\(label)")
    try rig.startService(database: database, workers: workers, label: label)
    defer { rig.stopService() }
    let threads = max(1, vehicles / 5_000)
    let publishers = try rig.publishers(count: threads, label: label)
    let cpuBefore = rig.serviceCPU()
    let started = ProcessFigures.now()
    let wallStart = Date()
    try publish(publishers, vehicles: vehicles, ticks: seconds, paced: true, label: label)
    let published = ProcessFigures.now()
    let cpu = rig.serviceCPU() - cpuBefore
    let expected = vehicles * seconds
    let connection = try PostgresConnection(database)
    let drained = ProcessFigures.waitFor(timeout: 180) {
      (try? connection.execute("SELECT count(*) FROM ledger").value(0, 0)) == String(expected)
    }
    let drainSeconds = ProcessFigures.now() - published
    let name = "office.\(label)"
    // Sustained: what was committed from the 5th second of publishing to its end.
    let window = try connection.execute(
      """
      SELECT count(*), coalesce(sum(samples), 0) FROM ledger
      WHERE committed_at >= $1::timestamptz + interval '5 s' AND committed_at < $1::timestamptz + $2 * interval '1 s'
      """, [ISO8601DateFormatter().string(from: wallStart), String(seconds)])
    let span = Double(seconds - 5)
    report.record("\(name).messages_per_second", (Double(window.value(0, 0) ?? "0") ?? 0) / span, "msg/s")
    report.record("\(name).samples_per_second", (Double(window.value(0, 1) ?? "0") ?? 0) / span, "samples/s")
    try latencies(connection, name: name, report: &report)
    report.record("\(name).cpu", cpu / (published - started), "cores")
    report.record("\(name).peak_rss", (rig.servicePeakMiB() * 10).rounded() / 10, "MiB")
    report.record("\(name).drain_after_publishing", drained ? drainSeconds : -1, "s")
    try lostAndTwice(connection, expected: expected, name: name, report: &report)
    if vehicles == 10_000, workers == 4 { try bytesPerMessage(connection, messages: expected, report: &report) }
  }

  /// A backlog of `vehicles` x `ticks` messages queued while the service is stopped, then
  /// drained; and the same rows COPYed raw into a fresh database of the same schema.
  static func drain(_ rig: OfficeBenchRig, workers: Int, vehicles: Int, ticks: Int, report: inout BenchReport) throws {
    let label = "drain\(workers)"
    let database = try rig.database("bench_\(label)")
    // The workers' sessions and shared subscription are made, then wait at the broker.
    try rig.startService(database: database, workers: workers, label: label)
    rig.stopService()
    let publishers = try rig.publishers(count: 2, label: label)
    try publish(publishers, vehicles: vehicles, ticks: ticks, paced: false, label: label)
    let expected = vehicles * ticks
    try rig.startService(database: database, workers: workers, label: label)
    defer { rig.stopService() }
    let connection = try PostgresConnection(database)
    guard
      ProcessFigures.waitFor(
        timeout: 600,
        {
          (try? connection.execute("SELECT count(*) FROM ledger").value(0, 0)) == String(expected)
        })
    else { throw TestProcessError("the office did not drain \(expected) messages") }
    let seconds =
      Double(
        try connection.execute("SELECT extract(epoch FROM max(committed_at) - min(received_at)) FROM ledger").value(
          0, 0)
          ?? "") ?? 0
    let officeRate = Double(expected) / seconds
    let name = "office.drain.w\(workers)"
    report.record("\(name).messages_per_second", officeRate, "msg/s")
    try lostAndTwice(connection, expected: expected, name: name, report: &report)
    let copyRate = try rawCopy(rig, from: database, rows: expected, label: label)
    report.record("\(name).copy_messages_per_second", copyRate, "msg/s")
    report.record("\(name).ratio_to_copy", (officeRate / copyRate * 1000).rounded() / 1000, "x")
  }

  /// Publishes `ticks` seconds of `vehicles` boxes over the publishers, one thread each:
  /// paced (each second's messages spread over it) or as fast as the broker takes them.
  static func publish(
    _ publishers: [FleetPublisher], vehicles: Int, ticks: Int, paced: Bool, label: String
  ) throws {
    let share = vehicles / publishers.count
    let start = Date()
    let began = ProcessFigures.now()
    let failures = Failures()
    let group = DispatchGroup()
    for (index, publisher) in publishers.enumerated() {
      group.enter()
      Thread.detachNewThread {
        defer { group.leave() }
        var fleet = SimulatedFleet(count: share, prefix: "\(label)p\(index)", start: start)
        var sent = 0
        for tick in 0..<ticks {
          for vehicle in 0..<share {
            if paced {
              ProcessFigures.sleep(until: began + Double(tick) + Double(vehicle) / Double(share))
            }
            let message = fleet.message(vehicle: vehicle, tick: tick, queuedAt: Date())
            do { try publisher.publish(topic: message.topic, payload: message.payload) } catch {
              failures.add("\(error)")
              return
            }
            sent += 1
          }
        }
        if !publisher.waitUntilAcknowledged(timeout: 120) { failures.add("the broker did not acknowledge") }
      }
    }
    group.wait()
    if let failure = failures.first { throw TestProcessError("publishing: \(failure)") }
  }

  final class Failures: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [String] = []
    func add(_ text: String) { lock.withLock { list.append(text) } }
    var first: String? { lock.withLock { list.first } }
  }
}
