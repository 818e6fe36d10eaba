import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The flake "gpsd did not listen on port N" (DaemonClockTroubleTests, seven gpsds started
/// at once): a gpsd spawned while another thread held a socket bound to a port kept that
/// socket, so the gpsd meant for the port could bind ::1 only. Children now inherit nothing,
/// and a gpsd that does not listen says why.
@Suite struct GPSDChildProcessTests {
  /// A socket bound to 127.0.0.1:`port` without close-on-exec, as any library might open one.
  static func inheritableSocket(boundTo port: Int) throws -> Int32 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    try #require(fd >= 0 && bound == 0, "errno \(errno)")
    return fd
  }

  @Test func aChildInheritsOnlyItsStandardDescriptors() throws {
    let held = try Self.inheritableSocket(boundTo: try FreePort.find())
    defer { close(held) }
    let directory = try TestPaths.temporaryDirectory("child-fds")
    defer { try? FileManager.default.removeItem(at: directory) }
    let output = directory.appendingPathComponent("fds").path
    let child = try GPSDChildProcess(executable: "/bin/ls", arguments: ["/proc/self/fd"], outputPath: output)
    while child.isRunning { usleep(10_000) }
    // 0, 1 and 2, and the directory ls itself opened to list them.
    #expect(try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n") == ["0", "1", "2", "3"])
  }

  @Test(.requiresGPSD) func aGPSDThatCannotBindLoopbackSaysSo() throws {
    let nmea = try TestPaths.temporaryDirectory("gpsd-refused")
    defer { try? FileManager.default.removeItem(at: nmea) }
    let log = nmea.appendingPathComponent("empty.nmea")
    try Data().write(to: log)
    let receiver = try GPSDPseudoReceiver(nmea: log)
    defer { receiver.stop() }
    let held = try Self.inheritableSocket(boundTo: receiver.port)
    defer { close(held) }
    let failure = #expect(throws: GPSDFake.Failure.self) { try receiver.startGPSD(timeout: 2) }
    #expect(failure?.description.contains("can't bind to IPv4 port \(receiver.port), Address already in use") == true)
    #expect(failure?.description.hasPrefix("gpsd did not listen on 127.0.0.1:\(receiver.port) within 2.0 s") == true)
  }
}
