import ControlProtocol
import DashPilotCore
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// A blocking connection to the daemon's socket: one request, one answer (or a stream of
/// events). Blocking is right here: the client does one thing and waits for it.
public final class ControlClient {
  public let socketPath: String
  private let fd: Int32
  private var buffer: [UInt8] = []
  /// How much of `buffer` is known to hold no newline: an answer of many megabytes (a
  /// long shift's export) arrives in 64 KiB reads, and scanning it from the start after
  /// each one made reading it quadratic.
  private var scanned = 0
  private var nextID: Int64 = 1

  /// Connects, or explains why no daemon can be reached.
  public init(socketPath: String, timeout: TimeInterval = 30) throws(ClientFailure) {
    self.socketPath = socketPath
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { throw .failed("cannot create a socket: \(String(cString: strerror(errno)))") }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(socketPath.utf8)
    guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
      Glibc.close(fd)
      throw .failed("the socket path \(socketPath) is too long for a Unix socket")
    }
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
      for (index, byte) in bytes.enumerated() { raw[index] = byte }
    }
    let result = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    guard result == 0 else {
      let error = errno
      Glibc.close(fd)
      throw .unreachable(Self.unreachableSentence(path: socketPath, errorNumber: error))
    }
    self.fd = fd
    setTimeout(timeout)
  }

  deinit { Glibc.close(fd) }

  /// How long a read may wait; nil waits for ever (following events).
  public func setTimeout(_ seconds: TimeInterval?) {
    var value = timeval()
    if let seconds {
      value.tv_sec = Int(seconds)
      value.tv_usec = Int((seconds - Double(Int(seconds))) * 1_000_000)
    }
    _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &value, socklen_t(MemoryLayout<timeval>.size))
  }

  /// Sends one request and returns its result, or why there is none.
  public func request(_ command: ControlCommand) throws(ClientFailure) -> JSONValue {
    try answer(to: sendRequest(command))
  }

  /// Sends a request and decodes its result as `T`.
  public func request<T: Decodable>(_ command: ControlCommand, as type: T.Type) throws(ClientFailure) -> T {
    try answer(to: sendRequest(command), as: type, answering: command)
  }

  /// Sends a request whose answer may come in parts (`export`, `report`: a head, then
  /// `TrackPart`s) and returns it whole.
  public func request<T: PartedTrackAnswer>(
    _ command: ControlCommand, assembling type: T.Type
  ) throws(ClientFailure) -> T {
    let id = try sendRequest(command)
    var whole = try answer(to: id, as: type, answering: command)
    while whole.more == true {
      whole.append(try answer(to: id, as: TrackPart.self, answering: command))
    }
    return whole
  }

  private func sendRequest(_ command: ControlCommand) throws(ClientFailure) -> Int64 {
    let id = nextID
    nextID += 1
    try write(ControlRequest(id: .number(id), command: command).encodedLine())
    return id
  }

  /// The next answer to request `id` (events and other answers are passed over).
  private func answer(to id: Int64) throws(ClientFailure) -> JSONValue {
    while true {
      guard let line = try readLine() else { throw Self.closedBeforeAnswering }
      if let result = try answer(to: id, in: line) { return result }
    }
  }

  /// The next answer to request `id` as `T`, read straight from its line (`TypedAnswer`);
  /// a line of another shape goes the way of any other.
  private func answer<T: Decodable>(
    to id: Int64, as type: T.Type, answering command: ControlCommand
  ) throws(ClientFailure) -> T {
    while true {
      guard let line = try readLine() else { throw Self.closedBeforeAnswering }
      switch TypedAnswer.parse(line, as: type) {
      case .some(nil):
        continue
      case .some(let (answerID, outcome)?):
        if let answerID, answerID != .number(id) { continue }
        switch outcome {
        case .success(let result): return result
        case .failure(let error): throw .refused(error)
        }
      case nil:
        if let result = try answer(to: id, in: line) { return try decode(type, result, answering: command) }
      }
    }
  }

  /// `line`'s result when it answers request `id`; nil for an event or another answer.
  private func answer(to id: Int64, in line: Data) throws(ClientFailure) -> JSONValue? {
    switch ServerLine.parse(line) {
    case .failure(let error): throw .failed("dashpilotd wrote an unreadable line: \(error.message)")
    case .success(.event): return nil
    case .success(.answer(let answerID, let outcome)):
      if let answerID, answerID != .number(id) { return nil }
      switch outcome {
      case .success(let result): return result
      case .failure(let error): throw .refused(error)
      }
    }
  }

  private static let closedBeforeAnswering = ClientFailure.unreachable(
    "dashpilotd closed the connection before answering (it may be stopping)")

  private func decode<T: Decodable>(
    _ type: T.Type, _ result: JSONValue, answering command: ControlCommand
  ) throws(ClientFailure) -> T {
    switch ServerLine.decode(type, from: result) {
    case .success(let value): return value
    case .failure(let error):
      throw .failed("dashpilotd's answer to \(command.name) was unreadable: \(error.message)")
    }
  }

  /// The next line the daemon writes; nil at end of stream.
  public func readServerLine() throws(ClientFailure) -> ServerLine? {
    guard let line = try readLine() else { return nil }
    switch ServerLine.parse(line) {
    case .success(let parsed): return parsed
    case .failure(let error): throw .failed("dashpilotd wrote an unreadable line: \(error.message)")
    }
  }

  private func readLine() throws(ClientFailure) -> Data? {
    while true {
      if let newline = buffer[scanned...].firstIndex(of: 0x0A) {
        let line = Data(buffer[..<newline])
        buffer.removeFirst(newline + 1)
        scanned = 0
        return line
      }
      scanned = buffer.count
      var chunk = [UInt8](repeating: 0, count: 65_536)
      let count = recv(fd, &chunk, chunk.count, 0)
      if count < 0 {
        if errno == EINTR { continue }
        if errno == EAGAIN || errno == EWOULDBLOCK {
          throw .unreachable(
            "dashpilotd did not answer in time on \(socketPath); it may be stuck (see journalctl -u dashpilotd)")
        }
        throw .unreachable("reading from dashpilotd failed: \(String(cString: strerror(errno)))")
      }
      if count == 0 { return nil }
      buffer.append(contentsOf: chunk[0..<count])
    }
  }

  private func write(_ data: Data) throws(ClientFailure) {
    let bytes = [UInt8](data)
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeBytes {
        send(fd, $0.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
      }
      if written < 0 {
        if errno == EINTR { continue }
        throw .unreachable("writing to dashpilotd failed: \(String(cString: strerror(errno)))")
      }
      offset += written
    }
  }

  /// The sentence for a failed connect: how to start the daemon, or which group to join.
  static func unreachableSentence(path: String, errorNumber: Int32) -> String {
    switch errorNumber {
    case ENOENT:
      return
        "dashpilotd is not running: there is no control socket at \(path). Start it with `sudo systemctl start dashpilotd`, or pass --socket PATH for a daemon you started yourself."
    case ECONNREFUSED:
      return
        "dashpilotd is not running: nothing answers on \(path) (a socket left by a daemon that stopped). Start it with `sudo systemctl start dashpilotd`."
    case EACCES, EPERM:
      let group = owningGroup(of: path)
      let join =
        group.map { "join the group \($0) (`sudo usermod -aG \($0) $USER`, then log in again)" }
        ?? "join the group that owns it"
      return "You may not open dashpilotd's socket \(path): \(join), or run the command with sudo."
    default:
      return
        "cannot reach dashpilotd at \(path): \(String(cString: strerror(errorNumber))). Start it with `sudo systemctl start dashpilotd`."
    }
  }

  /// The group of the socket, or of the nearest directory above it that can be seen
  /// (a 0750 runtime directory hides the socket itself from outsiders).
  static func owningGroup(of path: String) -> String? {
    var candidate = URL(fileURLWithPath: path)
    while candidate.path != "/" {
      var status = stat()
      if stat(candidate.path, &status) == 0 { return groupName(status.st_gid) }
      candidate.deleteLastPathComponent()
    }
    return nil
  }

  private static func groupName(_ gid: gid_t) -> String? {
    var entry = group()
    var result: UnsafeMutablePointer<group>?
    var storage = [CChar](repeating: 0, count: 16384)
    guard getgrgid_r(gid, &entry, &storage, storage.count, &result) == 0, result != nil, let name = entry.gr_name else {
      return nil
    }
    return String(cString: name)
  }
}
