import Foundation
import TestSupport
import Testing

/// What the running daemon maps, read from /proc/PID/maps of the real process: its modules
/// import only FoundationEssentials, so Foundation, CoreFoundation, ICU and libxml2 are never
/// loaded (a route sent inline is read by `dashpilot-route-reader`, a child), and libcurl (with its TLS and Kerberos libraries) is loaded on the first
/// routing request only. Together these are most of the distance to the 20 MB goal
/// (`make bench`: daemon_rss_*).
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
}
