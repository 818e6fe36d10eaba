import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A real TCP server on 127.0.0.1 that behaves badly on purpose, to test the HTTP client
/// against real sockets: it answers with given bytes, resets the connection, closes it
/// without a word, or says nothing at all. One connection at a time, on a thread of its own.
final class LoopbackHTTPServer: @unchecked Sendable {
  enum Behaviour: Sendable {
    /// Reads the whole request, then writes these bytes and closes.
    case answer(String)
    /// Reads the request, then closes with RST (SO_LINGER 0).
    case reset
    /// Reads the request, then closes normally without answering.
    case closeSilently
    /// Reads the request and keeps the connection open, answering nothing.
    case hang
  }

  let port: Int
  private let listener: Int32
  private let behaviour: Behaviour
  private let lock = NSLock()
  private var requests: [String] = []
  private var open: [Int32] = []
  private let finished = DispatchSemaphore(value: 0)

  /// Every request received, as text (head and body).
  var received: [String] { lock.withLock { requests } }

  init(_ behaviour: Behaviour) throws {
    self.behaviour = behaviour
    listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var yes: Int32 = 1
    setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let listener = listener
    let status = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer -> Int32 in
        guard bind(listener, pointer, length) == 0, listen(listener, 8) == 0 else { return -1 }
        return getsockname(listener, pointer, &length)
      }
    }
    guard status == 0 else { throw POSIXError(.EADDRINUSE) }
    port = Int(UInt16(bigEndian: address.sin_port))
    let thread = Thread { [self] in serve() }
    thread.start()
  }

  var url: String { "http://127.0.0.1:\(port)" }

  /// Wakes the accepting thread, waits for it to leave, and only then closes the listener:
  /// closed first, its descriptor number could be reused by the next server's socket and
  /// the old thread would accept that server's connections.
  func stop() {
    shutdown(listener, Int32(SHUT_RDWR))
    finished.wait()
    close(listener)
    lock.withLock {
      for descriptor in open { close(descriptor) }
      open = []
    }
  }

  private func serve() {
    defer { finished.signal() }
    while true {
      let connection = accept(listener, nil, nil)
      guard connection >= 0 else { return }
      let request = readRequest(connection)
      lock.withLock { requests.append(request) }
      switch behaviour {
      case .answer(let text):
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        close(connection)
      case .reset:
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        setsockopt(connection, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
        close(connection)
      case .closeSilently:
        close(connection)
      case .hang:
        lock.withLock { open.append(connection) }
      }
    }
  }

  /// Reads the head, then as many body bytes as Content-Length says.
  private func readRequest(_ connection: Int32) -> String {
    var data: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    var expectedTotal: Int?
    while expectedTotal.map({ data.count < $0 }) ?? true {
      let count = buffer.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
      guard count > 0 else { break }
      data.append(contentsOf: buffer[0..<count])
      if expectedTotal == nil, let end = headEnd(data) {
        let head = String(decoding: data[0..<end], as: UTF8.self).lowercased()
        var length = 0
        for line in head.split(separator: "\r\n") where line.hasPrefix("content-length:") {
          length = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) ?? 0
        }
        expectedTotal = end + 4 + length
      }
    }
    return String(decoding: data, as: UTF8.self)
  }

  private func headEnd(_ data: [UInt8]) -> Int? {
    guard data.count >= 4 else { return nil }
    for i in 0...(data.count - 4) where data[i] == 13 && data[i + 1] == 10 && data[i + 2] == 13 && data[i + 3] == 10 {
      return i
    }
    return nil
  }
}
