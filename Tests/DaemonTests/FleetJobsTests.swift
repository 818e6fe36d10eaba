import DashPilotCore
import Foundation
import TestSupport
import Testing

/// Jobs from the office, all real: a dispatcher assigns three jobs to `dashpilotd` over a
/// real mosquitto (`job.assign`), a real gpsd feeds it `DaemonStopsDrive`, and the office
/// hears on `PREFIX/events` exactly what the car did: the job at the 5-minute stop arrived
/// and visited, with the stop's evidence; the one at the 60 s red light (driven through:
/// standing less than a stop) and the one 5 km away not reached when the shift ends.
@Suite("jobs from the office, against a real gpsd and mosquitto", .serialized, .requiresMosquitto, .requiresGPSD)
struct FleetJobsTests {
  /// `north` metres north of 51°30' N on 0°7.2' W, as the drive's NMEA writes it (a minute
  /// of latitude is 1,852 m), and `east` metres east of it.
  static func position(north: Double, east: Double = 0) -> (lat: Double, lon: Double) {
    let lat = 51 + (30 + north / 1852) / 60
    let metresPerDegree = GeographicDistance.earthRadius * Double.pi / 180
    return (lat, -0.12 + east / (metresPerDegree * cos(lat * Double.pi / 180)))
  }

  /// `job.assign` of job `id`, sent as command `id`, or as `command` (a command id is
  /// taken once too: the same command again is answered with its first reply).
  static func assign(
    _ id: String, _ name: String, north: Double, east: Double = 0, radius: String = "", command: String? = nil
  ) -> String {
    let at = position(north: north, east: east)
    return FleetRig.command(
      command ?? id, "job.assign",
      args: #"{"id":"\#(id)","name":"\#(name)","destination":{"lat":\#(at.lat),"lon":\#(at.lon)}\#(radius)}"#)
  }

  @Test("one visited, one driven through, one never reached: exactly those events, with the evidence")
  func threeJobs() throws {
    let rig = try FleetRig("fleet-jobs")
    defer { rig.stop() }
    let receiver = try GPSDPseudoReceiver(nmea: try DaemonStopsDrive.write(in: rig.directory), secondsPerLine: 0.005)
    defer { receiver.stop() }
    try receiver.startGPSD()
    let daemon = try rig.startDaemon(gpsd: "127.0.0.1:\(receiver.port)")
    defer { daemon.stop() }
    #expect(daemon.waitForStatus(timeout: 20) { $0.object("gpsd")?["connected"] as? Bool == true } != nil)

    // 30 m north of where the drive stands 5 minutes; where it waits 60 s at a red light; 5 km east.
    rig.send(Self.assign("A-1", "Flowers, 12 High St", north: 1_220))
    rig.send(Self.assign("B-2", "Parcel, 40 High St", north: 2_390))
    rig.send(Self.assign("C-3", "Returns, Far Lane", north: 1_190, east: 5_000))
    // Refused, nothing touched: a radius out of range, another job under a taken id, no destination.
    rig.send(Self.assign("D-4", "Too tight", north: 0, radius: #","radius_m":5"#))
    rig.send(Self.assign("A-1", "Something else", north: 1_220, command: "A-1-changed"))
    rig.send(FleetRig.command("E-5", "job.assign", args: #"{"id":"E-5","name":"Nowhere"}"#))
    let replies = try ["A-1", "B-2", "C-3", "D-4", "A-1-changed", "E-5"].enumerated().map { index, id in
      try #require(
        rig.dispatcher.wait(timeout: 30) { $0.filter { $0.topic == "\(FleetRig.prefix)/reply" }.count > index })
      return id
    }
    #expect(replies.count == 6)
    let answers = rig.dispatcher.received.filter { $0.topic == "\(FleetRig.prefix)/reply" }.map(\.json)
    #expect(answers.prefix(3).map { ($0["result"] as? [String: Any])?["changed"] as? Bool } == [true, true, true])
    #expect(
      answers.suffix(3).map { ($0["error"] as? [String: Any])?["code"] as? String }
        == ["bad_arguments", "conflict", "bad_arguments"], "\(answers.suffix(3))")
    #expect(
      (answers[4]["error"] as? [String: Any])?["message"] as? String
        == #"job A-1 was assigned before with other content ("Flowers, 12 High St", queued); a changed job needs a new id"#
    )
    #expect(
      (answers[3]["error"] as? [String: Any])?["message"] as? String
        == #"job.assign: "radius_m" must be a number of metres from 10 to 1000"#, "\(answers[3])")

    #expect(try daemon.control(["shift", "start"]).status == 0)
    let events = try EventFollower(socketPath: daemon.socketPath)
    receiver.startFeeding()
    try #require(daemon.waitUntilRecorded(through: DaemonStopsDrive.lastFix) != nil, "\(daemon.log)")
    let visited = try #require(events.wait(for: "job.visited", timeout: 30), "\(events.summary)\n\(daemon.log)")
    #expect(try daemon.control(["shift", "end"]).status == 0)
    #expect(
      events.wait(timeout: 30) {
        $0.type == "job.not_reached" && ($0.fields["job"] as? [String: Any])?["id"] as? String == "C-3"
      } != nil)

    // The office's view: the job events on PREFIX/events, in order.
    let eventsTopic = "\(FleetRig.prefix)/events"
    #expect(
      rig.dispatcher.wait(timeout: 30) {
        $0.filter {
          $0.topic == eventsTopic
            && (($0.json["event"] as? [String: Any])?["type"] as? String)?.hasPrefix("job.") == true
        }.count >= 4
      })
    let told = rig.dispatcher.received.filter { $0.topic == eventsTopic }.compactMap {
      $0.json["event"] as? [String: Any]
    }
    .filter { ($0["type"] as? String)?.hasPrefix("job.") == true }
    #expect(
      told.map {
        "\($0["type"] as? String ?? "?") \((($0["fields"] as? [String: Any])?["job"] as? [String: Any])?["id"] as? String ?? "?")"
      }
        == ["job.arrived A-1", "job.visited A-1", "job.not_reached B-2", "job.not_reached C-3"], "\(told)")

    // The evidence of the visit: the stop shift show lists, 30 m from the destination.
    let fields = visited.fields
    let job = try #require(fields["job"] as? [String: Any])
    let visit = try #require(job["visit"] as? [String: Any])
    #expect(job["state"] as? String == "visited" && fields["shift"] as? Int == 1)
    #expect(visit["arrival"] as? String == PlacesDaemonTests.at(119))
    #expect(visit["departure"] as? String == PlacesDaemonTests.at(421))
    #expect(visit["duration_s"] as? Double == 302)
    #expect(visit["distance_m"] as? Double == 30.0)
    #expect(visit["receiver_reported_throughout"] as? Bool == true)
    #expect(visit["stop_end"] as? String == "departed")
    #expect(visit["within_window"] is NSNull)
    let figure = try #require(fields["figure"] as? [String: Any], "\(fields)")
    #expect(figure["partial"] as? Bool == false)
    #expect(
      visited.message
        == "visited job A-1 (Flowers, 12 High St): stopped 5 min, 30 m from it, from \(PlacesDaemonTests.at(119)) to \(PlacesDaemonTests.at(421))"
    )
    let notReached = told[2]
    #expect(((notReached["fields"] as? [String: Any])?["job"] as? [String: Any])?["visit"] is NSNull)
    // The shift's figure as it ended: the one shift.ended tells.
    let ended = try #require(events.all("shift.ended").first)
    let endFigure = try #require((notReached["fields"] as? [String: Any])?["figure"] as? [String: Any], "\(notReached)")
    #expect(endFigure["metres"] as? Double == ended.fields["distance_m"] as? Double)
    #expect(endFigure["summary"] as? String == ended.fields["summary"] as? String)
    #expect(endFigure["partial"] as? Bool == true, "the drive's 180 s silence is a gap")

    // The shift message carries the job visited (those not reached are told after it).
    let shiftTopic = "\(FleetRig.prefix)/shift"
    #expect(rig.dispatcher.wait(timeout: 30) { $0.contains { $0.topic == shiftTopic } })
    let shiftJobs = try #require(
      rig.dispatcher.received.first { $0.topic == shiftTopic }?.json["jobs"] as? [[String: Any]])
    #expect(shiftJobs.map { $0["id"] as? String } == ["A-1"])
    #expect(NSDictionary(dictionary: shiftJobs[0]).isEqual(to: job), "\(shiftJobs[0])\n\(job)")

    // shift show lists them; the queue is empty, the shift's done jobs in order.
    let shown = try #require(try daemon.controlJSON(["shift", "show", "1"])["jobs"] as? [[String: Any]])
    #expect(
      shown.map { "\($0["id"] as? String ?? "?") \($0["state"] as? String ?? "?")" } == [
        "A-1 visited", "B-2 not_reached", "C-3 not_reached",
      ])
    let list = try daemon.controlJSON(["jobs"])
    #expect((list["queue"] as? [Any])?.isEmpty == true)
    #expect(list["shift"] as? Int == 1)
    #expect((list["done"] as? [[String: Any]])?.map { $0["id"] as? String } == ["A-1", "B-2", "C-3"])
  }
}
