import CGPS
import Glibc

/// Why a connection to gpsd ended or could not be made; `description` is the sentence the
/// journal gets.
public enum GPSDConnectionError: Error, Sendable, Hashable, CustomStringConvertible {
  case openFailed(endpoint: GPSDEndpoint, detail: String)
  case watchFailed(detail: String)
  case closedByPeer
  case readFailed(detail: String)

  public var description: String {
    switch self {
    case let .openFailed(endpoint, detail): "cannot connect to gpsd at \(endpoint): \(detail)"
    case let .watchFailed(detail): "gpsd refused the WATCH request: \(detail)"
    case .closedByPeer: "gpsd closed the connection"
    case let .readFailed(detail): "reading from gpsd failed: \(detail)"
    }
  }
}

/// One libgps connection: libgps provides the socket and the line framing, and hands each
/// raw JSON line back through `gps_read`'s message buffer, which `GPSDJSONDecoder` turns
/// into values. Owned by one thread (the source's); not Sendable.
final class GPSDConnection {
  enum ReadOutcome {
    case line(String)
    /// No complete line yet.
    case nothing
    case closed(GPSDConnectionError)
  }

  private let data: UnsafeMutablePointer<gps_data_t>
  private var message: [CChar]
  private(set) var isOpen = false

  init(messageCapacity: Int = 16_384) {
    precondition(messageCapacity > 1, "gps_read needs room for a line")
    data = UnsafeMutablePointer<gps_data_t>.allocate(capacity: 1)
    data.initialize(to: gps_data_t())
    message = [CChar](repeating: 0, count: messageCapacity)
  }

  deinit {
    close()
    data.deinitialize(count: 1)
    data.deallocate()
  }

  /// The socket, so another thread can shut it down to unblock a read when stopping.
  var fileDescriptor: Int32 { isOpen ? Int32(data.pointee.gps_fd) : -1 }

  func open(_ endpoint: GPSDEndpoint) throws(GPSDConnectionError) {
    close()
    data.pointee = gps_data_t()
    errno = 0
    let status = gps_open(endpoint.host, String(endpoint.port), data)
    guard status == 0 else {
      throw .openFailed(endpoint: endpoint, detail: Self.errorText(errno))
    }
    isOpen = true
    errno = 0
    guard gps_stream(data, UInt32(WATCH_ENABLE | WATCH_JSON), nil) == 0 else {
      let detail = Self.errorText(errno)
      close()
      throw .watchFailed(detail: detail)
    }
  }

  /// Waits up to `timeout` seconds for data. gps_waiting answers false both on timeout
  /// and on error, so errno is cleared first and looked at after: an error is a lost
  /// connection, a timeout is just quiet.
  func waitForData(timeout: Double) -> GPSDConnectionError? {
    guard isOpen else { return .closedByPeer }
    errno = 0
    if gps_waiting(data, Int32(max(0, timeout) * 1_000_000)) { return nil }
    let code = errno
    if code == 0 || code == EINTR || code == EAGAIN { return nil }
    return .readFailed(detail: Self.errorText(code))
  }

  /// Reads one line. `set` is cleared first (libgps 3.22 leaves old bits set otherwise).
  /// A -1 from gps_read with a line in the buffer is libgps failing to unpack a line we
  /// decode ourselves (a DEVICE with `"activated":0`), not a lost connection.
  func readLine() -> ReadOutcome {
    guard isOpen else { return .closed(.closedByPeer) }
    data.pointee.set = 0
    message[0] = 0
    errno = 0
    let capacity = Int32(message.count)
    let status = message.withUnsafeMutableBufferPointer { buffer in
      gps_read(data, buffer.baseAddress, capacity)
    }
    let code = errno
    let line = String(
      decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    if !line.isEmpty { return .line(line) }
    if status < 0 {
      return .closed(code == 0 ? .closedByPeer : .readFailed(detail: Self.errorText(code)))
    }
    return .nothing
  }

  /// Unblocks a read in progress on another thread; the owner then sees the connection
  /// closed. Safe to call from any thread: it only touches the descriptor.
  static func shutdown(fileDescriptor: Int32) {
    if fileDescriptor >= 0 { _ = Glibc.shutdown(fileDescriptor, Int32(SHUT_RDWR)) }
  }

  func close() {
    guard isOpen else { return }
    _ = gps_close(data)
    isOpen = false
  }

  static func errorText(_ code: Int32) -> String {
    if code == 0 { return "connection refused or host not found" }
    guard let text = gps_errstr(code) else { return "error \(code)" }
    return String(cString: text)
  }
}
