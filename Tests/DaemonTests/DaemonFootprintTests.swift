import Foundation
import TestSupport
import Testing

/// What the running daemon maps, read from /proc/PID/maps of the real process: libcurl
/// (with its TLS and Kerberos libraries) is loaded on the first routing request only.
/// Foundation (with ICU) and libxml2 are mapped from the start since the daemon reads a
/// route a fleet command sends inline with RouteFiles, the CLI's reader (issue 15, item 5);
/// before that its modules imported only FoundationEssentials and it mapped neither
/// (`make bench`: daemon_rss_* measures what that costs).
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

  @Test func aRunningDaemonMapsNoLibcurl() throws {
    let daemon = try DaemonUnderTest()
    defer { daemon.stop() }
    try daemon.waitUntilReady(timeout: 30)
    let files = try Self.mappedFiles(of: daemon.pid)
    let unwanted = files.filter { name in ["libcurl", "libgnutls"].contains { name.hasPrefix($0) } }
    #expect(unwanted == [])
    // The same reading sees what the daemon does link, so an empty answer is not a blind one.
    #expect(files.contains { $0.hasPrefix("libsqlite3.so") })
    #expect(files.contains { $0.hasPrefix("libgps.so") })
  }
}
