import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A TCP relay on loopback that holds every connection for `delay` seconds before passing
/// bytes on to `targetPort`: a real routing engine behind a slow link, so a test can have a
/// reroute still in flight when the car rejoins its route. Everything else (the request, the
/// engine, the answer) is the real thing.
public final class GuidanceSlowLink: @unchecked Sendable {
  public let port: Int
  public let targetPort: Int
  public let delay: TimeInterval
  private let listener: Int32
  private let lock = NSLock()
  private var stopped = false

  public init(targetPort: Int, delay: TimeInterval) throws {
    self.targetPort = targetPort
    self.delay = delay
    let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    self.listener = listener
    var reuse: Int32 = 1
    setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
    var address = Self.loopback(port: 0)
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer -> Int32 in
        guard bind(listener, pointer, length) == 0, listen(listener, 16) == 0 else { return -1 }
        return getsockname(listener, pointer, &length)
      }
    }
    guard bound == 0 else {
      close(listener)
      throw RoutingEngineServer.StartError(description: "slow link: cannot listen: \(String(cString: strerror(errno)))")
    }
    port = Int(UInt16(bigEndian: address.sin_port))
    let thread = Thread { [self] in acceptLoop() }
    thread.name = "slow-link"
    thread.start()
  }

  public var baseURL: String { "http://127.0.0.1:\(port)" }

  public func stop() {
    lock.withLock { stopped = true }
    shutdown(listener, Int32(SHUT_RDWR))
  }

  deinit { stop() }

  private var isStopped: Bool { lock.withLock { stopped } }

  private func acceptLoop() {
    while !isStopped {
      let client = accept(listener, nil, nil)
      if client < 0 {
        if errno == EINTR { continue }
        break
      }
      let thread = Thread { [self] in relay(client) }
      thread.start()
    }
    close(listener)
  }

  private func relay(_ client: Int32) {
    defer { close(client) }
    usleep(useconds_t(delay * 1_000_000))
    let upstream = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    defer { close(upstream) }
    var address = Self.loopback(port: targetPort)
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(upstream, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard connected == 0 else { return }
    var descriptors = [
      pollfd(fd: client, events: Int16(POLLIN), revents: 0), pollfd(fd: upstream, events: Int16(POLLIN), revents: 0),
    ]
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while !isStopped {
      guard poll(&descriptors, 2, 200) >= 0 else { return }
      for index in 0..<2 where descriptors[index].revents != 0 {
        let from = descriptors[index].fd
        let to = descriptors[1 - index].fd
        let count = recv(from, &buffer, buffer.count, 0)
        if count <= 0 { return }
        var offset = 0
        while offset < count {
          let written = buffer.withUnsafeBytes {
            send(to, $0.baseAddress! + offset, count - offset, Int32(MSG_NOSIGNAL))
          }
          if written <= 0 { return }
          offset += written
        }
      }
    }
  }

  private static func loopback(port: Int) -> sockaddr_in {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    return address
  }
}
