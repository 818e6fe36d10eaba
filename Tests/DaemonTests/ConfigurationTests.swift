import ConfigurationFile
import DashPilotCore
import Foundation
import Guidance
import Store
import TestSupport
import Testing

@testable import Daemon

@Suite("Configuration")
struct ConfigurationTests {
  func load(_ text: String) -> Result<DaemonConfiguration, ConfigurationError> { ConfigurationText.load(text) }
  func error(_ text: String) -> String? { ConfigurationText.error(text) }

  @Test("libinih entries carry their line numbers")
  func entriesHaveLines() throws {
    let entries = try ConfigurationFileReader.parse(
      text: "# comment\n\n[GPSD]\nAddress = 10.0.0.1:2948\n; another\n[Measurement]\nUnits=km\n", file: nil
    ).get()
    #expect(
      entries == [
        ConfigurationEntry(section: "GPSD", key: "Address", value: "10.0.0.1:2948", line: 4),
        ConfigurationEntry(section: "Measurement", key: "Units", value: "km", line: 7),
      ])
  }

  @Test("every value is applied")
  func values() throws {
    let configuration = try load(
      """
      [GPSD]
      Address=[::1]:2950
      [Capture]
      MaximumHorizontalAccuracy=50
      MaximumAge=5
      MaximumImpliedSpeed=40
      MinimumMovement=2.5
      [Measurement]
      MaximumSampleInterval=90
      Units=kilometres
      [Store]
      Database=/srv/dp.sqlite
      CommitInterval=5
      KeepDays=90
      FreeSpaceFloor=512M
      [Control]
      Socket=/run/dp.sock
      SocketGroup=users
      IdleTimeout=0.5
      MaximumClients=3
      [Guidance]
      Mode=walking
      Language=korean
      SpeechCommand=espeak-ng --stdin
      [Routing]
      Provider=osrm
      URL=http://127.0.0.1:5000
      [Shift]
      Start=movement
      EndAfterStop=1.5h
      StartDistance=350
      """
    ).get()
    #expect(configuration.gpsd == ServiceAddress(host: "::1", port: 2950))
    #expect(configuration.filter.maximumHorizontalAccuracy == 50)
    #expect(configuration.filter.maximumAge == 5)
    #expect(configuration.filter.maximumImpliedSpeed == 40)
    #expect(configuration.filter.minimumMovement == 2.5)
    #expect(configuration.maximumSampleInterval == 90)
    #expect(configuration.units == .kilometres)
    #expect(configuration.databasePath == "/srv/dp.sqlite")
    #expect(configuration.commitInterval == 5)
    #expect(configuration.keepDays == 90)
    #expect(configuration.freeSpaceFloor == .bytes(512 << 20))
    #expect(configuration.batchPolicy == SampleBatchPolicy(maximumPendingAge: 5, maximumPendingCount: 160))
    #expect(configuration.socketPath == "/run/dp.sock")
    #expect(configuration.socketGroup == "users")
    #expect(configuration.idleTimeout == 0.5)
    #expect(configuration.maximumClients == 3)
    #expect(configuration.guidanceMode == .walking)
    #expect(configuration.language == .korean)
    #expect(configuration.speechCommand == "espeak-ng --stdin")
    #expect(configuration.routingProvider == .osrm)
    #expect(configuration.routingURL == "http://127.0.0.1:5000")
    #expect(configuration.shiftStart == .movement)
    #expect(configuration.shiftPolicy.endAfterStop == 5400)
    #expect(configuration.shiftPolicy.startDistance == 350)
  }

  @Test("[Shift] EndAfterStop takes seconds, s, min or h; without the section shifts start by hand")
  func shiftDurations() throws {
    for (text, seconds) in [("45min", 2700.0), ("2700", 2700), ("2700s", 2700), ("1h", 3600), ("90s", 90)] {
      #expect(try load("[Shift]\nEndAfterStop=\(text)\n").get().shiftPolicy.endAfterStop == seconds)
    }
    let defaults = try load("").get()
    #expect(defaults.shiftStart == .manual)
    #expect(defaults.shiftPolicy == ShiftPolicy.Configuration(endAfterStop: 2700, startDistance: 200))
  }

  @Test("[Capture] DateByArrival is synchronised, always or never; synchronised without it")
  func dateByArrival() throws {
    for rule in ArrivalDating.allCases {
      #expect(try load("[Capture]\nDateByArrival=\(rule.rawValue)\n").get().filter.dateByArrival == rule)
    }
    #expect(try load("").get().filter.dateByArrival == .synchronised)
  }

  @Test("[Stops] MinimumStop takes a duration from 10s to 24h; 2 min without it, as replay's")
  func minimumStop() throws {
    for (text, seconds) in [("2min", 120.0), ("90s", 90), ("45", 45), ("0.5h", 1800), ("10s", 10)] {
      let configuration = try load("[Stops]\nMinimumStop=\(text)\n").get()
      #expect(configuration.minimumStop == seconds)
      #expect(configuration.stopPolicy.minimumStop == seconds)
    }
    let defaults = try load("").get()
    #expect(defaults.minimumStop == 120)
    #expect(defaults.stopPolicy.minimumStop == StopPolicy().minimumStop)
    #expect(defaults.stopPolicy.standingSpeed == StopPolicy().standingSpeed)
    #expect(defaults.stopPolicy.calculator.maximumSampleInterval == 120)
  }

  @Test(
    "a wrong entry names the file, the line and the key",
    arguments: [
      ("[GPSD]\nAdress=localhost:2947\n", "test.conf:2: Adress: unknown key in [GPSD]; its keys are Address"),
      ("[Measurement]\n\nUnits=leagues\n", "test.conf:3: Units: \"leagues\" is not miles or kilometres"),
      ("[Capture]\nDateByArrival=yes\n", "test.conf:2: DateByArrival: \"yes\" is not synchronised, always or never"),
      ("[Capture]\nMaximumAge=-1\n", "test.conf:2: MaximumAge: \"-1\" is not a number of seconds from 0.1 to 86400"),
      (
        "[Capture]\nMinimumMovement=five\n",
        "test.conf:2: MinimumMovement: \"five\" is not a number of metres from 0 to 1000"
      ),
      (
        "[GPSD]\nAddress=localhost\n",
        "test.conf:2: Address: \"localhost\" is not HOST:PORT (such as localhost:2947 or [::1]:2947)"
      ),
      (
        "[Gpsd]\nAddress=localhost:1\n",
        "test.conf:2: Address: unknown section [Gpsd]; sections are Capture, Control, GPSD, Guidance, Jobs, Measurement, Places, Routing, Shift, Stops, Store, Uplink"
      ),
      ("Units=miles\n", "test.conf:1: Units: a key outside any section; put it under its [Section]"),
      (
        "[Store]\nCommitInterval=0\n",
        "test.conf:2: CommitInterval: \"0\" is not a number of seconds from 0.1 to 60"
      ),
      ("[Store]\nDatabase=relative.sqlite\n", "test.conf:2: Database: \"relative.sqlite\" is not an absolute path"),
      ("[Places]\nFile=places.geojson\n", "test.conf:2: File: \"places.geojson\" is not an absolute path"),
      (
        "[Store]\nKeepDays=0\n",
        "test.conf:2: KeepDays: \"0\" is not a whole number of days from 1 to 36500, or forever"
      ),
      (
        "[Store]\nFreeSpaceFloor=10 %\n",
        "test.conf:2: FreeSpaceFloor: \"10 %\" is not a percentage of the file system (0% to 90%) or a size (512M, 2G; K, M, G are powers of 1024)"
      ),
      ("[Guidance]\nMode=driving\nMode=walking\n", "test.conf:3: Mode: set twice (first on line 2)"),
      ("[Routing]\nURL=ftp://x\n", "test.conf:2: URL: \"ftp://x\" is not an http:// or https:// URL"),
      ("[Control]\nMaximumClients=0\n", "test.conf:2: MaximumClients: \"0\" is not a whole number from 1 to 1000"),
      ("[Shift]\nStart=ignition\n", "test.conf:2: Start: \"ignition\" is not movement or manual"),
      (
        "[Shift]\nEndAfterStop=45 min\n",
        "test.conf:2: EndAfterStop: \"45 min\" is not a duration from 1min to 24h (such as 45min, 2700s or 1h)"
      ),
      (
        "[Shift]\nEndAfterStop=2d\n",
        "test.conf:2: EndAfterStop: \"2d\" is not a duration from 1min to 24h (such as 45min, 2700s or 1h)"
      ),
      (
        "[Shift]\nEndAfterStop=30s\n",
        "test.conf:2: EndAfterStop: \"30s\" is not a duration from 1min to 24h (such as 45min, 2700s or 1h)"
      ),
      (
        "[Stops]\nMinimumStop=5s\n",
        "test.conf:2: MinimumStop: \"5s\" is not a duration from 10s to 24h (such as 2min, 120s or 0.5h)"
      ),
      (
        "[Stops]\nMinimumStop=2m\n",
        "test.conf:2: MinimumStop: \"2m\" is not a duration from 10s to 24h (such as 2min, 120s or 0.5h)"
      ),
      (
        "[Shift]\nStartDistance=20\n",
        "test.conf:2: StartDistance: \"20\" is not a number of metres from 100 to 10000"
      ),
      (
        "[GPSD]\nthis line has no equals sign\n",
        "test.conf:2: \"this line has no equals sign\" is not a [Section] header, a comment or a Key=Value line"
      ),
    ])
  func errors(text: String, expected: String) {
    #expect(error(text) == expected)
  }

  @Test("an over-long line is refused with its number")
  func longLine() {
    let text = "[Guidance]\nSpeechCommand=" + String(repeating: "x", count: 200) + "\n"
    #expect(error(text) == "test.conf:2: the line is longer than 198 bytes")
  }

  @Test("the shipped file documents every key with its default")
  func shippedFileDocumentsDefaults() throws {
    let shipped = try String(
      contentsOf: TestPaths.repositoryRoot.appendingPathComponent("config/dashpilot.conf"), encoding: .utf8)
    // As shipped, every key is commented out but [Shift] Start=movement: the defaults
    // apply, and shifts start on movement.
    var shippedConfiguration = DaemonConfiguration()
    shippedConfiguration.shiftStart = .movement
    #expect(try load(shipped).get() == shippedConfiguration)
    // Uncommenting every documented key gives the same configuration: each comment holds
    // the real default. ([Uplink], which is off until a broker is named, has a test of its
    // own in UplinkConfigurationFileTests.)
    var section = ""
    let uncommented = shipped.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
      if line.hasPrefix("[") { section = String(line) }
      return section != "[Uplink]" && line.hasPrefix("#") && line.dropFirst().first?.isUppercase == true
        && line.contains("=") ? String(line.dropFirst()) : String(line)
    }.joined(separator: "\n")
    let entries = try ConfigurationFileReader.parse(text: uncommented, file: nil).get()
    let documented = Set(entries.map { "\($0.section).\($0.key)" })
    let known = Set(ConfigurationValidator.knownKeys.flatMap { section, keys in keys.map { "\(section).\($0)" } })
    #expect(documented == known)
    #expect(try load(uncommented).get() == shippedConfiguration)
  }

  @Test("the command line overrides the file; a missing default file means defaults")
  func loader() throws {
    let directory = try TestPaths.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("d.conf").path
    try "[GPSD]\nAddress=gps.local:3000\n[Store]\nDatabase=/a.sqlite\n".write(
      toFile: path, atomically: true, encoding: .utf8)
    var options = try DaemonOptions.parse(["--config", path, "--database", "rel.sqlite"], workingDirectory: "/w").get()
    let loaded = try ConfigurationLoader.load(options: options).get()
    #expect(loaded.file == path)
    #expect(loaded.configuration.gpsd.description == "gps.local:3000")
    #expect(loaded.configuration.databasePath == "/w/rel.sqlite")
    options.gpsd = ServiceAddress(host: "127.0.0.1", port: 4000)
    #expect(try ConfigurationLoader.load(options: options).get().configuration.gpsd.description == "127.0.0.1:4000")

    let missingDefault = try ConfigurationLoader.load(
      options: DaemonOptions(), defaultPath: directory.appendingPathComponent("absent.conf").path
    ).get()
    #expect(missingDefault.file == nil)
    #expect(missingDefault.configuration == DaemonConfiguration())

    var named = DaemonOptions()
    named.configPath = directory.appendingPathComponent("absent.conf").path
    guard case .failure(let error) = ConfigurationLoader.load(options: named) else {
      Issue.record("a missing named file was accepted")
      return
    }
    #expect(error.description == "\(named.configPath!): the configuration file does not exist")
  }

  @Test("[Places] File: a missing default file is no places; a named one must exist; a malformed one stops start-up")
  func placesFile() throws {
    let directory = try TestPaths.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    #expect(try load("").get().placesFile == "/etc/dashpilot/places.geojson")
    func loaded(_ conf: String) -> Result<ConfigurationLoader.Loaded, ConfigurationError> {
      let path = directory.appendingPathComponent("d.conf").path
      try? conf.write(toFile: path, atomically: true, encoding: .utf8)
      var options = DaemonOptions()
      options.configPath = path
      return ConfigurationLoader.load(options: options)
    }
    func refusal(_ conf: String) -> String? {
      guard case .failure(let error) = loaded(conf) else { return nil }
      return error.description
    }
    let places = directory.appendingPathComponent("places.geojson").path
    try """
    {"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[-0.12,51.52]},
    "properties":{"name":"Depot","kind":"depot","radius_m":100}}]}
    """.write(toFile: places, atomically: true, encoding: .utf8)
    let read = try loaded("[Places]\nFile=\(places)\n").get().configuration
    #expect(read.placesFile == places)
    #expect(
      read.places == [
        Place(
          name: "Depot", kind: .depot,
          area: .circle(centre: GeoCoordinate(latitude: 51.52, longitude: -0.12), radius: 100))
      ])
    // The default path, absent here, is no places.
    #expect(try loaded("").get().configuration.places.isEmpty)
    let absent = directory.appendingPathComponent("absent.geojson").path
    #expect(refusal("[Places]\nFile=\(absent)\n") == "places: \(absent): does not exist")
    try
      "{\"type\":\"FeatureCollection\",\"features\":[{\"type\":\"Feature\",\"geometry\":null,\"properties\":{\"name\":\"Home\",\"kind\":\"privat\"}}]}"
      .write(toFile: places, atomically: true, encoding: .utf8)
    #expect(
      refusal("[Places]\nFile=\(places)\n")
        == "places: \(places): feature 1 (\"Home\"): has kind \"privat\", which is none of depot, customer, fuel, "
        + "rest, private, other")
    #expect(
      refusal("[Places]\nFile=\(directory.path)\n") == "places: \(directory.path): cannot be read (Is a directory)")
    try Data(repeating: 0x20, count: 4 * 1_048_576 + 1).write(to: URL(fileURLWithPath: places))
    #expect(
      refusal("[Places]\nFile=\(places)\n") == "places: \(places): is larger than 4 MiB, the most a places file may be")
  }

  @Test("[Shift] EndAtPlace names a place of the places file; EndAfterStopAtPlace is 2 min unless set")
  func endAtPlace() throws {
    let directory = try TestPaths.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let defaults = try load("").get()
    #expect(defaults.endAtPlace == nil && defaults.shiftPolicy.endPlace == nil)
    #expect(defaults.shiftPolicy.endAfterStopAtPlace == 120)
    #expect(try load("[Shift]\nEndAfterStopAtPlace=5min\n").get().shiftPolicy.endAfterStopAtPlace == 300)
    #expect(
      error("[Shift]\nEndAfterStopAtPlace=30s\n")
        == "test.conf:2: EndAfterStopAtPlace: \"30s\" is not a duration from 1min to 24h (such as 2min, 120s or 0.5h)")
    let places = directory.appendingPathComponent("places.geojson").path
    try
      #"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[-0.12,51.52]},"properties":{"name":"Depot","kind":"depot","radius_m":100}}]}"#
      .write(toFile: places, atomically: true, encoding: .utf8)
    let conf = directory.appendingPathComponent("d.conf").path
    var options = DaemonOptions()
    options.configPath = conf
    try "[Places]\nFile=\(places)\n[Shift]\nEndAtPlace=Depot\n".write(toFile: conf, atomically: true, encoding: .utf8)
    let loaded = try ConfigurationLoader.load(options: options).get().configuration
    #expect(loaded.endAtPlace == "Depot")
    #expect(loaded.shiftPolicy.endPlace?.name == "Depot")
    try "[Places]\nFile=\(places)\n[Shift]\nEndAtPlace=Home\n".write(toFile: conf, atomically: true, encoding: .utf8)
    guard case .failure(let refused) = ConfigurationLoader.load(options: options) else {
      Issue.record("an unknown place was accepted")
      return
    }
    #expect(
      refused.description == "\(conf): EndAtPlace: no place is named \"Home\" in \(places) (its places are \"Depot\")")
  }

  @Test("dashpilotd's options parse, and mistakes are usage errors")
  func options() throws {
    let options = try DaemonOptions.parse(
      ["--socket=/s.sock", "--gpsd", "[::1]:2947", "--foreground"], workingDirectory: "/"
    ).get()
    #expect(options.socketPath == "/s.sock")
    #expect(options.gpsd == ServiceAddress(host: "::1", port: 2947))
    #expect(options.foreground)
    #expect(
      DaemonOptions.parse(["--gpsd", "nowhere"], workingDirectory: "/").failureDescription
        == "--gpsd: \"nowhere\" is not HOST:PORT (such as localhost:2947)")
    #expect(
      DaemonOptions.parse(["--verbose"], workingDirectory: "/").failureDescription == "unknown option --verbose")
    #expect(DaemonOptions.parse(["--config"], workingDirectory: "/").failureDescription == "--config needs a FILE")
  }

  @Test(
    "HOST:PORT forms",
    arguments: [
      ("localhost:2947", "localhost", UInt16(2947)), ("[::1]:1", "::1", 1), ("10.1.2.3:65535", "10.1.2.3", 65535),
    ])
  func addresses(text: String, host: String, port: UInt16) {
    #expect(ServiceAddress(parsing: text) == ServiceAddress(host: host, port: port))
  }

  @Test(
    "bad HOST:PORT forms", arguments: ["localhost", ":2947", "host:0", "host:70000", "::1:2947", "[::1]2947", "a b:1"])
  func badAddresses(text: String) {
    #expect(ServiceAddress(parsing: text) == nil)
  }
}

extension Result where Failure == DaemonOptions.UsageError {
  var failureDescription: String? {
    if case .failure(let error) = self { return error.description }
    return nil
  }
}
