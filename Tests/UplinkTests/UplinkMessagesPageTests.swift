import ControlProtocol
import DashPilotCore
import Foundation
import TestSupport
import Testing

@testable import Uplink

/// docs/uplink-messages.md is the contract of the fleet topics: every example on it is
/// either a command the box takes as it stands (judged by the one intake) or a payload the
/// box writes, byte for byte (the encoder's, a reply's), and every payload built here is
/// on the page.
@Suite("docs/uplink-messages.md and the payloads the box takes and writes")
struct UplinkMessagesPageTests {
  static let encoder = UplinkEncoder(vehicleID: "van-7")
  static let t0 = Date(timeIntervalSince1970: 1_700_000_000)  // 2023-11-14T22:13:20Z

  /// Every line of every ```json block on the page.
  static func examples() throws -> [String] {
    let page = try String(
      contentsOf: TestPaths.repositoryRoot.appendingPathComponent("docs/uplink-messages.md"), encoding: .utf8)
    var lines: [String] = []
    var inBlock = false
    for line in page.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
      if line == "```json" {
        inBlock = true
      } else if line == "```" {
        inBlock = false
      } else if inBlock {
        lines.append(line)
      }
    }
    return lines
  }

  /// A command a dispatcher sends: `{"v":1,"id":…,"cmd":…}`, in whatever order of keys.
  static func isCommand(_ line: String) -> Bool { line.hasPrefix(#"{"v":1,"id":"#) }

  /// An event line of docs/events.md (itself checked by EventVocabularyTests), as it is.
  static func event(_ line: String) throws -> ControlEvent {
    guard case .event(let event) = try ServerLine.parse(Data(line.utf8)).get() else {
      throw PageFailure("not an event line: \(line)")
    }
    return event
  }

  struct PageFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
  }

  static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

  /// The job of `office-job-11`, as the box reads it.
  static let job = DeliveryJob(
    id: "A-1", name: "Flowers, 12 High St", destination: GeoCoordinate(latitude: 51.5109801, longitude: -0.12),
    window: DateInterval(start: t0 - 800, end: t0 + 2800), note: "ring twice")

  static let commands = [
    #"{"v":1,"id":"office-navigate-1","cmd":"navigate","args":{"destination":{"lat":37.5,"lon":127.0113357}}}"#,
    #"{"v":1,"id":"office-route-3","cmd":"route.load","args":{"name":"north loop","coordinates":[{"lat":37.5,"lon":127.0},{"lat":37.5017986,"lon":127.0}]}}"#,
    #"{"v":1,"id":"office-end-7","cmd":"shift.end","expires_at":"2023-11-14T23:00:00Z"}"#,
    #"{"v":1,"id":"office-status-9","cmd":"status"}"#,
    #"{"v":1,"id":"office-route-4","cmd":"route.load","args":{"name":"north loop","gpx":"<gpx version=\"1.1\"><rte><rtept lat=\"37.5\" lon=\"127.0\"/><rtept lat=\"37.5017986\" lon=\"127.0\"/></rte></gpx>"}}"#,
    #"{"v":1,"id":"office-route-5","cmd":"route.load","args":{"name":"north loop","geojson":{"type":"Feature","properties":{},"geometry":{"type":"LineString","coordinates":[[127.0,37.5],[127.0,37.5017986]]}}}}"#,
    #"{"v":1,"id":"office-route-6","cmd":"route.load","args":{"gpx":"<gpx"}}"#,
    #"{"v":1,"id":"office-job-11","cmd":"job.assign","args":{"id":"A-1","name":"Flowers, 12 High St","destination":{"lat":51.5109801,"lon":-0.12},"radius_m":50,"window_start":"2023-11-14T22:00:00Z","window_end":"2023-11-14T23:00:00Z","note":"ring twice"}}"#,
    #"{"v":1,"id":"office-job-12","cmd":"job.assign","args":{"id":"A-1","name":"Flowers, 14 High St","destination":{"lat":51.5109801,"lon":-0.12}}}"#,
    #"{"v":1,"id":"office-job-13","cmd":"job.cancel","args":{"id":"B-2"}}"#,
    #"{"v":1,"id":"office-job-14","cmd":"job.list"}"#,
    #"{"v":1,"id":"office-day-15","cmd":"job.assign_all","args":{"jobs":[{"id":"A-1","name":"Flowers, 12 High St","destination":{"lat":51.5109801,"lon":-0.12},"radius_m":50,"window_start":"2023-11-14T22:00:00Z","window_end":"2023-11-14T23:00:00Z","note":"ring twice"},{"id":"C-3","name":"Parcel, 3 Low Rd","destination":{"lat":51.5141,"lon":-0.1195},"radius_m":40}]}}"#,
    #"{"v":1,"id":"office-resend-21","cmd":"shift.resend","args":{"id":42,"since":"2023-11-14T22:00:00Z","until":"2023-11-14T22:30:00Z"}}"#,
  ]

  /// The payloads the page shows the box writing, built from the same inputs as its examples.
  static func written() throws -> [String] {
    var payloads: [String] = []
    let session = CaptureSessionID("cs-1")
    let samples = [
      RouteSample(
        timestamp: t0, coordinate: GeoCoordinate(latitude: 51.5, longitude: -0.12), horizontalAccuracy: 5,
        speed: 12.5, course: 90, captureSessionID: session),
      RouteSample(
        timestamp: t0 + 1.25, coordinate: GeoCoordinate(latitude: 51.50001, longitude: -0.11999),
        horizontalAccuracy: 7.25, captureSessionID: CaptureSessionID("cs-2")),
    ]
    payloads.append(
      text(encoder.encode(.samples(CommittedSamples(shiftID: 42, samples: samples)), sequence: 17, queuedAt: t0 + 2)))
    let distance = RouteDistance(
      metres: 19_956.3, segments: 3, gaps: 2, usablePositions: 812, usesInferredContinuity: false)
    var report = try #require(
      ShiftReport(
        shift: Shift(id: 42, startedAt: t0, endedAt: t0 + 3600), distance: distance, startedBy: .movement,
        endedBy: .stopped))
    // The job the office assigned (`office-job-11`), visited at the depot stop below.
    let visit = WireJobVisit(
      arrival: t0 + 119, departure: t0 + 421, distanceMetres: 30, receiverReportedThroughout: true,
      withinWindow: true, stopEnd: "departed")
    report.jobs = [WireJob(Self.job, state: "visited", shift: 42, visit: visit)]
    payloads.append(text(encoder.encode(.shift(report), sequence: 18, queuedAt: t0 + 3601)))
    let ended = SessionEvent(
      shiftID: 42, captureSession: CaptureSessionID("cs-9"), phase: .end, at: t0, reason: "connection_lost")
    payloads.append(text(encoder.encode(.session(ended), sequence: 19, queuedAt: t0)))
    // A 5-minute stop at the depot, told when the vehicle left it (FleetStopTests hears the
    // same message from a real daemon and finds it equal to `shift show`'s stop).
    let stop = Stop(
      arrival: t0 + 119, departure: t0 + 421, start: .arrived, end: .departed,
      position: GeoCoordinate(latitude: 51.5107092, longitude: -0.12), wander: 0.04, positions: 7)
    var depot = WireStop(stop)
    depot.place = "Depot"
    payloads.append(text(encoder.encode(.stop(StopReport(shiftID: 42, stop: depot)), sequence: 24, queuedAt: t0 + 421)))
    payloads.append(text(encoder.status(online: true, since: t0)))
    payloads.append(text(encoder.status(online: false, since: nil)))
    let position = RouteSample(
      timestamp: t0, coordinate: GeoCoordinate(latitude: -33.865, longitude: 151.2094), horizontalAccuracy: 3,
      speed: 0, captureSessionID: nil)
    let running = LiveStatus.RunningShift(shift: Shift(id: 5, startedAt: t0), distance: .empty)
    payloads.append(
      text(
        encoder.live(
          LiveStatus(
            at: t0 + 0.5, position: position, shift: running,
            guidance: LiveStatus.Guidance(phase: "following", distanceRemaining: 549.94)))))
    payloads.append(text(encoder.live(LiveStatus(at: t0, position: nil, shift: nil))))

    // Guidance events, as docs/events.md gives them, queued as they happened.
    let events = [
      #"{"event":{"fields":{"at":"2024-05-14T09:01:12.204Z","fix_time":"2024-05-14T09:01:12.000Z","lateral_m":61.2},"message":"off route: 61 m from it","time":"2024-05-14T09:01:12.000Z","type":"guidance.off_route"},"v":1}"#,
      #"{"event":{"fields":{"at":"2024-05-14T09:01:12.249Z","first_bearing":0.2,"latency_ms":44.6,"length_m":1204.7,"points":17,"request":"reroute-1","since_off_route_ms":45.1,"start":{"lat":37.502671,"lon":127.002371}},"message":"following a new route (17 points, 1205 m)","time":"2024-05-14T09:01:12.000Z","type":"guidance.rerouted"},"v":1}"#,
      #"{"event":{"fields":{"at":"2024-05-14T09:01:12.251Z","detail":"valhalla: HTTP 402: quota exhausted","failure":"quota_exhausted","permanent":true,"reason":"quota_exhausted"},"message":"no new route (valhalla: HTTP 402: quota exhausted); waiting cannot fix this, so no more are asked for","time":"2024-05-14T09:01:12.000Z","type":"guidance.reroute_failed"},"v":1}"#,
      #"{"event":{"fields":{"at":"2024-05-14T09:02:40.090Z","fix_time":"2024-05-14T09:02:40.000Z"},"message":"arrived at the end of the route","time":"2024-05-14T09:02:40.000Z","type":"guidance.arrived"},"v":1}"#,
    ]
    for (index, line) in events.enumerated() {
      let event = try event(line)
      payloads.append(
        text(
          encoder.encode(
            .event(FleetEvent(shiftID: 42, event: event)), sequence: Int64(20 + index), queuedAt: event.time + 0.3)))
    }
    let shiftStarted = try event(
      #"{"event":{"fields":{"reason":"movement","shift":4,"started_at":"2024-05-14T08:01:52.000Z","started_by":"movement"},"message":"shift 4 started on movement: 212 m from where the vehicle stood; its window starts at the movement's first fix, 2024-05-14T08:01:52.000Z","time":"2024-05-14T08:02:11.000Z","type":"shift.started"},"v":1}"#
    )
    payloads.append(
      text(
        encoder.encode(.event(FleetEvent(shiftID: 4, event: shiftStarted)), sequence: 3, queuedAt: shiftStarted.time)))

    // A job visited, as docs/events.md gives it (FleetJobsTests hears the same from a real
    // daemon), and the replies to the page's job commands.
    let visited = try event(
      #"{"event":{"fields":{"figure":{"metres":8460.2,"partial":false,"summary":"5.3 mi recorded"},"job":{"id":"A-1","lat":51.51098,"lon":-0.12,"name":"Flowers, 12 High St","note":"ring twice","radius_m":50,"shift":4,"state":"visited","visit":{"arrival":"2024-05-14T09:13:10.000Z","departure":"2024-05-14T09:30:41.000Z","distance_m":30,"duration_s":1051,"receiver_reported_throughout":true,"stop_end":"departed","within_window":true},"window_end":"2024-05-14T11:00:00.000Z","window_start":"2024-05-14T09:00:00.000Z"},"shift":4},"message":"visited job A-1 (Flowers, 12 High St): stopped 18 min, 30 m from it, from 2024-05-14T09:13:10.000Z to 2024-05-14T09:30:41.000Z","time":"2024-05-14T09:30:41.400Z","type":"job.visited"},"v":1}"#
    )
    payloads.append(
      text(encoder.encode(.event(FleetEvent(shiftID: 4, event: visited)), sequence: 31, queuedAt: visited.time)))
    let queued = JobResult(job: WireJob(Self.job, state: "queued"), changed: true)
    payloads.append(text(CommandReply(id: "office-job-11", answer: .success(queued)).payload))
    let conflict = ControlError(
      .conflict,
      #"job A-1 was assigned before with other content ("Flowers, 12 High St", queued); a changed job needs a new id"#)
    payloads.append(text(CommandReply(id: "office-job-12", answer: .failure(conflict)).payload))
    // The day's manifest: A-1 queued before as it is, C-3 new; and a list with two jobs the
    // one parser refuses, answered as the intake answers it.
    let day = JobsAssignedResult(
      jobs: [.init(id: "A-1", changed: false, state: "queued"), .init(id: "C-3", changed: true, state: "queued")],
      queueLength: 2)
    payloads.append(text(CommandReply(id: "office-day-15", answer: .success(day)).payload))
    var dayIntake = CommandIntake(allowed: UplinkConfiguration.defaultAllowedCommands)
    let badDay =
      #"{"v":1,"id":"office-day-16","cmd":"job.assign_all","args":{"jobs":[{"id":"A-1","name":"A","destination":{"lat":51.5,"lon":-0.12}},"#
      + #"{"id":"D-4","name":"Tight","destination":{"lat":51.5,"lon":-0.12},"radius_m":5},{"id":"E-5","destination":{"lat":51.5,"lon":-0.12}}]}}"#
    guard case .refuse(.text(let badID)?, let badError, nil) = dayIntake.judge(message(badDay), now: 0) else {
      throw PageFailure("\(badDay) was not refused with a reply")
    }
    payloads.append(text(CommandReply(id: badID, answer: .failure(badError)).payload))
    // A shift sent again: 1,800 samples in two messages, two stops, the shift message.
    let resent = ShiftResendResult(
      shift: 42, samples: 1_800, stops: 2, shiftMessage: true, messages: 5, firstSequence: 301, lastSequence: 305)
    payloads.append(text(CommandReply(id: "office-resend-21", answer: .success(resent)).payload))

    // Replies: the navigate answered with its route, the expired shift end judged an hour
    // after t0, the 201st command at once, and an id given as a number.
    let route = RouteResult(name: nil, mode: .driving, points: 6, lengthMetres: 950.3, source: "valhalla")
    payloads.append(text(CommandReply(id: "office-navigate-1", answer: .success(route)).payload))
    var intake = CommandIntake(allowed: UplinkConfiguration.defaultAllowedCommands)
    let expiring = commands[2]
    guard case .run(let request, let id) = intake.judge(message(expiring), now: 0) else {
      throw PageFailure("\(expiring) was not run")
    }
    guard case .expired(let error) = CommandExpiry.judge(request, trustedNow: t0 + 3600) else {
      throw PageFailure("\(expiring) did not expire")
    }
    payloads.append(text(CommandReply(id: id, answer: .failure(error)).payload))
    for _ in 0..<199 { _ = intake.judge(message(commands[3]), now: 0) }
    guard case .refuse(.text(let busyID)?, let busy, _) = intake.judge(message(commands[3]), now: 0) else {
      throw PageFailure("the 201st command at once was not refused")
    }
    payloads.append(text(CommandReply(id: busyID, answer: .failure(busy)).payload))
    // The inline routes' answers, as the daemon gives them (InlineRouteCommandTests sends
    // the page's commands to a real daemon and checks these).
    let inline = RouteResult(
      name: "north loop", mode: .driving, points: 2, lengthMetres: 199.99547130774383, source: "file")
    payloads.append(text(CommandReply(id: "office-route-4", answer: .success(inline)).payload))
    let unreadable = ControlError(.badArguments, "route.load: args.gpx: is not XML (the document ends inside <gpx>)")
    payloads.append(text(CommandReply(id: "office-route-6", answer: .failure(unreadable)).payload))
    return payloads
  }

  static func message(_ text: String) -> InboundCommand {
    InboundCommand(topic: "dashpilot/van-7/command", payload: Array(text.utf8), size: text.utf8.count)
  }

  @Test("every payload the box writes is on the page byte for byte, and the page shows no other")
  func writtenPayloadsAreThePagesExamples() throws {
    let shown = try Self.examples().filter { !Self.isCommand($0) }
    let written = try Self.written()
    #expect(written.count == 24)
    for payload in written where !shown.contains(payload) { Issue.record("not on the page: \(payload)") }
    for line in shown where !written.contains(line) { Issue.record("on the page, not written: \(line)") }
  }

  @Test("every command on the page is taken by the intake as it stands, under the default AllowedCommands=")
  func commandExamplesAreTaken() throws {
    let shown = try Self.examples().filter(Self.isCommand)
    #expect(shown == Self.commands)
    for line in shown {
      var intake = CommandIntake(allowed: UplinkConfiguration.defaultAllowedCommands)
      guard case .run(_, let id) = intake.judge(Self.message(line), now: 0) else {
        Issue.record("refused: \(line)")
        continue
      }
      #expect(line.hasPrefix(#"{"v":1,"id":"\#(id)""#))
    }
  }
}
