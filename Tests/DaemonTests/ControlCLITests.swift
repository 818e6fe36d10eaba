import ControlProtocol
import Foundation
import Synchronization
import TestSupport
import Testing

@testable import DashPilotCLI

/// Collects what a command prints, for running the CLI in-process.
final class CapturedConsole: Sendable {
  private let output = Mutex("")
  private let errors = Mutex("")

  func console(colour: Bool = false) -> Console {
    Console(
      writeOutput: { text in self.output.withLock { $0 += text } },
      writeError: { text in self.errors.withLock { $0 += text } }, useColour: colour)
  }

  var standardOutput: String { output.withLock { $0 } }
  var standardError: String { errors.withLock { $0 } }
}

@Suite("dashpilotctl arguments")
struct CLIArgumentTests {
  func run(_ arguments: [String], environment: [String: String] = [:], hooks: RouteFileHooks = .unavailable) -> (
    Int32, CapturedConsole
  ) {
    let captured = CapturedConsole()
    let status = DashPilotCLI.run(
      arguments: arguments, environment: environment, hooks: hooks, console: captured.console())
    return (status, captured)
  }

  @Test(
    "usage mistakes exit 2 and name the mistake",
    arguments: [
      (["launch"], "dashpilotctl: unknown command \"launch\"\nRun 'dashpilotctl help' for the commands.\n"),
      (["shift"], "dashpilotctl: unknown command \"shift\"\nRun 'dashpilotctl help' for the commands.\n"),
      (["shift", "show"], "dashpilotctl: missing the shift ID\nRun 'dashpilotctl help shift show' for its usage.\n"),
      (
        ["shift", "show", "x1"],
        "dashpilotctl: \"x1\" is not a shift number\nRun 'dashpilotctl help shift show' for its usage.\n"
      ),
      (
        ["status", "--verbose"],
        "dashpilotctl: unknown option --verbose\nRun 'dashpilotctl help status' for its usage.\n"
      ),
      (
        ["status", "now"], "dashpilotctl: unexpected argument \"now\"\nRun 'dashpilotctl help status' for its usage.\n"
      ),
      (
        ["report", "#0"],
        "dashpilotctl: \"#0\" is not a shift number\nRun 'dashpilotctl help report' for its usage.\n"
      ),
      (
        ["export", "x3", "--format", "gpx"],
        "dashpilotctl: \"x3\" is not a shift number\nRun 'dashpilotctl help export' for its usage.\n"
      ),
      (
        ["export", "3"],
        "dashpilotctl: --format gpx|geojson is required\nRun 'dashpilotctl help export' for its usage.\n"
      ),
      (
        ["export", "3", "--format", "kml"],
        "dashpilotctl: --format must be gpx or geojson, not \"kml\"\nRun 'dashpilotctl help export' for its usage.\n"
      ),
      (
        ["navigate", "91,0"],
        "dashpilotctl: \"91,0\" is not LAT,LON in degrees (such as 51.5074,-0.1278)\nRun 'dashpilotctl help navigate' for its usage.\n"
      ),
      (
        ["route", "load", "r.gpx", "--mode", "cycling"],
        "dashpilotctl: --mode must be driving or walking, not \"cycling\"\nRun 'dashpilotctl help route load' for its usage.\n"
      ),
      (
        ["shifts", "--limit", "0"],
        "dashpilotctl: --limit needs a whole number from 1 to 1000\nRun 'dashpilotctl help shifts' for its usage.\n"
      ),
      (
        ["shifts", "--before", "x7"],
        "dashpilotctl: \"x7\" is not a shift number\nRun 'dashpilotctl help shifts' for its usage.\n"
      ),
      (
        ["shifts", "--since", "yesterday"],
        "dashpilotctl: --since needs a day such as 2026-11-01 or a UTC time such as 2026-11-01T08:00:00Z\n"
          + "Run 'dashpilotctl help shifts' for its usage.\n"
      ),
      (
        ["shifts", "--since", "2026-11-02", "--until", "2026-11-01"],
        "dashpilotctl: --until must come after --since\nRun 'dashpilotctl help shifts' for its usage.\n"
      ),
      (["status", "--socket"], "dashpilotctl: --socket needs a PATH\nRun 'dashpilotctl help' for the commands.\n"),
    ])
  func usageErrors(arguments: [String], expected: String) {
    let (status, captured) = run(arguments)
    #expect(status == 2)
    #expect(captured.standardError == expected)
    #expect(captured.standardOutput.isEmpty)
  }

  @Test("no command prints the overview to stderr and exits 2; help exits 0")
  func overview() {
    let (status, captured) = run([])
    #expect(status == 2)
    #expect(captured.standardError.hasPrefix("USAGE: dashpilotctl COMMAND [--json] [--socket PATH]"))
    let (helpStatus, help) = run(["help"])
    #expect(helpStatus == 0)
    for name in [
      "status", "shift start", "shift end", "shifts", "shift show", "export", "import", "route load", "route clear",
      "navigate", "events", "replay",
    ] {
      #expect(help.standardOutput.contains("\n  \(name) "), "the overview lists \(name)")
    }
  }

  @Test("help for a command, either way round")
  func commandHelp() {
    let (status, captured) = run(["help", "shift", "show"])
    #expect(status == 0)
    #expect(captured.standardOutput.hasPrefix("USAGE: dashpilotctl shift show ID [--json]\n"))
    let (flagStatus, flag) = run(["navigate", "--help"])
    #expect(flagStatus == 0)
    #expect(
      flag.standardOutput.hasPrefix(
        "USAGE: dashpilotctl navigate LAT,LON [--mode driving|walking] [--name NAME] [--json]\n"))
  }

  @Test("a southern, western destination is a value, not an option; the socket comes from the environment")
  func negativeCoordinates() {
    let (status, captured) = run(
      ["navigate", "-33.86,-151.2", "--mode", "walking"], environment: ["DASHPILOT_SOCKET": "/nonexistent/env.sock"])
    #expect(status == 3)
    #expect(captured.standardError.contains("there is no control socket at /nonexistent/env.sock."))
    let (flagStatus, flagged) = run(
      ["status", "--socket=/nonexistent/flag.sock"], environment: ["DASHPILOT_SOCKET": "/nonexistent/env.sock"])
    #expect(flagStatus == 3)
    #expect(flagged.standardError.contains("/nonexistent/flag.sock"))
  }

  @Test("replay runs offline: a log that is not there is named, exit 1, whatever the global options")
  func replay() {
    for arguments in [
      ["replay", "/nonexistent/drive.log", "--json"], ["--socket", "/x.sock", "replay", "/nonexistent/drive.log"],
    ] {
      let (status, captured) = run(arguments)
      #expect(status == 1)
      #expect(captured.standardError == "dashpilotctl replay: cannot read /nonexistent/drive.log: no such file\n")
    }
  }

  @Test("a file command without its RouteFiles hook fails with a sentence before contacting the daemon")
  func missingHooks() {
    let (status, captured) = run(["import", "drive.gpx", "--socket", "/nonexistent/x.sock"])
    #expect(status == 1)
    #expect(
      captured.standardError
        == "dashpilotctl: cannot import drive.gpx: reading GPX tracks is not available in this build of dashpilotctl\n")
  }

  @Test("colour only on a terminal and never with NO_COLOR")
  func colour() {
    #expect(Console.colourAllowed(isTerminal: true, environment: [:]))
    #expect(!Console.colourAllowed(isTerminal: false, environment: [:]))
    #expect(!Console.colourAllowed(isTerminal: true, environment: ["NO_COLOR": "1"]))
    #expect(Console.colourAllowed(isTerminal: true, environment: ["NO_COLOR": ""]))
    #expect(!Console.colourAllowed(isTerminal: true, environment: ["TERM": "dumb"]))
  }
}

@Suite("status on one screen")
struct StatusRendererTests {
  let status: StatusResult = {
    let started = Date(timeIntervalSince1970: 1_700_000_000)
    let distance = WireDistance(
      metres: 7242.05, value: 4.5, unit: "miles", segments: 3, gaps: 2, usablePositions: 812,
      usesInferredContinuity: false, isMeasured: true, isPartial: true)
    return StatusResult(
      daemon: DaemonSection(
        version: "0.1.0", pid: 812, startedAt: started, uptimeSeconds: 7390, socket: "/run/dashpilot/control.sock",
        config: nil, state: "running", units: "miles"),
      gpsd: GPSDSection(
        address: "localhost:2947", connected: true, device: "/dev/ttyACM0", fixMode: "3d", accuracyMetres: 4.2),
      capture: CaptureSection(session: "s-7", accepted: 1204, rejected: ["stale": 20, "poor_accuracy": 17]),
      shift: ShiftSummary(
        id: 12, startedAt: started, endedAt: nil, distance: distance, summary: "4.5 mi recorded · partial route",
        details: ["3 unbroken stretches of capture", "2 capture gaps"],
        spoken:
          "4.5 miles recorded. This is a partial route: capture was interrupted, so more was driven than was recorded."),
      guidance: GuidanceSection(mode: "driving", phase: "off_route", distanceRemainingMetres: 3218.688),
      store: StoreSection(path: "/var/lib/dashpilot/dashpilot.sqlite", ok: true))
  }()

  @Test("every part on its own line, partiality in words")
  func plain() {
    let lines = StatusRenderer(console: CapturedConsole().console(), now: Date(timeIntervalSince1970: 1_700_000_000))
      .render(status)
    #expect(lines.count == 9)
    #expect(lines[0] == "dashpilotd 0.1.0 · running · up 2h 03m (pid 812)")
    #expect(lines[1] == "gpsd       connected (localhost:2947) · /dev/ttyACM0 · 3D fix · ±4 m")
    #expect(lines[2] == "capture    session s-7 · 1204 kept · 37 refused")
    #expect(lines[3] == "           refused: stale 20, poor accuracy 17")
    #expect(lines[4].hasSuffix(" · 4.5 mi recorded · partial route"))
    #expect(lines[4].hasPrefix("shift      #12 since "))
    #expect(lines[5] == "             3 unbroken stretches of capture")
    #expect(lines[6] == "             2 capture gaps")
    #expect(lines[7] == "guidance   off route (driving) · 2.0 mi to go")
    #expect(lines[8] == "store      /var/lib/dashpilot/dashpilot.sqlite · ok")
    #expect(lines.allSatisfy { !$0.contains("\u{1B}") })
  }

  @Test("a shift started on movement says so, and how long it has stood and when it ends by itself")
  func handsFree() {
    var standing = status
    standing.shift?.startedBy = .movement
    let now = Date(timeIntervalSince1970: 1_700_000_000)
    func line(_ live: ShiftSummary.Live) -> String {
      standing.shift?.live = live
      return StatusRenderer(console: CapturedConsole().console(), now: now).render(standing)[4]
    }
    let clock = HumanFormat.clock(now, now: now)
    #expect(
      line(.init(stoppedSince: now, stoppedSeconds: 742, endsAfterStopSeconds: 2700))
        == "shift      #12 since \(clock) (started on movement) · stopped 12 min, ends after 45 min · 4.5 mi recorded · partial route"
    )
    #expect(
      line(.init(endsAfterStopSeconds: 2700))
        == "shift      #12 since \(clock) (started on movement) · 4.5 mi recorded · partial route")
    #expect(
      line(.init(stoppedSince: now, endsAfterStopSeconds: 2700, waitingForFix: true))
        == "shift      #12 since \(clock) (started on movement) · no fix since the restart: the next one decides (ends after 45 min without a move) · 4.5 mi recorded · partial route"
    )
    standing.shift?.startedBy = .manual
    #expect(line(.init()) == "shift      #12 since \(clock) (started by hand) · 4.5 mi recorded · partial route")
  }

  @Test("a shift row says how it started and ended")
  func rowCauses() {
    var shift = status.shift!
    shift.endedAt = Date(timeIntervalSince1970: 1_700_003_600)
    shift.startedBy = .movement
    shift.endedBy = .captureLost
    let row = ShiftRenderer(console: CapturedConsole().console()).row(shift, now: shift.startedAt)
    #expect(row.hasSuffix(" · partial route  (started on movement, ended when capture was lost)"))
  }

  @Test("a shift row shows the year of a shift from another year, and only then")
  func rowYear() {
    // Midday UTC: the same day wherever the reader is, within eleven hours of UTC.
    let lastYear = Date(timeIntervalSince1970: 1_757_246_400)  // Sun 2025-09-07 12:00 UTC
    let thisYear = Date(timeIntervalSince1970: 1_776_168_000)  // Tue 2026-04-14 12:00 UTC
    let now = Date(timeIntervalSince1970: 1_780_660_800)  // Fri 2026-06-05 12:00 UTC
    var shift = status.shift!
    shift.endedAt = nil
    shift.startedAt = lastYear
    let renderer = ShiftRenderer(console: CapturedConsole().console())
    #expect(
      renderer.row(shift, now: now).hasPrefix("#12  Sun 07 Sep 2025 \(HumanFormat.format(lastYear, "%H:%M")) (open)  "))
    shift.startedAt = thisYear
    #expect(
      renderer.row(shift, now: now).hasPrefix("#12  Tue 14 Apr \(HumanFormat.format(thisYear, "%H:%M")) (open)  "))
    #expect(HumanFormat.clock(now, now: now) == HumanFormat.format(now, "%H:%M"))
  }

  @Test("colour adds to the words and never replaces them")
  func coloured() {
    let lines = StatusRenderer(console: CapturedConsole().console(colour: true)).render(status)
    let shiftLine = lines.first { $0.contains("#12") } ?? ""
    #expect(shiftLine.contains("\u{1B}[33m4.5 mi recorded · partial route\u{1B}[0m"))
  }
}

/// dashpilotctl's multi-part sending against a real daemon, with route-file hooks that
/// stand in for RouteFiles.
@Suite("dashpilotctl parts over the real socket", .serialized)
struct CLIPartsTests {
  @Test("a 1,200-point import goes in three parts and reaches the daemon whole")
  func importParts() throws {
    let daemon = try DaemonUnderTest()
    defer { daemon.stop() }
    try daemon.waitUntilReady()
    let points = (0..<1200).map {
      WireTrackPoint(lat: 51.5 + Double($0) * 0.0001, lon: -0.12, time: 1_700_000_000 + Double($0), accuracy: 5)
    }
    let hooks = RouteFileHooks(
      readTrack: { _ in .init(name: "Tuesday", points: points) }, readRoute: RouteFileHooks.unavailable.readRoute,
      writeExport: RouteFileHooks.unavailable.writeExport)
    let captured = CapturedConsole()
    let status = DashPilotCLI.run(
      arguments: ["import", "t.gpx", "--socket", daemon.socketPath], environment: [:], hooks: hooks,
      console: captured.console())
    // 1,199 steps of 0.0001° of latitude (11.12 m each) is 13.3 km, with continuity
    // inferred from the timestamps: partial.
    #expect(status == 0)
    #expect(captured.standardOutput == "Imported 1200 of 1200 points as shift #1: 8.3 mi recorded · partial route\n")
  }

  @Test("a 2,500-point route goes in three parts; --json prints the loaded route")
  func routeParts() throws {
    let daemon = try DaemonUnderTest()
    defer { daemon.stop() }
    try daemon.waitUntilReady()
    let coordinates = (0..<2500).map { WireCoordinate(lat: 37.5 + Double($0) * 0.0001, lon: 127.0) }
    let hooks = RouteFileHooks(
      readTrack: RouteFileHooks.unavailable.readTrack, readRoute: { _ in .init(name: "r", coordinates: coordinates) },
      writeExport: RouteFileHooks.unavailable.writeExport)
    let captured = CapturedConsole()
    let status = DashPilotCLI.run(
      arguments: ["route", "load", "r.geojson", "--mode", "walking", "--json", "--socket", daemon.socketPath],
      environment: [:],
      hooks: hooks, console: captured.console())
    #expect(status == 0)
    // All three parts arrived: 2,500 points, 2,499 steps of 0.0001 degrees of latitude
    // (11.1195 m each on the mean sphere).
    let answer = try #require(
      try JSONSerialization.jsonObject(with: Data(captured.standardOutput.utf8)) as? [String: Any])
    #expect(answer["points"] as? Int == 2500)
    #expect(answer["mode"] as? String == "walking")
    #expect(answer["name"] as? String == "r")
    let length = try #require(answer["length_m"] as? Double)
    #expect(abs(length - 2499 * 11.119_508_023) < 0.01)
  }
}
