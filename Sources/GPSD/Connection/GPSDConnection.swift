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

/// One libgps session: `gps_open` makes the socket and connects, `gps_stream` sends WATCH,
/// `gps_close` ends it. The lines gpsd then sends are read here from the session's socket
/// rather than through `gps_read`: gps_read unpacks every line into `gps_data_t` (strtod,
/// strptime, a debug mask dump, about half the reader's CPU per report) only for
/// `GPSDJSONDecoder` to read the same line again, and libgps 3.22's unpacking is not used
/// for the values anyway (see the decoder). libgps keeps no bytes of its own until
/// gps_read is called, which it never is here, so every byte gpsd sends arrives here, in
/// order. Owned by one thread (the source's); not Sendable.
final class GPSDConnection {
  enum ReadOutcome {
    /// The bytes that arrived were read; complete lines were handed over. `drained`: the
    /// read took less than it asked for (or nothing), so the socket held no more then.
    case read(drained: Bool)
    case closed(GPSDConnectionError)

    var drained: Bool {
      guard case .read(let drained) = self else { return true }
      return drained
    }
  }

  private let data: UnsafeMutablePointer<gps_data_t>
  /// What arrived and is not yet handed over: at most one incomplete line, after `read`.
  private var pending: [UInt8] = []
  private var chunk: [UInt8]
  /// Bytes of a line too long to be a report, discarded up to its end.
  private var discarding = false
  private(set) var isOpen = false

  /// `maximumLine` is the longest line kept (gpsd's own limit on a report is 10240 bytes;
  /// a longer one is no report and is dropped, as gps_read's buffer of this size did).
  init(maximumLine: Int = 16_384, chunkSize: Int = 16_384) {
    precondition(maximumLine > 1 && chunkSize > 0, "a line needs room")
    self.maximumLine = maximumLine
    data = UnsafeMutablePointer<gps_data_t>.allocate(capacity: 1)
    data.initialize(to: gps_data_t())
    chunk = [UInt8](repeating: 0, count: chunkSize)
    pending.reserveCapacity(maximumLine)
  }

  private let maximumLine: Int

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
    pending.removeAll(keepingCapacity: true)
    discarding = false
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

  /// Waits up to `timeout` seconds for data. A timeout or a signal is just quiet; an error
  /// on the socket shows in the read that follows.
  func waitForData(timeout: Double) -> GPSDConnectionError? {
    guard isOpen else { return .closedByPeer }
    var descriptor = pollfd(fd: fileDescriptor, events: Int16(POLLIN), revents: 0)
    let ready = poll(&descriptor, 1, Int32(max(0, timeout) * 1_000))
    if ready >= 0 { return nil }
    let code = errno
    if code == EINTR || code == EAGAIN { return nil }
    return .readFailed(detail: Self.errorText(code))
  }

  /// Reads what has arrived without waiting and hands each complete line (without its
  /// CR LF) to `line`, in order, as a slice valid only during the call. Called when
  /// `waitForData` said there is data; nothing there yet is not an error.
  func readLines(_ line: (ArraySlice<UInt8>) -> Void) -> ReadOutcome {
    guard isOpen else { return .closed(.closedByPeer) }
    let capacity = chunk.count
    let count = chunk.withUnsafeMutableBytes { buffer in
      recv(fileDescriptor, buffer.baseAddress, capacity, Int32(MSG_DONTWAIT))
    }
    if count == 0 { return .closed(.closedByPeer) }
    if count < 0 {
      let code = errno
      if code == EAGAIN || code == EWOULDBLOCK { return .read(drained: true) }
      if code == EINTR { return .read(drained: false) }
      return .closed(.readFailed(detail: Self.errorText(code)))
    }
    split(chunk[0..<count], line)
    return .read(drained: count < capacity)
  }

  private func split(_ bytes: ArraySlice<UInt8>, _ line: (ArraySlice<UInt8>) -> Void) {
    var start = bytes.startIndex
    while let newline = Self.newline(in: bytes, from: start) {
      if discarding {
        discarding = false
      } else if pending.isEmpty {
        line(Self.trimmed(bytes[start..<newline]))
      } else {
        pending.append(contentsOf: bytes[start..<newline])
        if pending.count <= maximumLine { line(Self.trimmed(pending[...])) }
        pending.removeAll(keepingCapacity: true)
      }
      start = newline + 1
    }
    guard !discarding else { return }
    pending.append(contentsOf: bytes[start...])
    if pending.count > maximumLine {
      pending.removeAll(keepingCapacity: true)
      discarding = true
    }
  }

  /// The index of the first LF in `bytes` at or after `start`: memchr, because the generic
  /// search cost eight instructions a byte, as much as the rest of a read.
  private static func newline(in bytes: ArraySlice<UInt8>, from start: Int) -> Int? {
    bytes.withUnsafeBufferPointer { buffer -> Int? in
      let offset = start - bytes.startIndex
      guard offset < buffer.count, let base = buffer.baseAddress,
        let found = memchr(base + offset, Int32(UInt8(ascii: "\n")), buffer.count - offset)
      else { return nil }
      return bytes.startIndex + (UnsafeRawPointer(found) - UnsafeRawPointer(base))
    }
  }

  private static func trimmed(_ line: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
    line.last == UInt8(ascii: "\r") ? line.dropLast() : line
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
