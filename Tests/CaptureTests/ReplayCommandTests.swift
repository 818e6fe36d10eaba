import Capture
import DashPilotCore
import Foundation
import GPSD
import TestSupport
import Testing

/// `dashpilotctl replay` as a person or a script runs it: the real binary, real files.
@Suite("dashpilotctl replay through the real binary")
struct ReplayCommandTests {
  static func replay(_ arguments: [String], environment: [String: String] = [:]) throws -> ProcessOutcome {
    var processEnvironment = ProcessInfo.processInfo.environment
    processEnvironment["NO_COLOR"] = "1"
    processEnvironment.merge(environment) { $1 }
    return try ProcessRunner.run(
      try DaemonBinaries.url("dashpilotctl"), ["replay"] + arguments, environment: processEnvironment, timeout: 120)
  }

  static func object(_ outcome: ProcessOutcome) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(outcome.standardOutput.utf8)) as? [String: Any])
  }

  static var routes: URL { TestPaths.fixtures.appendingPathComponent("routes") }

  @Test(arguments: DriveFixture.names)
  func jsonGivesTheGeneratorsFigures(_ name: String) throws {
    let drive = try DriveFixture.named(name)
    let outcome = try Self.replay([drive.json.path, "--json"])
    #expect(outcome.status == 0, "\(outcome.standardError)")
    #expect(outcome.standardError == "")
    let object = try Self.object(outcome)
    #expect(Set(object.keys) == ["input", "capture_sessions", "samples", "distance", "summary", "spoken"])
    #expect(object["capture_sessions"] as? Int == drive.captureSessions)
    let samples = try #require(object["samples"] as? [String: Any])
    #expect(samples["received"] as? Int == drive.fixes + drive.secondsWithoutFix)
    let rejected = try #require(samples["rejected"] as? [String: Int])
    #expect(rejected["no_fix"] == drive.secondsWithoutFix)
    let distance = try #require(object["distance"] as? [String: Any])
    #expect(distance["gaps"] as? Int == drive.gaps)
    let metres = try #require(distance["metres"] as? Double)
    if drive.metres > 0 {
      #expect(abs(metres - drive.metres) / drive.metres <= drive.toleranceFraction, "\(name): \(metres) m")
      #expect(distance["measured"] as? Bool == true)
    } else {
      #expect(metres == 0)
      #expect(distance["measured"] as? Bool == (drive.fixes > 0))
    }
    let input = try #require(object["input"] as? [String: Any])
    #expect(input["skipped"] as? Int == 0)
  }

  /// 193 fixes: the first carries gpsd's no-fix DOP, 41 are under 5 m from the last kept
  /// (the red light, the arrival), 75 have run further than the receiver's speeds carried
  /// it since the last kept (position noise of the generator's 0.4 m, which would lengthen
  /// the track: the speeds cap the kept moves to within 2 m a stretch, issue 28), and the
  /// last, standing still, is kept held as the pass ends.
  @Test func theShortDriveKeepsExactly76SamplesInOneStretch() throws {
    let outcome = try Self.replay([DriveFixture.named("short-drive").json.path, "--json", "--units", "kilometres"])
    let object = try Self.object(outcome)
    let samples = try #require(object["samples"] as? [String: Any])
    #expect(samples["accepted"] as? Int == 76)
    #expect(samples["save_failures"] as? Int == 0)
    let rejected = try #require(samples["rejected"] as? [String: Int])
    #expect(rejected["negligible_movement"] == 41)
    #expect(rejected["unconfirmed_movement"] == 75)
    let distance = try #require(object["distance"] as? [String: Any])
    #expect(distance["usable_positions"] as? Int == 76)
    #expect(distance["segments"] as? Int == 1)
    #expect(distance["partial"] as? Bool == false)
    #expect(object["summary"] as? String == "1.6 km recorded")
    #expect(object["spoken"] as? String == "1.6 kilometres recorded.")
  }

  @Test func theTextReportLeadsWithTheFigureAndItsQualifyingSentences() throws {
    let outcome = try Self.replay([DriveFixture.named("city-drive").json.path])
    #expect(outcome.status == 0)
    let lines = outcome.standardOutput.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(
      Array(lines.prefix(4)) == [
        "7.0 mi recorded · partial route",
        "3 unbroken stretches of capture",
        "2 capture gaps",
        "This is a partial route: capture was interrupted, so more was driven than was recorded.",
      ])
    #expect(lines.contains("2 capture sessions; 2215 fixes received, 764 kept (9 held while standing still)"))
    #expect(lines.contains("  2 rejected: implausible speed"))
    #expect(lines.contains("4237 lines read, 0 skipped (not gpsd JSON)"))
    #expect(!outcome.standardOutput.contains("Guidance"))
  }

  @Test func globalJSONBeforeTheWordIsHandedOn() throws {
    let outcome = try ProcessRunner.run(
      try DaemonBinaries.url("dashpilotctl"), ["--json", "replay", DriveFixture.named("never-fixes").json.path])
    #expect(outcome.status == 0)
    #expect(try Self.object(outcome)["summary"] as? String == "No distance measured: no usable position was recorded")
    // After --socket (which replay does not use) the route and mode still reach replay.
    let routed = try ProcessRunner.run(
      try DaemonBinaries.url("dashpilotctl"),
      [
        "--socket", "/nonexistent/x.sock", "replay", DriveFixture.named("short-drive").json.path, "--route",
        Self.routes.appendingPathComponent("short-drive-divergent.geojson").path, "--mode", "walking", "--json",
      ])
    #expect(routed.status == 0)
    let guidance = try #require(try Self.object(routed)["guidance"] as? [String: Any])
    #expect(guidance["mode"] as? String == "walking")
    // --mode=walking, as route load takes it.
    let joined = try Self.replay([
      DriveFixture.named("short-drive").json.path, "--mode=walking", "--json",
      "--route=\(Self.routes.appendingPathComponent("short-drive-divergent.geojson").path)",
    ])
    #expect(joined.status == 0, "\(joined.standardError)")
    #expect(try #require(try Self.object(joined)["guidance"] as? [String: Any])["mode"] as? String == "walking")
  }

  /// Usage errors in the words and form of every other command's (one parser).
  @Test(arguments: [
    ([String](), "dashpilotctl: missing the gpsd JSON log FILE"),
    (["log.json", "--speed"], "dashpilotctl: unknown option --speed"),
    (
      ["log.json", "--window", "yesterday,2024-06-01T08:00:00Z"],
      "dashpilotctl: --window start 'yesterday' is not an ISO-8601 UTC time such as 2024-05-01T08:00:00Z"
    ),
    (["log.json", "--mode", "cycling"], "dashpilotctl: --mode must be driving or walking, not \"cycling\""),
    (["log.json", "--mode=cycling"], "dashpilotctl: --mode must be driving or walking, not \"cycling\""),
  ])
  func usageErrorsExit2(_ arguments: [String], _ message: String) throws {
    let outcome = try Self.replay(arguments)
    #expect(outcome.status == 2)
    #expect(outcome.standardOutput == "")
    #expect(outcome.standardError == message + "\nRun 'dashpilotctl help replay' for its usage.\n")
  }

  @Test func aFileThatCannotBeReadExits1AndIsNamed() throws {
    let directory = try TestPaths.temporaryDirectory("replay-cli")
    defer { try? FileManager.default.removeItem(at: directory) }
    let missing = directory.appendingPathComponent("missing.json").path
    let outcome = try Self.replay([missing, "--json"])
    #expect(outcome.status == 1)
    #expect(outcome.standardOutput == "")
    #expect(outcome.standardError == "dashpilotctl replay: cannot read \(missing): no such file\n")

    let asDirectory = try Self.replay([directory.path])
    #expect(asDirectory.status == 1)
    #expect(asDirectory.standardError == "dashpilotctl replay: \(directory.path) is a directory, not a gpsd JSON log\n")
  }

  /// On a terminal a long log shows how far replay has read, once a megabyte, and clears
  /// the line before the report (run under `script`, which gives it a pseudo-terminal).
  @Test func progressOnATerminal() throws {
    let directory = try TestPaths.temporaryDirectory("replay-tty")
    defer { try? FileManager.default.removeItem(at: directory) }
    var log = ""
    var second = 0
    while log.utf8.count < 2_500_000 {
      let time = Date(timeIntervalSince1970: 1_714_557_600 + Double(second))
      log +=
        #"{"class":"TPV","mode":3,"time":"\#(UTCTimestamp.string(time) ?? "")","lat":\#(51.5 + Double(second % 1000) * 0.0001),"lon":-0.12,"eph":8.0,"speed":11.1,"track":0.0}"#
        + "\n"
      second += 1
    }
    let file = directory.appendingPathComponent("long.json")
    try Data(log.utf8).write(to: file)
    let size = log.utf8.count
    let ctl = try DaemonBinaries.url("dashpilotctl").path
    let outcome = try ProcessRunner.run(
      URL(fileURLWithPath: "/usr/bin/script"), ["-qec", "'\(ctl)' replay '\(file.path)' --json", "/dev/null"],
      timeout: 120)
    #expect(outcome.status == 0)
    let percents = stride(from: 1 << 20, through: size, by: 1 << 20).map { Int(Double($0) / Double(size) * 100) }
    #expect(percents.count == 2)
    let progress = percents.map { "\r\u{1B}[Kreplaying \(file.path): \($0) %" }.joined()
    #expect(outcome.standardOutput.hasPrefix(progress + "\r\u{1B}[K{\"input\":{\"lines\":\(second),\"skipped\":0}"))
  }

  @Test func helpExits0() throws {
    let outcome = try Self.replay(["--help"])
    #expect(outcome.status == 0)
    #expect(
      outcome.standardOutput.hasPrefix("USAGE: dashpilotctl replay FILE [--route FILE] [--mode driving|walking]\n"))
  }

  /// The temporary database lives under $TMPDIR and is gone when replay ends; where none
  /// can be made, replay says so and gives no figure.
  @Test func theTemporaryDatabaseIsRemovedAndItsFailureIsReported() throws {
    let directory = try TestPaths.temporaryDirectory("replay-tmpdir")
    defer { try? FileManager.default.removeItem(at: directory) }
    let drive = try DriveFixture.named("short-drive").json.path
    let outcome = try Self.replay([drive, "--json"], environment: ["TMPDIR": directory.path])
    #expect(outcome.status == 0)
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == [])

    let nowhere = directory.appendingPathComponent("absent").path
    let failed = try Self.replay([drive, "--json"], environment: ["TMPDIR": nowhere])
    #expect(failed.status == 1)
    #expect(failed.standardOutput == "")
    #expect(
      failed.standardError
        == "dashpilotctl replay: the replay's temporary database failed: cannot make a temporary directory under \(nowhere): No such file or directory\n"
    )
  }

  /// The shift's window given: the drive covers 08:01-08:04 of a 07:50-09:00 shift, so both
  /// ends are uncovered.
  @Test func aWindowMakesUncoveredEndsGaps() throws {
    let outcome = try Self.replay([
      DriveFixture.named("short-drive").json.path, "--json", "--window", "2024-06-01T07:50:00Z,2024-06-01T09:00:00Z",
    ])
    let distance = try #require(try Self.object(outcome)["distance"] as? [String: Any])
    #expect(distance["gaps"] as? Int == 2)
    #expect(distance["partial"] as? Bool == true)
  }

  // MARK: --route

  struct ExpectedGuidance {
    var mode: String
    var phase: String
    var events: [[String: Any]]
  }

  /// What scripts/fixtures/generate_routes.py worked out from the drive's geometry.
  static func expectedGuidance(_ route: String, mode: String = "driving") throws -> ExpectedGuidance {
    let data = try Data(contentsOf: routes.appendingPathComponent("short-drive.expected.json"))
    let all = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let file = try #require(all[route] as? [String: Any])
    let entry = try #require(file[mode] as? [String: Any])
    return ExpectedGuidance(
      mode: mode, phase: try #require(entry["phase"] as? String),
      events: try #require(entry["events"] as? [[String: Any]]))
  }

  static func guidance(route: String, mode: [String] = []) throws -> (ProcessOutcome, [String: Any]) {
    let outcome = try replay(
      [DriveFixture.named("short-drive").json.path, "--json", "--route", routes.appendingPathComponent(route).path]
        + mode)
    let object = try Self.object(outcome)
    return (outcome, try #require(object["guidance"] as? [String: Any]))
  }

  static func check(_ guidance: [String: Any], against expected: ExpectedGuidance) throws {
    #expect(guidance["mode"] as? String == expected.mode)
    #expect(guidance["phase"] as? String == expected.phase)
    let events = try #require(guidance["events"] as? [[String: Any]])
    #expect(events.map { $0["type"] as? String } == expected.events.map { $0["type"] as? String })
    #expect(events.map { $0["time"] as? String } == expected.events.map { $0["time"] as? String })
    for (event, wanted) in zip(events, expected.events) {
      if let lateral = wanted["lateral_m"] as? Double {
        let got = try #require(event["lateral_m"] as? Double)
        #expect(abs(got - lateral) < 0.5, "lateral \(got) m, the generator's geometry says \(lateral) m")
        #expect(Set(event.keys) == ["type", "time", "lateral_m"])
      } else {
        #expect(Set(event.keys) == ["type", "time"])
      }
    }
  }

  @Test func aDriveThatFollowsItsRouteJoinsAndArrivesAndNeverLeavesIt() throws {
    let (outcome, guidance) = try Self.guidance(route: "short-drive.gpx")
    #expect(outcome.status == 0)
    let expected = try Self.expectedGuidance("short-drive.gpx")
    #expect(expected.events.map { $0["type"] as? String } == ["joined", "arrived"])
    #expect(expected.phase == "arrived")
    try Self.check(guidance, against: expected)
    // The figure is the same with or without a route.
    let object = try Self.object(outcome)
    #expect(object["summary"] as? String == "1.0 mi recorded")
  }

  @Test func aDriveThatTurnsOffItsRouteIsOffRouteExactlyOnce() throws {
    let (outcome, guidance) = try Self.guidance(route: "short-drive-divergent.geojson")
    #expect(outcome.status == 0)
    let expected = try Self.expectedGuidance("short-drive-divergent.geojson")
    #expect(expected.events.map { $0["type"] as? String } == ["joined", "off_route"])
    #expect(expected.events.last?["time"] as? String == "2024-06-01T08:01:31.000Z")
    try Self.check(guidance, against: expected)
    let events = try #require(guidance["events"] as? [[String: Any]])
    #expect(events.filter { $0["type"] as? String == "off_route" }.count == 1)
  }

  @Test(arguments: ["short-drive.gpx", "short-drive-divergent.geojson"])
  func walkingUsesTheWalkingNumbers(_ route: String) throws {
    let (outcome, guidance) = try Self.guidance(route: route, mode: ["--mode", "walking"])
    #expect(outcome.status == 0)
    try Self.check(guidance, against: try Self.expectedGuidance(route, mode: "walking"))
  }

  @Test func theTextReportListsGuidanceEvents() throws {
    let outcome = try Self.replay([
      DriveFixture.named("short-drive").json.path, "--route",
      Self.routes.appendingPathComponent("short-drive.gpx").path,
    ])
    #expect(outcome.status == 0)
    #expect(
      outcome.standardOutput.hasSuffix(
        """
        Guidance (driving):
          2024-06-01T08:01:01.000Z joined the route
          2024-06-01T08:03:58.000Z arrived
          at the end: arrived

        """))
  }

  @Test func aRouteFileThatCannotBeUsedExits1AndNamesTheFile() throws {
    let directory = try TestPaths.temporaryDirectory("replay-route")
    defer { try? FileManager.default.removeItem(at: directory) }
    let drive = try DriveFixture.named("short-drive").json.path
    let notXML = directory.appendingPathComponent("broken.gpx")
    try Data("<gpx".utf8).write(to: notXML)
    let onePoint = directory.appendingPathComponent("one.geojson")
    try Data(#"{"type":"LineString","coordinates":[[2.35,48.85],[2.35,48.85]]}"#.utf8).write(to: onePoint)
    let missing = directory.appendingPathComponent("missing.gpx")
    let cases: [(URL, String)] = [
      (notXML, "is not XML (the document ends inside <gpx>)"),
      (onePoint, "a route needs at least 2 distinct points, this one has 1"),
      (missing, "cannot be read (No such file or directory)"),
    ]
    for (file, problem) in cases {
      let outcome = try Self.replay([drive, "--route", file.path])
      #expect(outcome.status == 1)
      #expect(outcome.standardOutput == "")
      #expect(outcome.standardError == "dashpilotctl replay: cannot follow route \(file.path): \(problem)\n")
    }
  }
}
