import DashPilotCore
import Foundation
import TestSupport
import Testing

@testable import Daemon

/// The guidance component against a real Valhalla on loopback over the generated grid, fed
/// by a real gpsd that gpsfake plays a generated grid drive into (scripts/fixtures/grid_drive.py),
/// observed the way a user does: the control socket's answers, `status` and `events`.
@Suite("Rerouting against a real Valhalla", .requiresValhalla, .requiresGPSFake)
struct RerouteLiveTests {
  /// A speech command that appends what it reads on standard input to `file`, so the test
  /// can read what was "spoken". No script file: executing a file this process has just
  /// written races with other tests' forks still holding it open (ETXTBSY).
  static func recordingSpeechCommand(into file: URL) throws -> String {
    #"/bin/sh -c 'cat >> "$0"' "# + file.path
  }

  @Test("leaving the planned route is confirmed, rerouted with the car's heading, and the new route sets off that way")
  func turnOffIsReroutedWithTheCarsHeading() throws {
    let server = try GuidanceEngines.valhalla.get()
    let drive = try GridDrive("grid-turn-off")
    #expect(drive.nodes == server.grid.nodes, "the drive was generated for another grid")
    let directory = try TestPaths.temporaryDirectory("guidance-speech")
    defer { try? FileManager.default.removeItem(at: directory) }
    let spoken = directory.appendingPathComponent("spoken.txt")
    let speech = try Self.recordingSpeechCommand(into: spoken)
    let rig = try GuidanceRig(drive: drive, routingURL: server.baseURL) { $0.speechCommand = speech }
    defer { rig.stop() }

    let answer = try #require(rig.navigate(to: drive.coordinate("navigate_to")))
    let result = try #require(answer["result"] as? [String: Any], "navigate failed: \(answer)")
    #expect(result["source"] as? String == "valhalla")
    #expect(result["mode"] as? String == "driving")
    // From 50 m east of row 0, column 0 to row 0, column 5: straight along Row 0 Street.
    let length = try #require(result["length_m"] as? Double)
    #expect(abs(length - 950) < 3, "route length \(length)")
    let planned = try #require(rig.follower.wait(for: "guidance.route_planned"))
    #expect(abs((planned.number("first_bearing") ?? -1) - 90) < 2)

    let off = try #require(rig.follower.wait(for: "guidance.off_route", timeout: 60), "\(rig.follower.summary)")
    #expect((off.number("lateral_m") ?? 0) > 45)
    let requested = try #require(rig.follower.wait(for: "guidance.reroute_requested"), "\(rig.follower.summary)")
    let course = try #require(requested.number("course"), "the reroute carried no heading")
    #expect(GeographicDistance.angleBetween(course, 0) < 10, "heading \(course)")
    #expect(requested.string("mode") == "driving")
    let rerouted = try #require(rig.follower.wait(for: "guidance.rerouted"), "\(rig.follower.summary)")
    let bearing = try #require(rerouted.number("first_bearing"))
    #expect(GeographicDistance.angleBetween(bearing, 0) < 10, "the new route sets off at \(bearing)°")
    #expect(rerouted.string("request") == requested.string("request"))
    let latency = try #require(rerouted.number("since_off_route_ms"))
    print(
      "reroute latency on loopback: \(latency) ms from off_route to the new route installed (provider call \(rerouted.number("latency_ms") ?? -1) ms)"
    )

    // The off-route line, said and spoken exactly once.
    let lines = rig.follower.all("guidance.announcement")
    #expect(lines.map(\.message) == ["You've left the route. Finding a new one."])
    #expect(rig.follower.all("guidance.off_route").count == 1)
    var text = ""
    for _ in 0..<100 where text.isEmpty {
      text = (try? String(contentsOf: spoken, encoding: .utf8)) ?? ""
      usleep(50_000)
    }
    #expect(
      text == "You've left the route. Finding a new one.\n",
      "\(rig.follower.all("guidance.speech_failed").map(\.message))")

    let guidance = try #require(rig.status()?["guidance"] as? [String: Any])
    #expect(guidance["source"] as? String == "valhalla")
    #expect((guidance["reroute"] as? String)?.hasPrefix("new route installed") == true)
    #expect(rig.follower.overlappingRequests.isEmpty)
  }

  @Test("a new route that sets off against the car's course is refused and asked again")
  func aRouteAgainstTheCourseIsAskedAgain() throws {
    let server = try GuidanceEngines.valhalla.get()
    let drive = try GridDrive("grid-turn-off")
    let provider = HeadingIgnoringProvider(baseURL: server.baseURL, ignoredHeadings: 1)
    let rig = try GuidanceRig(drive: drive, routingURL: server.baseURL, provider: provider)
    defer { rig.stop() }
    let answer = try #require(rig.navigate(to: drive.coordinate("navigate_to")))
    #expect((answer["result"] as? [String: Any])?["source"] as? String == "valhalla", "navigate: \(answer)")

    // Without the heading, the shortest way from Column 2 Avenue back to Row 0 Street is a
    // U-turn south: refused by the check, as a transient failure.
    let failed = try #require(rig.follower.wait(for: "guidance.reroute_failed", timeout: 60), "\(rig.follower.summary)")
    #expect(failed.string("failure") == "no_route")
    let detail = try #require(failed.string("detail"))
    // "valhalla: the new route sets off at 180°, 179° from the car's course 359°" (the
    // course has the receiver's noise in it).
    #expect(
      detail.hasPrefix("valhalla: the new route sets off at 180°, 1") && detail.contains("° from the car's course "),
      "\(detail)")
    let asked = try #require(rig.follower.all("guidance.reroute_requested").first?.number("course"))
    #expect(GeographicDistance.angleBetween(asked, 0) < 10)
    #expect(rig.follower.all("guidance.rerouted").isEmpty)
    // Asked again 15 s later (with the heading this time, if the car is still moving): a
    // route is installed.
    let rerouted = try #require(rig.follower.wait(for: "guidance.rerouted", timeout: 30), "\(rig.follower.summary)")
    #expect(rerouted.string("request") == "reroute-2")
    #expect(rig.follower.all("guidance.reroute_requested").count == 2)
    #expect(rig.follower.overlappingRequests.isEmpty)
  }

  @Test("a reroute still in flight when the car rejoins is cancelled and its answer discarded")
  func rejoiningCancelsTheReroute() throws {
    let server = try GuidanceEngines.valhalla.get()
    let drive = try GridDrive("grid-rejoin")
    let slow = try GuidanceSlowLink(targetPort: server.port, delay: 2)
    defer { slow.stop() }
    let rig = try GuidanceRig(drive: drive, routingURL: slow.baseURL)
    defer { rig.stop() }

    let answer = try #require(rig.navigate(to: drive.coordinate("navigate_to")))
    #expect((answer["result"] as? [String: Any])?["source"] as? String == "valhalla", "navigate: \(answer)")
    let requested = try #require(
      rig.follower.wait(for: "guidance.reroute_requested", timeout: 60), "\(rig.follower.summary)")
    let id = try #require(requested.string("request"))
    let back = try #require(rig.follower.wait(for: "guidance.back_on_route"), "\(rig.follower.summary)")
    #expect(back.type == "guidance.back_on_route")
    let cancelled = try #require(rig.follower.wait(for: "guidance.reroute_cancelled"), "\(rig.follower.summary)")
    #expect(cancelled.string("request") == id)
    let discarded = try #require(
      rig.follower.wait(for: "guidance.reroute_discarded", timeout: 10), "\(rig.follower.summary)")
    #expect(discarded.string("request") == id)
    #expect(rig.follower.all("guidance.rerouted").isEmpty)
    // The planned route is still the one followed, and the car is on it.
    let guidance = try #require(rig.status()?["guidance"] as? [String: Any])
    #expect(guidance["phase"] as? String == "following")
    #expect(guidance["reroute"] as? String == "cancelled: the car came back to the route")
    #expect(rig.follower.overlappingRequests.isEmpty)
  }

  @Test("with the engine killed mid-drive, transient failures are retried every 15 s by the daemon's clock")
  func killedEngineIsRetriedEvery15Seconds() throws {
    let server = try RoutingEngineServer.startValhalla()
    defer { server.stop() }
    let drive = try GridDrive("grid-wander")
    let rig = try GuidanceRig(drive: drive, routingURL: server.baseURL) {
      $0.speechCommand = "/nonexistent/speak --now"
    }
    defer { rig.stop() }
    let answer = try #require(rig.navigate(to: drive.coordinate("navigate_to")))
    #expect((answer["result"] as? [String: Any])?["source"] as? String == "valhalla", "navigate: \(answer)")
    server.kill()

    try Self.expectRetriesEvery15Seconds(rig, failure: "unavailable", attempts: 3)
    #expect(
      rig.follower.all("guidance.announcement").map(\.message) == [
        "You've left the route. Finding a new one.", "Couldn't find a route.",
      ])
    // The missing speech command was reported once, not once per line.
    let complaints = rig.follower.all("guidance.speech_failed")
    #expect(complaints.count == 1)
    #expect(
      complaints.first?.string("problem")
        == "the speech command /nonexistent/speak could not be started: No such file or directory")
    let guidance = try #require(rig.status()?["guidance"] as? [String: Any])
    #expect(guidance["phase"] as? String == "off_route")
    #expect((guidance["reroute"] as? String)?.hasPrefix("unavailable: valhalla") == true)
  }

  @Test("a destination off the network: the failure is said once however often it is retried (in Korean)")
  func destinationOffTheNetworkIsAnnouncedOnce() throws {
    let server = try GuidanceEngines.valhalla.get()
    let drive = try GridDrive("grid-wander")
    let directory = try TestPaths.temporaryDirectory("guidance-speech")
    defer { try? FileManager.default.removeItem(at: directory) }
    let spoken = directory.appendingPathComponent("spoken.txt")
    let speech = try Self.recordingSpeechCommand(into: spoken)
    let rig = try GuidanceRig(drive: drive, routingURL: server.baseURL) {
      $0.language = .korean
      $0.speechCommand = speech
    }
    defer { rig.stop() }
    // A route from a file: along Row 0 Street, then on to Island Lane, which no road reaches.
    let grid = server.grid
    let island = grid.islandMidpoint
    let row0 = (0..<grid.size).map { grid.node(row: 0, column: $0) }
    let coordinates = (row0 + [island]).map { ["lat": $0.latitude, "lon": $0.longitude] }
    let loaded = try #require(
      rig.ask("route.load", ["coordinates": coordinates, "mode": "driving", "name": "to the island"]))
    let result = try #require(loaded["result"] as? [String: Any], "route.load: \(loaded)")
    #expect(result["source"] as? String == "file")
    #expect(result["points"] as? Int == 7)
    let status = try #require(rig.status()?["guidance"] as? [String: Any])
    let destination = try #require(status["destination"] as? [String: Double])
    #expect(destination == ["lat": island.latitude, "lon": island.longitude])

    try Self.expectRetriesEvery15Seconds(rig, failure: "no_route", attempts: 2)
    let failed = rig.follower.all("guidance.reroute_failed")
    #expect(failed.first?.string("detail") == "valhalla: HTTP 400, error 442: No path could be found for input")
    #expect(rig.follower.all("guidance.announcement").map(\.message) == ["길을 벗어났어. 다시 찾아볼게", "길을 못 찾았어"])
    var text = ""
    for _ in 0..<400 where text.split(separator: "\n").count < 2 {
      text = (try? String(contentsOf: spoken, encoding: .utf8)) ?? ""
      usleep(50_000)
    }
    // Each line said once, one after the other, in the order announced (the Speaker
    // queues lines and runs one speech command at a time).
    #expect(text == "길을 벗어났어. 다시 찾아볼게\n길을 못 찾았어\n")
  }

  @Test("walking routes with Valhalla's pedestrian costing: straight along a one-way street cars cannot take")
  func walkingRoutesAsAPedestrian() throws {
    let server = try GuidanceEngines.valhalla.get()
    let drive = try GridDrive("grid-walk")
    let rig = try GuidanceRig(drive: drive, routingURL: server.baseURL)
    defer { rig.stop() }
    let target = try drive.coordinate("walk_to")
    let walking = try #require(rig.navigate(to: target, mode: "walking"))
    let walk = try #require(walking["result"] as? [String: Any], "navigate: \(walking)")
    #expect(walk["mode"] as? String == "walking")
    #expect(walk["source"] as? String == "valhalla")
    // Row 5 Street westwards, three blocks of 200 m; the answer's travel mode was checked
    // against the pedestrian costing by the provider, or this would be a failure.
    let walkLength = try #require(walk["length_m"] as? Double)
    #expect(abs(walkLength - 600) < 15, "walking route \(walkLength) m")
    let planned = try #require(rig.follower.wait(for: "guidance.route_planned"))
    #expect(planned.string("mode") == "walking")
    let guidance = try #require(rig.status()?["guidance"] as? [String: Any])
    #expect(guidance["mode"] as? String == "walking")

    // A car may not go west on Row 5 Street: the driving route is a detour.
    let driving = try #require(
      rig.ask(
        "navigate",
        [
          "destination": ["lat": target.latitude, "lon": target.longitude], "mode": "driving",
        ]))
    let drivingLength = try #require((driving["result"] as? [String: Any])?["length_m"] as? Double, "\(driving)")
    #expect(drivingLength > walkLength + 300)

    // A destination no road reaches: navigate says so, and the route followed stays.
    let island = server.grid.islandMidpoint
    let refused = try #require(rig.ask("navigate", ["destination": ["lat": island.latitude, "lon": island.longitude]]))
    #expect(refused.errorCode == "not_found")
    #expect(refused.errorMessage == "navigate: valhalla: HTTP 400, error 442: No path could be found for input")
    let failed = try #require(rig.follower.wait(for: "guidance.navigate_failed"))
    #expect(failed.string("failure") == "no_route")
    let after = try #require(rig.status()?["guidance"] as? [String: Any])
    #expect(after["mode"] as? String == "driving")
    #expect(after["source"] as? String == "valhalla")
  }

  /// Waits for `attempts` reroute requests, each but the last answered with `failure`, and
  /// checks the schedule: every failure asks again exactly 15 s after it by the daemon's
  /// clock, and the next request starts at that time, give or take the 1 s tick.
  static func expectRetriesEvery15Seconds(_ rig: GuidanceRig, failure: String, attempts: Int) throws {
    let timeout = 25 + 16 * Double(attempts)
    let deadline = Date().addingTimeInterval(timeout)
    while rig.follower.all("guidance.reroute_requested").count < attempts, deadline.timeIntervalSinceNow > 0 {
      rig.follower.wait(timeout: deadline.timeIntervalSinceNow) { _ in true }
    }
    rig.follower.wait(timeout: 10) {
      $0.type == "guidance.reroute_failed" && rig.follower.all("guidance.reroute_failed").count >= attempts
    }
    let requests = rig.follower.all("guidance.reroute_requested")
    let failures = rig.follower.all("guidance.reroute_failed")
    try #require(requests.count >= attempts, "only \(requests.count) requests:\n\(rig.follower.summary)")
    try #require(failures.count >= attempts - 1, "\(rig.follower.summary)")
    #expect(Set(requests.map { $0.string("request") ?? "" }).count == requests.count)
    for index in 0..<(attempts - 1) {
      let failed = failures[index]
      #expect(failed.string("failure") == failure)
      #expect(failed.fields["permanent"] as? Bool == false)
      let failedAt = try #require(failed.time("at"))
      let retryAt = try #require(failed.time("retry_at"))
      #expect(abs(retryAt.timeIntervalSince(failedAt) - 15) < 0.002)
      let next = try #require(requests[index + 1].time("at"))
      let late = next.timeIntervalSince(retryAt)
      #expect(late >= 0 && late <= 1.25, "retry \(index + 1) started \(late) s after it was due")
      let requestedAt = try #require(requests[index].time("at"))
      let gap = next.timeIntervalSince(requestedAt)
      #expect(gap >= 15 && gap <= 16.5, "requests \(index) and \(index + 1) are \(gap) s apart")
    }
    // Said once per departure, however often it is retried.
    #expect(rig.follower.all("guidance.announcement").filter { $0.string("kind") == "route_not_found" }.count == 1)
    #expect(rig.follower.all("guidance.off_route").count == 1)
    #expect(rig.follower.overlappingRequests.isEmpty)
  }
}
