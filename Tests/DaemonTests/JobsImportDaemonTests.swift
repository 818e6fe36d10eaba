import Foundation
import TestSupport
import Testing

/// `dashpilotctl jobs import` against a real `dashpilotd` over its socket, on a real SQLite
/// file: a day of 150 jobs from CSV queued in the file's order (in parts: the socket's
/// lines hold 64 KiB), the same file again changing nothing, and each refusal (a file with
/// mistakes, a conflict, the bound) leaving the queue as it was.
@Suite("dashpilotctl jobs import against a real daemon", .serialized)
struct JobsImportDaemonTests {
  /// Job `k` of the day: on a street north of 51°30' N, 300 m apart, a quoted name with a
  /// comma and a note on every third.
  static func row(_ k: Int) -> String {
    let lat = 51.5 + Double(k) * 300 / 111_195
    return "D-\(k),\"Parcel \(k), High St\",\(lat),-0.12,40,,,\(k.isMultiple(of: 3) ? "ring twice" : "")"
  }

  static func queueIDs(_ daemon: DaemonUnderTest) throws -> [String] {
    try (daemon.controlJSON(["jobs"])["queue"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
  }

  @Test("a day of 150 from CSV, in order; again, nothing changes; refusals touch nothing")
  func importDay() throws {
    let directory = try TestPaths.temporaryDirectory("jobs-import")
    defer { try? FileManager.default.removeItem(at: directory) }
    let day = directory.appendingPathComponent("day.csv")
    try ("id,name,lat,lon,radius_m,window_start,window_end,note\n" + (1...150).map(Self.row).joined(separator: "\n"))
      .write(to: day, atomically: true, encoding: .utf8)
    let daemon = try DaemonUnderTest(databasePath: directory.appendingPathComponent("dashpilot.sqlite").path)
    defer { _ = daemon.stop() }
    try daemon.waitUntilReady(timeout: 30)

    let imported = try daemon.control(["jobs", "import", day.path])
    #expect(imported.status == 0, "\(imported.standardError)")
    #expect(imported.standardOutput == "Queued 150 of 150 jobs from \(day.path); 150 not done.\n")
    let order = (1...150).map { "D-\($0)" }
    #expect(try Self.queueIDs(daemon) == order)
    let queue = try #require(try daemon.controlJSON(["jobs"])["queue"] as? [[String: Any]])
    #expect(queue[2]["name"] as? String == "Parcel 3, High St" && queue[2]["note"] as? String == "ring twice")
    #expect(queue[3]["note"] is NSNull && queue[3]["radius_m"] as? Double == 40)

    // The same day again (an office retrying): answered as it stands.
    let again = try daemon.controlJSON(["jobs", "import", day.path])
    #expect(again["assigned"] as? Int == 0 && again["unchanged"] as? Int == 150 && again["queue_length"] as? Int == 150)
    #expect((again["jobs"] as? [[String: Any]])?.first?["state"] as? String == "queued")

    // A GeoJSON day of 51 more passes the bound of 200: refused whole.
    let more = directory.appendingPathComponent("more.geojson")
    let features = (1...51).map { k in
      #"{"type":"Feature","geometry":{"type":"Point","coordinates":[-0.13,51.6]},"properties":{"id":"E-\#(k)","name":"Extra \#(k)"}}"#
    }
    try (#"{"type":"FeatureCollection","features":["# + features.joined(separator: ",\n") + "]}")
      .write(to: more, atomically: true, encoding: .utf8)
    let full = try daemon.control(["jobs", "import", more.path])
    #expect(full.status == 1)
    #expect(
      full.standardError
        == "dashpilotctl: dashpilotd refused: job.assign_all: the queue holds 150 jobs not done and the list adds 51, "
        + "past its bound of 200; none assigned: cancel some (job.cancel) or send fewer (queue_full)\n")

    // A job under a used id with other content refuses the list: named by its place in it.
    let changed = directory.appendingPathComponent("changed.csv")
    try "id,name,lat,lon\nE-1,Extra,51.6,-0.13\nD-7,Another name,51.6,-0.13\n".write(
      to: changed, atomically: true, encoding: .utf8)
    let conflict = try daemon.control(["jobs", "import", changed.path])
    #expect(conflict.status == 1)
    #expect(
      conflict.standardError
        == #"dashpilotctl: dashpilotd refused: job.assign_all: 1 of 2 jobs refused, none assigned: jobs[1] ("D-7"): "#
        + #"assigned before with other content ("Parcel 7, High St", queued); a changed job needs a new id (conflict)"#
        + "\n")

    // A file with mistakes is never sent: each named, then one line saying so.
    let broken = directory.appendingPathComponent("broken.csv")
    try "id,name,lat,lon,radius_m\nE-1,Extra,51.6,-0.13,5\nE-2,,51.6,-0.13,\n".write(
      to: broken, atomically: true, encoding: .utf8)
    let refused = try daemon.control(["jobs", "import", broken.path])
    #expect(refused.status == 1)
    #expect(
      refused.standardError
        == "dashpilotctl: \(broken.path):2: \"radius_m\" must be a number of metres from 10 to 1000\n"
        + "dashpilotctl: \(broken.path):3: needs \"name\": what the driver reads and hears\n"
        + "dashpilotctl: \(broken.path) was not imported: 2 problems; no job was sent\n")
    #expect(try Self.queueIDs(daemon) == order)

    // A list that gives one id twice with other content, as only a client of its own sends
    // it (the file reader refuses a repeated id): named by both places in the list.
    let client = try RawSocketClient(path: daemon.socketPath)
    let twice = client.ask(
      #"{"v":1,"id":9,"cmd":"job.assign_all","args":{"jobs":[{"id":"F-1","name":"F","destination":{"lat":51.6,"lon":-0.13}},"#
        + #"{"id":"F-1","name":"G","destination":{"lat":51.6,"lon":-0.13}}]}}"#)
    #expect(
      JobsQueueDaemonTests.error(twice)
        == #"conflict: job.assign_all: 1 of 2 jobs refused, none assigned: jobs[1] ("F-1"): the list gives job F-1 "#
        + "before, as jobs[0], with other content")
    #expect(try Self.queueIDs(daemon) == order)
  }
}
