import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A raw client of the control socket: bytes in, lines out, with timeouts, so tests can
/// send what no well-behaved client would.
public final class RawSocketClient {
  public let fd: Int32
  private var buffer: [UInt8] = []

  public init(path: String) throws {
    fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
      for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
    }
    let result = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    guard result == 0 else {
      let error = errno
      close(fd)
      throw DaemonBinaries.Missing(description: "cannot connect to \(path): \(String(cString: strerror(error)))")
    }
  }

  deinit { close(fd) }

  /// Writes every byte (blocking); false when the daemon closed the connection.
  @discardableResult
  public func send(_ text: String) -> Bool { send(Array(text.utf8)) }

  @discardableResult
  public func send(_ bytes: [UInt8]) -> Bool {
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeBytes {
        Glibc.send(fd, $0.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
      }
      if written < 0 && errno == EINTR { continue }
      if written <= 0 { return false }
      offset += written
    }
    return true
  }

  /// The next line (without its newline); nil at end of stream or after `timeout`.
  public func readLine(timeout: TimeInterval = 10) -> String? {
    let deadline = Date().addingTimeInterval(timeout)
    while true {
      if let newline = buffer.firstIndex(of: 0x0A) {
        let line = String(decoding: buffer[..<newline], as: UTF8.self)
        buffer.removeFirst(newline + 1)
        return line
      }
      let remaining = deadline.timeIntervalSinceNow
      guard remaining > 0 else { return nil }
      var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
      guard poll(&descriptor, 1, Int32(remaining * 1000) + 1) > 0 else { return nil }
      var chunk = [UInt8](repeating: 0, count: 65_536)
      let count = recv(fd, &chunk, chunk.count, 0)
      if count <= 0 { return nil }
      buffer.append(contentsOf: chunk[0..<count])
    }
  }

  /// Whether the daemon has closed the connection (end of stream within `timeout`).
  public func isClosedByPeer(timeout: TimeInterval = 10) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while deadline.timeIntervalSinceNow > 0 {
      var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
      guard poll(&descriptor, 1, Int32(deadline.timeIntervalSinceNow * 1000) + 1) > 0 else { return false }
      var chunk = [UInt8](repeating: 0, count: 65_536)
      let count = recv(fd, &chunk, chunk.count, 0)
      if count == 0 { return true }
      if count < 0 { return errno == ECONNRESET }
      buffer.append(contentsOf: chunk[0..<count])
    }
    return false
  }

  /// Sends one request line and returns the answer line parsed as a JSON object.
  public func ask(_ line: String, timeout: TimeInterval = 10) -> [String: Any]? {
    guard send(line + "\n"), let answer = readLine(timeout: timeout) else { return nil }
    return (try? JSONSerialization.jsonObject(with: Data(answer.utf8))) as? [String: Any]
  }
}
