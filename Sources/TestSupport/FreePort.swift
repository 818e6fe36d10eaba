import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// Free TCP ports on loopback for the tests' servers (gpsd, mosquitto, the routing engines),
/// and waiting for a server to listen on one.
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
      let fresh = handedOut.withLock { $0.insert(port).inserted }
      if fresh, canBind(port: port) { return port }
    }
    throw Failure(description: "no free loopback port in 20000-32767 after 1000 tries")
  }

  public struct Failure: Error, CustomStringConvertible {
    public var description: String
  }

  private static let handedOut = Mutex<Set<Int>>([])

  /// Whether 127.0.0.1:`port` can be bound right now.
  static func canBind(port: Int) -> Bool {
    withLoopbackSocket(port: port) { fd, address, length in bind(fd, address, length) == 0 } ?? false
  }

  /// Whether something accepts TCP connections on 127.0.0.1:`port` within `timeout`,
  /// giving up early once `stillStarting` says the server is gone. (Connecting to
  /// gpsfake's gpsd does not start the feed: only a WATCH does.)
  public static func waitUntilListening(
    port: Int, timeout: Double, while stillStarting: () -> Bool = { true }
  ) -> Bool {
    let deadline = Date(timeIntervalSinceNow: timeout)
    while Date() < deadline {
      if canConnect(port: port) { return true }
      guard stillStarting() else { return canConnect(port: port) }
      usleep(50_000)
    }
    return false
  }

  public static func canConnect(port: Int) -> Bool {
    withLoopbackSocket(port: port) { fd, address, length in connect(fd, address, length) == 0 } ?? false
  }

  /// Runs `body` with a new TCP socket and the address 127.0.0.1:`port`, then closes the
  /// socket. Close-on-exec: a child spawned meanwhile on another thread must not keep it
  /// (and with it, the port) open.
  private static func withLoopbackSocket<T>(
    port: Int, _ body: (Int32, UnsafePointer<sockaddr>, socklen_t) -> T
  ) -> T? {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    return withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
  }
}
