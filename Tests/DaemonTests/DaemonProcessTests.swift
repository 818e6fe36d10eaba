import DashPilotCore
import Foundation
import PlatformSupport
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The real dashpilotd and dashpilotctl processes over a real socket.
@Suite("dashpilotd process", .serialized)
struct DaemonProcessTests {
  @Test("it reports READY=1 and answers status through dashpilotctl and the raw socket")
  func status() throws {
    let daemon = try DaemonUnderTest()
    defer { daemon.stop() }
    try daemon.waitUntilReady()
    #expect(daemon.notifications.messages.contains("READY=1\nSTATUS=Answering on \(daemon.socketPath)"))

    let human = try daemon.control(["status"])
    #expect(human.status == 0)
    let lines = human.standardOutput.split(separator: "\n").map(String.init)
    // A line says the clock is not synchronised, when the kernel says so (this machine's word).
    let synchronised = WallClockSynchronisation.isSynchronised()
    #expect(lines.count == (synchronised ? 7 : 8))
    #expect(lines.first?.hasPrefix("dashpilotd \(DashPilotVersion.string) · running · up ") == true)
    let clockLine =
      "clock      not synchronised (the kernel says so): shift times, and fixes that come without a date, "
      + "read a clock that may be wrong"
    #expect(lines.contains(clockLine) == !synchronised)
    #expect(lines.contains("gpsd       not connected (127.0.0.1:1)"))
    #expect(lines.contains("shift      none open"))
    #expect(lines.contains("store      \(daemon.databasePath) · ok"))
    // Beneath it the room left; no rate yet, with no time the box can trust.
    #expect(
      lines.last?.hasPrefix("           ") == true
        && lines.last?.hasSuffix(" free for recording; the rate of recording is not known yet") == true,
      "\(lines)")
    #expect(!human.standardOutput.contains("\u{1B}["))

    let json = try daemon.control(["status", "--json"])
    #expect(json.status == 0)
    let status = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
    let daemonSection = try #require(status["daemon"] as? [String: Any])
    #expect(daemonSection["pid"] as? Int == Int(daemon.pid))
    #expect(daemonSection["socket"] as? String == daemon.socketPath)
    #expect(daemonSection["state"] as? String == "running")
    #expect(daemonSection["clock_synchronised"] as? Bool == synchronised)
    let gpsd = try #require(status["gpsd"] as? [String: Any])
    #expect(gpsd["connected"] as? Bool == false)
    #expect(gpsd["device"] is NSNull)
    #expect(gpsd["fix_mode"] is NSNull)
    #expect(status["shift"] is NSNull)
    #expect((status["store"] as? [String: Any])?["path"] as? String == daemon.databasePath)

    let raw = try RawSocketClient(path: daemon.socketPath)
    let answer = try #require(raw.ask(#"{"v":1,"id":99,"cmd":"status"}"#))
    #expect(answer["id"] as? Int == 99)
    #expect(answer["ok"] as? Bool == true)
    #expect(
      ((answer["result"] as? [String: Any])?["daemon"] as? [String: Any])?["version"] as? String
        == DashPilotVersion.string)

    var mode = stat()
    #expect(lstat(daemon.socketPath, &mode) == 0)
    #expect(mode.st_mode & 0o777 == 0o660)
  }

  @Test("bad input gets an error and stops neither the daemon nor other clients")
  func badInput() throws {
    let daemon = try DaemonUnderTest(config: "[Control]\nIdleTimeout=1\n")
    defer { daemon.stop() }
    try daemon.waitUntilReady()
    let silent = try RawSocketClient(path: daemon.socketPath)
    let client = try RawSocketClient(path: daemon.socketPath)

    #expect(client.ask("garbage")?.errorCode == "not_json")
    #expect(client.ask(String(repeating: "[", count: 60_000))?.errorCode == "not_json")
    #expect(client.send([0xFF, 0xFE, 0x00, 0x7B, 0x0A]))
    #expect(client.readLine()?.contains(#""code":"not_json""#) == true)
    #expect(client.ask(#"{"v":1,"id":5,"cmd":"launch"}"#)?.errorCode == "unknown_command")
    let wrongVersion = try #require(client.ask(#"{"v":3,"id":6,"cmd":"status"}"#))
    #expect(wrongVersion.errorCode == "unsupported_version")
    #expect(wrongVersion["id"] as? Int == 6)
    #expect(
      client.ask(#"{"v":1,"id":7,"cmd":"shift.show","args":{"id":-4}}"#)?.errorMessage
        == "shift.show: \"id\" must be between 1 and 9223372036854775807")
    // Pipelined requests are answered in order.
    #expect(client.send(#"{"v":1,"id":8,"cmd":"status"}"# + "\n" + #"{"v":1,"id":9,"cmd":"status"}"# + "\n"))
    let first = try #require(client.readLine())
    let second = try #require(client.readLine())
    #expect(first.contains(#""id":8"#) && second.contains(#""id":9"#))

    let flooder = try RawSocketClient(path: daemon.socketPath)
    flooder.send(String(repeating: "x", count: 70_000))
    let tooLong = try #require(flooder.readLine())
    #expect(tooLong.contains(#""code":"line_too_long""#))
    #expect(flooder.isClosedByPeer())

    // While the flood and the silent client were handled, others were still served.
    #expect(client.ask(#"{"v":1,"id":10,"cmd":"status"}"#)?["ok"] as? Bool == true)

    let idle = try #require(silent.readLine(timeout: 10))
    #expect(
      idle
        == #"{"error":{"code":"idle_timeout","message":"no request for 1 s; closing the connection"},"id":null,"ok":false,"v":1}"#
    )
    #expect(silent.isClosedByPeer())

    #expect(daemon.process.isRunning)
    #expect(try daemon.control(["status"]).status == 0)
  }

  @Test("forty clients at once are all answered, one holding half a line stalls nobody")
  func manyClients() throws {
    let daemon = try DaemonUnderTest()
    defer { daemon.stop() }
    try daemon.waitUntilReady()
    let staller = try RawSocketClient(path: daemon.socketPath)
    staller.send(#"{"v":1,"id":1,"cm"#)
    let clients = try (0..<40).map { _ in try RawSocketClient(path: daemon.socketPath) }
    for (index, client) in clients.enumerated() {
      client.send(#"{"v":1,"id":\#(index),"cmd":"status"}"# + "\n")
    }
    var answered = 0
    for (index, client) in clients.enumerated() {
      if let line = client.readLine(), line.contains(#""id":\#(index),"ok":true"#) { answered += 1 }
    }
    #expect(answered == 40)
    staller.send(#"d":"status"}"# + "\n")
    #expect(staller.readLine()?.contains(#""id":1,"ok":true"#) == true)
  }

  @Test("a client that pipelines thousands of requests without reading is held back, loses nothing, and stalls nobody")
  func pipelinedFlood() throws {
    let daemon = try DaemonUnderTest()
    defer { daemon.stop() }
    try daemon.waitUntilReady()
    let flooder = try RawSocketClient(path: daemon.socketPath)
    let count = 3000
    var requests = ""
    for index in 0..<count { requests += #"{"v":1,"id":\#(index),"cmd":"status"}"# + "\n" }
    #expect(flooder.send(requests))
    let other = try RawSocketClient(path: daemon.socketPath)
    #expect(other.ask(#"{"v":1,"id":1,"cmd":"status"}"#)?["ok"] as? Bool == true)
    var inOrder = 0
    for index in 0..<count {
      guard let line = flooder.readLine() else { break }
      if line.contains(#""id":\#(index),"ok":true"#) { inOrder += 1 }
    }
    #expect(inOrder == count)
    #expect(daemon.process.isRunning)
  }

  @Test("connections past MaximumClients are answered busy and closed")
  func busy() throws {
    let daemon = try DaemonUnderTest(config: "[Control]\nMaximumClients=2\n")
    defer { daemon.stop() }
    try daemon.waitUntilReady()
    let first = try RawSocketClient(path: daemon.socketPath)
    let second = try RawSocketClient(path: daemon.socketPath)
    #expect(first.ask(#"{"v":1,"id":1,"cmd":"status"}"#)?["ok"] as? Bool == true)
    let third = try RawSocketClient(path: daemon.socketPath)
    #expect(third.readLine()?.contains(#""code":"busy""#) == true)
    #expect(third.isClosedByPeer())
    #expect(second.ask(#"{"v":1,"id":2,"cmd":"status"}"#)?["ok"] as? Bool == true)
  }

  @Test("navigate with no accepted fix yet is refused (exit 1, with a sentence)")
  func unavailable() throws {
    let daemon = try DaemonUnderTest()
    defer { daemon.stop() }
    try daemon.waitUntilReady()
    let outcome = try daemon.control(["navigate", "51.5,-0.12"])
    #expect(outcome.status == 1)
    #expect(
      outcome.standardError
        == "dashpilotctl: dashpilotd refused: navigate: no position has been accepted yet, so there is no start for a route (is gpsd delivering fixes?) (unavailable)\n"
    )
  }

  @Test("a multi-part import is assembled before it is routed")
  func multiPartImport() throws {
    let daemon = try DaemonUnderTest()
    defer { daemon.stop() }
    try daemon.waitUntilReady()
    let client = try RawSocketClient(path: daemon.socketPath)
    func point(_ i: Int) -> String {
      #"{"lat":\#(51.5 + Double(i) * 0.001),"lon":-0.12,"time":\#(1_700_000_000 + i * 10),"accuracy":5}"#
    }
    let part = try #require(
      client.ask(#"{"v":1,"id":1,"cmd":"import","args":{"points":[\#(point(0)),\#(point(1))],"more":true}}"#))
    #expect((part["result"] as? [String: Any])?["received"] as? Int == 2)
    let part2 = try #require(
      client.ask(#"{"v":1,"id":2,"cmd":"import","args":{"points":[\#(point(2))],"more":true}}"#))
    #expect((part2["result"] as? [String: Any])?["received"] as? Int == 3)
    let last = try #require(client.ask(#"{"v":1,"id":3,"cmd":"import","args":{"points":[\#(point(3))]}}"#))
    // The recording component judges the assembled four points and stores them as shift 1.
    let result = try #require(last["result"] as? [String: Any])
    #expect(result["id"] as? Int == 1)
    #expect((result["import"] as? [String: Any])?["points"] as? Int == 4)
    #expect((result["import"] as? [String: Any])?["kept"] as? Int == 4)
    let mixed = try #require(
      client.ask(
        #"{"v":1,"id":4,"cmd":"route.load","args":{"coordinates":[{"lat":1,"lon":2}],"mode":"walking","more":true}}"#))
    #expect((mixed["result"] as? [String: Any])?["received"] as? Int == 1)
    let changed = try #require(
      client.ask(#"{"v":1,"id":5,"cmd":"route.load","args":{"coordinates":[{"lat":1,"lon":2}],"mode":"driving"}}"#))
    #expect(changed.errorMessage == "route.load: a part changed the mode from walking to driving")
  }

  @Test("SIGHUP reloads nothing and says so; SIGTERM tells followers, sends STOPPING=1 and exits 0")
  func signals() throws {
    let daemon = try DaemonUnderTest()
    defer { daemon.stop() }
    try daemon.waitUntilReady()
    let follower = try RawSocketClient(path: daemon.socketPath)
    let acknowledgement = try #require(follower.ask(#"{"v":1,"id":1,"cmd":"events"}"#))
    #expect(
      (acknowledgement["result"] as? [String: Any])?["message"] as? String == "following events: one JSON line each")

    // Other events (gpsd being unreachable) may come first: read up to the one wanted.
    func next(_ type: String) -> String? {
      while let line = follower.readLine() {
        if line.contains(#""type":"\#(type)""#) { return line }
      }
      return nil
    }
    daemon.signal(SIGHUP)
    let hangup = try #require(next("daemon.hangup"))
    #expect(hangup.contains(#""type":"daemon.hangup""#))
    #expect(
      hangup.contains(
        #""message":"SIGHUP received: dashpilotd reloads nothing; restart it to apply configuration changes""#))
    #expect(daemon.process.isRunning)

    daemon.signal(SIGTERM)
    let stopping = try #require(next("daemon.stopping"))
    #expect(stopping.contains(#""type":"daemon.stopping""#))
    #expect(stopping.contains(#""reason":"sigterm""#))
    #expect(follower.isClosedByPeer())
    #expect(daemon.waitForExit() == 0)
    #expect(daemon.notifications.messages.contains("STOPPING=1\nSTATUS=Stopping on SIGTERM"))
    #expect(!FileManager.default.fileExists(atPath: daemon.socketPath))
    #expect(daemon.log.contains("dashpilotd: notice: stopped cleanly"))
  }

  @Test("dashpilotctl events follows until the daemon stops, then exits 0")
  func eventsCommand() throws {
    let daemon = try DaemonUnderTest()
    defer { daemon.stop() }
    try daemon.waitUntilReady()
    let directory = try TestPaths.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let output = directory.appendingPathComponent("events.txt")
    _ = FileManager.default.createFile(atPath: output.path, contents: nil)
    let follower = Process()
    follower.executableURL = try DaemonBinaries.url("dashpilotctl")
    follower.arguments = ["events", "--json", "--socket", daemon.socketPath]
    follower.standardOutput = try FileHandle(forWritingTo: output)
    try follower.run()
    // SIGHUP until the follower shows the hangup event: then it is surely connected.
    var connected = false
    for _ in 0..<100 where !connected {
      daemon.signal(SIGHUP)
      usleep(100_000)
      connected = (try? String(contentsOf: output, encoding: .utf8))?.contains(#""type":"daemon.hangup""#) == true
    }
    #expect(connected)
    daemon.signal(SIGTERM)
    let deadline = Date().addingTimeInterval(10)
    while follower.isRunning && Date() < deadline { usleep(10_000) }
    if follower.isRunning {
      Issue.record("dashpilotctl events did not end after the daemon stopped")
      follower.terminate()
      follower.waitUntilExit()
      return
    }
    #expect(follower.terminationStatus == 0)
    let text = try String(contentsOf: output, encoding: .utf8)
    #expect(text.contains(#""type":"daemon.stopping""#))
  }

  @Test("the watchdog is fed from the loop when systemd asks for one")
  func watchdog() throws {
    let daemon = try DaemonUnderTest(environment: ["WATCHDOG_USEC": "1500000"])
    defer { daemon.stop() }
    try daemon.waitUntilReady()
    #expect(daemon.notifications.wait(for: "WATCHDOG=1", timeout: 5) != nil)
    let deadline = Date().addingTimeInterval(5)
    while daemon.notifications.messages.filter({ $0 == "WATCHDOG=1" }).count < 3 && Date() < deadline { usleep(50_000) }
    #expect(daemon.notifications.messages.filter { $0 == "WATCHDOG=1" }.count >= 3)
  }

  @Test("a stale socket from a crash is replaced; a live one is refused")
  func staleAndLiveSockets() throws {
    let first = try DaemonUnderTest()
    defer { first.stop() }
    try first.waitUntilReady()
    first.signal(SIGKILL)
    _ = first.waitForExit()
    #expect(FileManager.default.fileExists(atPath: first.socketPath))
    let unreachable = try ProcessRunner.run(
      try DaemonBinaries.url("dashpilotctl"), ["status", "--socket", first.socketPath])
    #expect(unreachable.status == 3)
    #expect(unreachable.standardError.contains("nothing answers on \(first.socketPath)"))

    let second = try DaemonUnderTest(arguments: ["--socket", first.socketPath])
    defer { second.stop() }
    try second.waitUntilReady()
    #expect(
      try ProcessRunner.run(try DaemonBinaries.url("dashpilotctl"), ["status", "--socket", first.socketPath]).status
        == 0)

    let third = try DaemonUnderTest(arguments: ["--socket", first.socketPath])
    defer { third.stop() }
    #expect(third.waitForExit() == 1)
    #expect(third.log.contains("another dashpilotd is already answering on \(first.socketPath)"))
    #expect(
      try ProcessRunner.run(try DaemonBinaries.url("dashpilotctl"), ["status", "--socket", first.socketPath]).status
        == 0)
  }

  @Test("no daemon: exit 3 with how to start it")
  func noDaemon() throws {
    let outcome = try ProcessRunner.run(
      try DaemonBinaries.url("dashpilotctl"), ["status", "--socket", "/nonexistent/dashpilot.sock"])
    #expect(outcome.status == 3)
    #expect(
      outcome.standardError
        == "dashpilotctl: dashpilotd is not running: there is no control socket at /nonexistent/dashpilot.sock. Start it with `sudo systemctl start dashpilotd`, or pass --socket PATH for a daemon you started yourself.\n"
    )
  }

  @Test(
    "configuration errors stop start-up naming file, line and key",
    arguments: [
      ("[Capture]\nMaximumAge=10\nMaximumSpeed=70\n", ":3: MaximumSpeed: unknown key in [Capture]"),
      ("[Measurement]\nUnits=furlongs\n", ":2: Units: \"furlongs\" is not miles or kilometres"),
      ("[Control]\nSocketGroup=no-such-group-dp\n", "SocketGroup: the group \"no-such-group-dp\" does not exist"),
    ])
  func configurationErrors(config: String, expected: String) throws {
    let daemon = try DaemonUnderTest(config: config)
    defer { daemon.stop() }
    #expect(daemon.waitForExit() == 78)
    let configPath = try #require(daemon.configPath)
    #expect(daemon.log.contains(configPath + expected) || daemon.log.contains(expected))
    #expect(daemon.log.contains("configuration error: \(configPath)"))
    #expect(!FileManager.default.fileExists(atPath: daemon.socketPath))
    #expect(!daemon.notifications.messages.contains { $0.contains("READY=1") })
  }

  @Test("a missing file named with --config stops start-up")
  func missingConfig() throws {
    let daemon = try DaemonUnderTest(arguments: ["--config", "/nonexistent/dashpilot.conf"])
    defer { daemon.stop() }
    #expect(daemon.waitForExit() == 78)
    #expect(
      daemon.log
        == "dashpilotd: error: configuration error: /nonexistent/dashpilot.conf: the configuration file does not exist [reason=configuration]\n"
    )
  }

  @Test("a malformed places file stops start-up naming the file and the feature")
  func malformedPlaces() throws {
    let directory = try TestPaths.temporaryDirectory("places")
    defer { try? FileManager.default.removeItem(at: directory) }
    let places = directory.appendingPathComponent("places.geojson").path
    try
      #"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[-0.12,51.5]},"properties":{"name":"Depot","kind":"depot"}}]}"#
      .write(toFile: places, atomically: true, encoding: .utf8)
    let daemon = try DaemonUnderTest(config: "[Places]\nFile=\(places)\n")
    defer { daemon.stop() }
    #expect(daemon.waitForExit() == 78)
    #expect(
      daemon.log
        == "dashpilotd: error: configuration error: places: \(places): feature 1 (\"Depot\"): a Point needs "
        + "properties.radius_m, the place's radius in metres (more than 0, at most 10000) [reason=configuration]\n")
    #expect(!FileManager.default.fileExists(atPath: daemon.socketPath))
  }

  @Test("dashpilotd --help and a bad option")
  func daemonUsage() throws {
    let help = try ProcessRunner.run(try DaemonBinaries.url("dashpilotd"), ["--help"])
    #expect(help.status == 0)
    #expect(
      help.standardOutput.hasPrefix(
        "USAGE: dashpilotd [--config FILE] [--database PATH] [--socket PATH] [--gpsd HOST:PORT] [--foreground]"))
    let bad = try ProcessRunner.run(try DaemonBinaries.url("dashpilotd"), ["--gpsd"])
    #expect(bad.status == 2)
    #expect(bad.standardError == "dashpilotd: --gpsd needs HOST:PORT\nRun 'dashpilotd --help' for the options.\n")
  }
}
