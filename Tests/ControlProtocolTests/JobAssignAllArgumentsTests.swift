import ControlProtocol
import DashPilotCore
import Foundation
import Testing

/// `job.assign_all`'s list as the one parser reads it: each job read as `job.assign`'s,
/// every job that cannot be read named with its index and id, none taken; written back as
/// read, and cut into parts and joined again for the socket's 64 KiB lines.
@Suite("job.assign_all arguments")
struct JobAssignAllArgumentsTests {
  static func line(_ jobs: String, more: String = "") -> String {
    #"{"v":1,"id":"day-1","cmd":"job.assign_all","args":{"jobs":\#(jobs)\#(more)}}"#
  }

  static func refusal(_ line: String) -> ControlError? {
    if case .failure(let failure) = RequestParser.parse(Array(line.utf8)) { return failure.error }
    return nil
  }

  static func job(_ index: Int) -> DeliveryJob {
    DeliveryJob(
      id: "J-\(index)", name: "Parcel \(index), High St", destination: GeoCoordinate(latitude: 51.5, longitude: -0.12),
      radius: 40, note: index.isMultiple(of: 2) ? "ring twice" : nil)
  }

  @Test("a list is read in its order, each job as job.assign reads one, and written back as read")
  func readsAndWritesBack() throws {
    let request = try RequestParser.parse(
      Array(
        Self.line(
          #"[{"id":"A-1","name":"Flowers","destination":{"lat":51.5,"lon":-0.12},"radius_m":30},"#
            + #"{"id":"B-2","name":"Parcel","destination":{"lat":51.51,"lon":-0.12},"window_start":"2026-12-02T09:00:00Z","window_end":"2026-12-02T11:00:00Z"}]"#
        ).utf8)
    ).get()
    let window = DateInterval(start: try #require(UTCTimestamp.parse("2026-12-02T09:00:00Z")), duration: 7200)
    let expected = [
      DeliveryJob(id: "A-1", name: "Flowers", destination: GeoCoordinate(latitude: 51.5, longitude: -0.12), radius: 30),
      DeliveryJob(
        id: "B-2", name: "Parcel", destination: GeoCoordinate(latitude: 51.51, longitude: -0.12), window: window),
    ]
    #expect(request.command == .jobAssignAll(JobAssignAllArguments(jobs: expected)))
    let whole = JobAssignAllArguments(jobs: (0..<200).map(Self.job))
    let again = try RequestParser.parse(Array(ControlRequest(id: 1, command: whole.command).encodedLine())).get()
    #expect(again.command == whole.command)
  }

  @Test("every job that cannot be read is named with its index and id, and none is taken")
  func eachMistakeNamed() {
    let jobs = [
      #"{"id":"A-1","name":"Flowers","destination":{"lat":51.5,"lon":-0.12}}"#,
      #"{"id":"B-2","name":"Tight","destination":{"lat":51.5,"lon":-0.12},"radius_m":5}"#,
      #"{"name":"No id","destination":{"lat":51.5,"lon":-0.12}}"#,
      #""C-3""#,
      #"{"id":"D-4","name":"Half","destination":{"lat":51.5,"lon":-0.12},"window_start":"2026-12-02T09:00:00Z"}"#,
      #"{"id":"E-5","name":"Typo","destination":{"lat":51.5,"lon":-0.12},"radius":30}"#,
    ]
    #expect(
      Self.refusal(Self.line("[" + jobs.joined(separator: ",") + "]"))
        == ControlError(
          .badArguments,
          #"job.assign_all: 5 of 6 jobs refused, none assigned: jobs[1] ("B-2"): "radius_m" must be a number of metres from 10 to 1000; "#
            + #"jobs[2]: needs "id": the job's id, 1 to 64 bytes; jobs[3]: must be a job {"id":…,"name":…,"destination":…}; "#
            + #"jobs[4] ("D-4"): a window needs both "window_start" and "window_end"; jobs[5] ("E-5"): does not take the argument "radius""#
        ))
  }

  @Test("no job, more than the queue's bound, or not a list: refused as such")
  func wholeListRefusals() {
    let one = #"{"id":"A","name":"A","destination":{"lat":1,"lon":2}}"#
    #expect(
      Self.refusal(Self.line("[]")) == ControlError(.badArguments, #"job.assign_all: "jobs" holds no job"#))
    #expect(
      Self.refusal(Self.line("[" + Array(repeating: one, count: 201).joined(separator: ",") + "]"))
        == ControlError(
          .badArguments, #"job.assign_all: "jobs" holds 201 jobs; a list is at most 200, the queue's bound"#))
    #expect(Self.refusal(Self.line(one)) == ControlError(.badArguments, #"job.assign_all: "jobs" must be an array"#))
    #expect(
      Self.refusal(#"{"v":1,"id":1,"cmd":"job.assign_all"}"#)
        == ControlError(.badArguments, #"job.assign_all: needs an array "jobs""#))
  }

  @Test("cut into parts of 16 for the socket, each but the last marked more, joined back whole")
  func parts() throws {
    let whole = JobAssignAllArguments(jobs: (0..<150).map(Self.job))
    let parts = whole.parts(of: 16)
    #expect(parts.map(\.jobs.count) == Array(repeating: 16, count: 9) + [6])
    #expect(parts.map(\.more) == Array(repeating: true, count: 9) + [false])
    var joined: JobAssignAllArguments?
    for part in parts {
      let line = ControlRequest(id: 1, command: part.command).encodedLine()
      #expect(line.count < ControlProtocolLimits.maximumLineLength)
      guard case .jobAssignAll(let read) = try RequestParser.parse(Array(line)).get().command else {
        Issue.record("not a job list: \(line)")
        return
      }
      joined = joined?.appending(read) ?? read
    }
    #expect(joined == whole)
    #expect(JobAssignAllArguments.maximumElements == 200)
  }

  @Test("a job at every text's longest, escaped, is under 4 KiB: 16 of them fit one line")
  func longestJob() throws {
    let longest = String(repeating: "\u{1}", count: 256)
    let job = DeliveryJob(
      id: String(repeating: "\u{1}", count: 64), name: longest,
      destination: GeoCoordinate(latitude: -33.8650001, longitude: 151.2094001), radius: 999.9,
      window: DateInterval(start: Date(timeIntervalSince1970: 1_700_000_000.001), duration: 3600.5), note: longest)
    let line = ControlRequest(
      id: "day-1", command: .jobAssignAll(JobAssignAllArguments(jobs: Array(repeating: job, count: 16), more: true))
    ).encodedLine()
    #expect(line.count < ControlProtocolLimits.maximumLineLength, "\(line.count) bytes")
    #expect(
      try RequestParser.parse(Array(line)).get().command
        == .jobAssignAll(JobAssignAllArguments(jobs: Array(repeating: job, count: 16), more: true)))
  }
}
