import Foundation
import TestSupport
import Testing

/// What the executables load. The running daemon, read from /proc/PID/maps of the real
/// process: its modules import only FoundationEssentials, so Foundation, CoreFoundation, ICU
/// and libxml2 are never loaded (a route sent inline is read by `dashpilot-route-reader`, a
/// child), and libcurl (with its TLS and Kerberos libraries) is loaded on the first routing
/// request only. Together these are most of the distance to the 20 MB goal (`make bench`:
/// daemon_rss_*). Every executable, read from the dynamic loader: none loads Foundation or
/// its ICU, which made dashpilotctl and the route reader 60 MB each in the package.
struct DaemonFootprintTests {
  static func mappedFiles(of pid: Int32) throws -> Set<String> {
    // procfs files report size 0: read until the end rather than trusting the size.
    let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: "/proc/\(pid)/maps"))
    defer { try? handle.close() }
    let maps = String(decoding: try handle.readToEnd() ?? Data(), as: UTF8.self)
    return Set(
      maps.split(separator: "\n").compactMap { line in
        line.split(separator: " ", omittingEmptySubsequences: true).dropFirst(5).first.map {
          String($0.split(separator: "/").last ?? $0)
        }
      })
  }

  @Test func aRunningDaemonMapsNeitherFoundationNorLibcurl() throws {
    let daemon = try DaemonUnderTest()
    defer { daemon.stop() }
    try daemon.waitUntilReady(timeout: 30)
    // Even once it has read a route sent as GPX text: its child did the reading.
    let client = try RawSocketClient(path: daemon.socketPath)
    let gpx = #"<gpx version=\"1.1\"><rte><rtept lat=\"1\" lon=\"2\"/><rtept lat=\"1.01\" lon=\"2\"/></rte></gpx>"#
    let loaded = try #require(client.ask(#"{"v":1,"id":1,"cmd":"route.load","args":{"gpx":"\#(gpx)"}}"#))
    #expect((loaded["result"] as? [String: Any])?["points"] as? Int == 2, "\(loaded)")
    let files = try Self.mappedFiles(of: daemon.pid)
    let unwanted = files.filter { name in
      [
        "libFoundation.so", "libFoundationInternationalization.so", "lib_FoundationICU.so", "libFoundationXML.so",
        "libxml2", "libcurl", "libgnutls",
      ]
      .contains { name.hasPrefix($0) }
    }
    #expect(unwanted == [])
    // The same reading sees what the daemon does link, so an empty answer is not a blind one.
    #expect(files.contains { $0.hasPrefix("libsqlite3.so") })
    #expect(files.contains { $0.hasPrefix("libgps.so") })
  }

  /// Foundation beyond FoundationEssentials, as the toolchain ships it: all of Foundation,
  /// its locale data (ICU, swift-foundation-icu), its XML parser and its networking.
  static let foundationBeyondEssentials = [
    "libFoundation.so", "libFoundationInternationalization.so", "lib_FoundationICU.so", "libFoundationXML.so",
    "libFoundationNetworking.so",
  ]

  /// Every library the dynamic loader maps for a run of `executable` (`LD_DEBUG=files`
  /// names each one, whoever needed it), and how the run ended.
  static func loadedLibraries(
    _ executable: URL, _ arguments: [String], input: URL? = nil
  ) throws -> (libraries: Set<String>, status: Int32, output: String) {
    let directory = try TestPaths.temporaryDirectory("loader")
    defer { try? FileManager.default.removeItem(at: directory) }
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.environment = ["LD_DEBUG": "files", "LD_DEBUG_OUTPUT": directory.appendingPathComponent("ld").path]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = output
    process.standardInput = try input.map { try FileHandle(forReadingFrom: $0) } ?? FileHandle.nullDevice
    try process.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    var libraries: Set<String> = []
    for file in try FileManager.default.contentsOfDirectory(atPath: directory.path) {
      let log = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
      for line in log.split(separator: "\n") {
        guard let range = line.range(of: "file=") else { continue }
        libraries.insert(String(line[range.upperBound...].prefix { $0 != " " }))
      }
    }
    return (libraries, process.terminationStatus, text)
  }

  @Test func noExecutableLoadsFoundationOrItsICU() throws {
    let directory = try TestPaths.temporaryDirectory("footprint")
    defer { try? FileManager.default.removeItem(at: directory) }
    let gpx = directory.appendingPathComponent("route.gpx")
    try Data(#"<gpx><rte><rtept lat="1" lon="2"/><rtept lat="1.01" lon="2"/></rte></gpx>"#.utf8).write(to: gpx)
    // Each run reads the route for real: the reader answers with its points (run as the
    // package runs it too: dashpilotctl called by the reader's name), the client reads the
    // file before it finds no daemon to send it to.
    let reader = try Self.loadedLibraries(
      try DaemonBinaries.url("dashpilot-route-reader"), ["gpx", "fleet"], input: gpx)
    let link = directory.appendingPathComponent("dashpilot-route-reader")
    try FileManager.default.createSymbolicLink(at: link, withDestinationURL: try DaemonBinaries.url("dashpilotctl"))
    let linked = try Self.loadedLibraries(link, ["gpx", "fleet"], input: gpx)
    for run in [reader, linked] {
      #expect(run.status == 0)
      #expect(run.output == #"[{"lat":1.0,"lon":2.0},{"lat":1.01,"lon":2.0}]"# + "\n")
    }
    let socket = directory.appendingPathComponent("none.sock").path
    let client = try Self.loadedLibraries(
      try DaemonBinaries.url("dashpilotctl"), ["route", "load", gpx.path, "--socket", socket])
    #expect(client.status == 3, "\(client.output)")
    let daemon = try Self.loadedLibraries(try DaemonBinaries.url("dashpilotd"), ["--version"])
    #expect(daemon.status == 0)
    let runs = [
      ("dashpilot-route-reader", reader), ("dashpilotctl as the reader", linked), ("dashpilotctl", client),
      ("dashpilotd", daemon),
    ]
    for (name, run) in runs {
      #expect(run.libraries.filter(Self.foundationBeyondEssentials.contains) == [], "\(name)")
      // The same reading sees what each does load, so an empty answer is not a blind one.
      #expect(run.libraries.contains("libc.so.6"), "\(name): \(run.libraries.sorted())")
    }
    // GPX is read with libxml2 itself (Debian's, which brings Debian's libicuuc72 with it).
    #expect(reader.libraries.contains("libxml2.so.2"))
    #expect(client.libraries.isSuperset(of: ["libxml2.so.2", "libsqlite3.so.0", "libgps.so.28"]))
    #expect(daemon.libraries.isSuperset(of: ["libsqlite3.so.0", "libgps.so.28"]))
    #expect(!daemon.libraries.contains("libxml2.so.2"))
  }
}
