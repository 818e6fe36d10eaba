import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A real gpsd fed a fixture by `gpsfake` (Debian's gpsd-clients), on a free port of its own
/// (never the system's 2947), in a process group of its own so that `stop()` ends gpsfake
/// and the gpsd it started together, even when a test fails half way.
public final class GPSDFake: @unchecked Sendable {
  public struct Failure: Error, CustomStringConvertible {
    public var description: String
  }

  public let port: Int
  private let process: GPSDChildProcess
  private let output: URL

  /// Starts `gpsfake -1 -q -P PORT -c CYCLE LOG` and waits until gpsd accepts connections.
  /// gpsfake starts feeding the log when the first client connects.
  public init(log: URL, cycle: Double = 0.02, startTimeout: Double = 10) throws {
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/gpsfake") else {
      throw Failure(description: "gpsfake is not installed (Debian package gpsd-clients)")
    }
    port = try FreePort.find()
    output = FileManager.default.temporaryDirectory.appendingPathComponent("gpsfake-\(UUID().uuidString).log")
    _ = FileManager.default.createFile(atPath: output.path, contents: nil)
    process = try GPSDChildProcess(
      executable: "/usr/bin/gpsfake",
      arguments: ["-1", "-q", "-P", String(port), "-c", String(cycle), log.path],
      outputPath: output.path)
    guard FreePort.waitUntilListening(port: port, timeout: startTimeout) else {
      stop()
      throw Failure(description: "gpsd from gpsfake did not listen on port \(port): \(self.log())")
    }
  }

  /// Whether gpsfake is still running.
  public var isRunning: Bool { process.isRunning }

  /// What gpsfake and gpsd printed, for a failing test's message.
  public func log() -> String {
    (try? String(contentsOf: output, encoding: .utf8)) ?? ""
  }

  /// Kills gpsfake and its gpsd (SIGKILL to the group: gpsfake ignores SIGTERM while it
  /// waits for a client). Safe to call twice.
  public func stop() {
    process.killGroup()
  }

  deinit {
    stop()
    try? FileManager.default.removeItem(at: output)
  }
}

/// Free TCP ports on loopback, and waiting for a server to listen on one.
public enum FreePort {
  /// A free port for a test's server, below the kernel's ephemeral range (32768-60999
  /// here): a port the kernel hands out with bind(0) comes from that range, which every
  /// outgoing connection also draws from, so with hundreds of test clients connecting at
  /// once another socket could take it before the server binds it (a gpsd then "did not
  /// listen"). Each port is handed out once per test process.
  public static func find() throws -> Int {
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<1_000 {
      let port = Int.random(in: 20_000..<32_768, using: &generator)
      let fresh = handedOutLock.withLock { handedOut.insert(port).inserted }
      if fresh, canBind(port: port) { return port }
    }
    return try kernelChosenPort()
  }

  nonisolated(unsafe) private static var handedOut: Set<Int> = []
  private static let handedOutLock = NSLock()

  /// Whether 127.0.0.1:`port` can be bound right now.
  static func canBind(port: Int) -> Bool {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    return withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    } == 0
  }

  /// A port the kernel just handed out and released: free unless someone races for it.
  static func kernelChosenPort() throws -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw GPSDFake.Failure(description: "socket() failed: \(errno)") }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
    }
    guard bound == 0 else { throw GPSDFake.Failure(description: "bind() failed: \(errno)") }
    let named = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    guard named == 0 else { throw GPSDFake.Failure(description: "getsockname() failed: \(errno)") }
    return Int(UInt16(bigEndian: address.sin_port))
  }

  /// Whether something accepts TCP connections on 127.0.0.1:`port` within `timeout`.
  /// (Connecting to gpsfake's gpsd does not start the feed: only a WATCH does.)
  public static func waitUntilListening(port: Int, timeout: Double) -> Bool {
    let deadline = Date(timeIntervalSinceNow: timeout)
    while Date() < deadline {
      if canConnect(port: port) { return true }
      usleep(50_000)
    }
    return false
  }

  public static func canConnect(port: Int) -> Bool {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let result = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    return result == 0
  }
}
