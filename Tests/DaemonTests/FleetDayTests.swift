import DashPilotCore
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// A dispatcher's day, all real: the office publishes a day of 150 jobs at once over a real
/// mosquitto, one `job.assign` after another as fast as `mosquitto_pub -l` writes them; the
/// box (a real `dashpilotd`) takes the burst whole, queues them in order, takes the same day
/// as one manifest (`job.assign_all`) without change and refuses, whole, a manifest that
/// passes the bound or holds a conflict; then a real gpsd plays a drive with 10 stops, 15
/// deliveries at each (an office block's), and the office hears every job visited, in the
/// queue's order.
@Suite(
  "a dispatcher's day of 150 jobs, against a real gpsd and mosquitto", .serialized, .requiresMosquitto, .requiresGPSD)
struct FleetDayTests {
  /// A drive north at 10 m/s from 51°30' N, standing 75 s at 10 stops 250 m apart (the
  /// first 240 m in), with `[Stops] MinimumStop=1min`.
  static let parts: [DaemonStopsDrive.Part] =
    [.drive(seconds: 25)] + (0..<10).flatMap { _ in [DaemonStopsDrive.Part.stand(seconds: 75), .drive(seconds: 25)] }

  /// Job `j` (0-14) of stop `k` (0-9): either side of where the car stands, up to 42 m
  /// east or west, within the default radius of 50 m.
  static func job(_ k: Int, _ j: Int) -> String {
    let at = FleetJobsTests.position(north: 240 + 250 * Double(k), east: (Double(j) - 7) * 6)
    return
      #"{"id":"D-\#(k * 15 + j + 1)","name":"Parcel \#(k * 15 + j + 1)","destination":{"lat":\#(at.lat),"lon":\#(at.lon)}}"#
  }

  static let ids = (1...150).map { "D-\($0)" }

  static func replies(_ rig: FleetRig, _ id: String) -> [MosquittoDispatcher.Arrival] { rig.dispatcher.replies(to: id) }

  @Test("150 jobs in one burst, none refused, queued in order; a manifest answered once; every job visited in order")
  func dayOfJobs() throws {
    let rig = try FleetRig("fleet-day")
    defer { rig.stop() }
    let receiver = try GPSDPseudoReceiver(
      nmea: try DaemonStopsDrive.write(Self.parts, in: rig.directory), secondsPerLine: 0.0025)
    defer { receiver.stop() }
    try receiver.startGPSD()
    let daemon = try rig.startDaemon(sections: "[Stops]\nMinimumStop=1min\n", gpsd: "127.0.0.1:\(receiver.port)")
    defer { daemon.stop() }
    #expect(daemon.waitForStatus(timeout: 20) { $0.object("gpsd")?["connected"] as? Bool == true } != nil)

    // The day in one burst: 150 commands written at once, none paced.
    let jobs = (0..<10).flatMap { k in (0..<15).map { j in Self.job(k, j) } }
    let firstSent = MosquittoDispatcher.now()
    for (id, job) in zip(Self.ids, jobs) {
      rig.dispatcher.send(FleetRig.command("assign-\(id)", "job.assign", args: job))
    }
    #expect(
      rig.dispatcher.wait(timeout: 60) { arrivals in
        arrivals.filter { $0.topic == "\(FleetRig.prefix)/reply" }.count >= 150
      }, "\(rig.dispatcher.received.count) replies")
    let outcomes = Self.ids.map { id in
      Self.replies(rig, "assign-\(id)").map { $0.ok == true ? "ok" : $0.errorCode ?? "?" }
    }
    #expect(outcomes == Array(repeating: ["ok"], count: 150), "\(Set(outcomes.flatMap { $0 }))")
    let lastReply = rig.dispatcher.received.last { $0.topic == "\(FleetRig.prefix)/reply" }?.at ?? firstSent
    // Printed, not judged (speed belongs in benches).
    print("fleet day: 150 job.assign written at once, all answered ok within \(Int((lastReply - firstSent) * 1000)) ms")
    let queue = try #require(try daemon.controlJSON(["jobs"])["queue"] as? [[String: Any]])
    #expect(queue.map { $0["id"] as? String } == Self.ids)

    // The same day as one manifest (a retry by dispatch software): answered once, nothing changes.
    let manifest = rig.directory.appendingPathComponent("manifest.json")
    func sendManifest(_ id: String, _ list: [String]) throws -> MosquittoDispatcher.Arrival {
      try FleetRig.command(id, "job.assign_all", args: #"{"jobs":["# + list.joined(separator: ",") + "]}")
        .write(to: manifest, atomically: true, encoding: .utf8)
      try rig.send(contentsOf: manifest)
      return try #require(rig.dispatcher.reply(to: id, timeout: 30), "no reply to \(id)")
    }
    let again = try sendManifest("day-again", jobs)
    #expect(again.result?["assigned"] as? Int == 0 && again.result?["unchanged"] as? Int == 150, "\(again.payload)")
    #expect(again.result?["queue_length"] as? Int == 150)
    #expect(Self.replies(rig, "day-again").count == 1)
    // 51 more pass the bound of 200; a job under a used id with other content: refused whole.
    let extra = (1...51).map { #"{"id":"E-\#($0)","name":"Extra","destination":{"lat":51.6,"lon":-0.12}}"# }
    let full = try sendManifest("day-extra", extra)
    #expect(full.errorCode == "queue_full")
    #expect(
      full.errorMessage
        == "job.assign_all: the queue holds 150 jobs not done and the list adds 51, past its bound of 200; none assigned: "
        + "cancel some (job.cancel) or send fewer")
    let changed = #"{"id":"D-7","name":"Parcel 7, moved","destination":{"lat":51.6,"lon":-0.12}}"#
    let conflict = try sendManifest("day-conflict", [extra[0], changed])
    #expect(conflict.errorCode == "conflict")
    #expect(
      conflict.errorMessage
        == #"job.assign_all: 1 of 2 jobs refused, none assigned: jobs[1] ("D-7"): assigned before with other content "#
        + #"("Parcel 7", queued); a changed job needs a new id"#)
    #expect(try (daemon.controlJSON(["jobs"])["queue"] as? [[String: Any]])?.map { $0["id"] as? String } == Self.ids)

    // The drive: every job visited at its stop, in the queue's order.
    #expect(try daemon.control(["shift", "start"]).status == 0)
    receiver.startFeeding()
    try #require(daemon.waitUntilRecorded(through: DaemonStopsDrive.lastFix(of: Self.parts)) != nil, "\(daemon.log)")
    func visited(_ arrivals: [MosquittoDispatcher.Arrival]) -> [String] {
      arrivals.filter { $0.topic == "\(FleetRig.prefix)/events" }.compactMap { $0.json["event"] as? [String: Any] }
        .filter { $0["type"] as? String == "job.visited" }
        .compactMap { (($0["fields"] as? [String: Any])?["job"] as? [String: Any])?["id"] as? String }
    }
    #expect(rig.dispatcher.wait(timeout: 30) { visited($0).count >= 150 }, "\(visited(rig.dispatcher.received).count)")
    #expect(visited(rig.dispatcher.received) == Self.ids)
    let ended = try daemon.control(["shift", "end"])
    #expect(ended.status == 0)
    #expect(rig.dispatcher.wait(timeout: 30) { $0.contains { $0.topic == "\(FleetRig.prefix)/shift" } })
    let shiftJobs = rig.dispatcher.received.first { $0.topic == "\(FleetRig.prefix)/shift" }?.json["jobs"]
    #expect((shiftJobs as? [[String: Any]])?.map { $0["id"] as? String } == Self.ids)
    let list = try daemon.controlJSON(["jobs"])
    #expect((list["queue"] as? [Any])?.isEmpty == true)
    #expect(
      (list["done"] as? [[String: Any]])?.map { $0["state"] as? String } == Array(repeating: "visited", count: 150))
  }
}
