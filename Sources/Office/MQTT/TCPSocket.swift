import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// A TCP connection to the broker: resolved with getaddrinfo, connected with a timeout,
/// Nagle off (a worker's acknowledgements are small and should leave at once).
final class TCPSocket: @unchecked Sendable {
  // @unchecked: the descriptor is read by one thread and written under `MQTTConnection`'s lock.
  let descriptor: Int32

  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  init(host: String, port: Int, timeout: Double) throws(Failure) {
    var hints = addrinfo()
    hints.ai_family = AF_UNSPEC
    hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
    var found: UnsafeMutablePointer<addrinfo>?
    let status = getaddrinfo(host, String(port), &hints, &found)
    guard status == 0, let first = found else {
      throw Failure(description: "cannot resolve \(host): \(String(cString: gai_strerror(status)))")
    }
    defer { freeaddrinfo(first) }
    var reason = "no address"
    var entry: UnsafeMutablePointer<addrinfo>? = first
    while let address = entry {
      entry = address.pointee.ai_next
      let fd = socket(address.pointee.ai_family, address.pointee.ai_socktype | Int32(SOCK_CLOEXEC.rawValue), 0)
      guard fd >= 0 else { continue }
      if Self.connect(fd, address.pointee.ai_addr, address.pointee.ai_addrlen, timeout: timeout, reason: &reason) {
        var on: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
        descriptor = fd
        return
      }
      Glibc.close(fd)
    }
    throw Failure(description: "cannot connect to \(host):\(port): \(reason)")
  }

  private static func connect(
    _ fd: Int32, _ address: UnsafeMutablePointer<sockaddr>, _ length: socklen_t, timeout: Double,
    reason: inout String
  ) -> Bool {
    let flags = fcntl(fd, F_GETFL)
    _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
    defer { _ = fcntl(fd, F_SETFL, flags) }
    if Glibc.connect(fd, address, length) == 0 { return true }
    guard errno == EINPROGRESS else {
      reason = String(cString: strerror(errno))
      return false
    }
    var poller = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
    guard poll(&poller, 1, Int32(timeout * 1000)) == 1 else {
      reason = "no answer within \(Int(timeout)) s"
      return false
    }
    var error: Int32 = 0
    var size = socklen_t(MemoryLayout<Int32>.size)
    getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &size)
    guard error == 0 else {
      reason = String(cString: strerror(error))
      return false
    }
    return true
  }

  /// Writes all of `bytes`; false when the connection is gone.
  func write(_ bytes: [UInt8]) -> Bool {
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeBytes { buffer in
        send(descriptor, buffer.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
      }
      if written < 0, errno == EINTR { continue }
      guard written > 0 else { return false }
      offset += written
    }
    return true
  }

  /// Waits up to `timeout` seconds for bytes and reads what is there: nil on timeout, an
  /// empty buffer when the broker closed the connection (or it broke).
  func read(into buffer: UnsafeMutableRawBufferPointer, timeout: Double) -> Int? {
    var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
    let ready = poll(&poller, 1, Int32(timeout * 1000))
    if ready == 0 || (ready < 0 && errno == EINTR) { return nil }
    guard ready > 0 else { return 0 }
    let count = recv(descriptor, buffer.baseAddress, buffer.count, 0)
    if count < 0, errno == EINTR || errno == EAGAIN { return nil }
    return max(0, count)
  }

  /// Ends the connection for both directions (a thread blocked reading it wakes up).
  func shutDown() { _ = Glibc.shutdown(descriptor, Int32(SHUT_RDWR)) }

  deinit { Glibc.close(descriptor) }
}
