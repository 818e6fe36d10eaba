import ControlProtocol
import DashPilotCore
import FoundationEssentials
import PlatformSupport

#if canImport(Glibc)
  import Glibc
#endif

/// Serves the control socket on the event loop: accepts without blocking, reads lines,
/// parses them with `RequestParser`, checks who may change state, and hands each checked
/// request to `route` in the order it arrived. One slow or silent client never stalls
/// another: every socket is non-blocking and every buffer bounded.
public final class ControlServer {
  public typealias Route = (ControlRequest, Responder) -> Void

  private let listener: ListeningSocket
  let loop: EventLoop
  let limits: ControlServerLimits
  private let policy: AccessPolicy
  private let logger: any Logger
  private let route: Route
  private var connections: [Int32: ClientConnection] = [:]
  private var nextConnectionNumber = 1
  private static let readChunk = 64 * 1024

  public init(
    listener: ListeningSocket, loop: EventLoop, limits: ControlServerLimits, policy: AccessPolicy,
    logger: any Logger, route: @escaping Route
  ) {
    self.listener = listener
    self.loop = loop
    self.limits = limits
    self.policy = policy
    self.logger = logger
    self.route = route
  }

  public var clientCount: Int { connections.count }

  /// Starts accepting; the idle check runs a few times per timeout.
  public func start() {
    loop.watch(listener.fd, events: Int16(POLLIN)) { [unowned self] _ in acceptClients() }
    loop.every(min(1, max(0.05, limits.idleTimeout / 4))) { [unowned self] in closeIdleClients() }
  }

  /// Writes an event line to every follower.
  public func publish(_ event: ControlEvent) {
    let line = event.encodedLine
    for connection in connections.values where connection.isFollowing && connection.isOpen {
      if connection.pendingOutputCount + line.count > limits.maximumFollowerBacklog {
        logger.warning("dropping an events follower (pid \(connection.peer.pid)) that stopped reading")
        close(connection)
        continue
      }
      send(line, to: connection)
    }
  }

  /// Stops accepting, gives followers and pending answers a moment to be written, and
  /// closes everything.
  public func shutDown(flushFor seconds: TimeInterval = 0.5) {
    loop.unwatch(listener.fd)
    let deadline = loop.clock.monotonic() + seconds
    while loop.clock.monotonic() < deadline {
      let waiting = connections.values.filter { $0.pendingOutputCount > 0 }
      guard !waiting.isEmpty else { break }
      var descriptors = waiting.map { pollfd(fd: $0.fd, events: Int16(POLLOUT), revents: 0) }
      _ = poll(&descriptors, nfds_t(descriptors.count), 50)
      for connection in waiting { flush(connection) }
    }
    for connection in Array(connections.values) { close(connection) }
    listener.close()
  }

  // MARK: - Accepting

  private func acceptClients() {
    while true {
      // accept4 is hidden by Glibc's module; set the flags straight after accept.
      let fd = accept(listener.fd, nil, nil)
      guard fd >= 0 else {
        if errno == EINTR || errno == ECONNABORTED { continue }
        if errno != EAGAIN && errno != EWOULDBLOCK {
          logger.warning("accepting a control connection failed: \(String(cString: strerror(errno)))")
        }
        return
      }
      _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
      _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
      guard let peer = PeerCredentials.of(fd) else {
        Glibc.close(fd)
        continue
      }
      let connection = ClientConnection(fd: fd, number: nextConnectionNumber, peer: peer, now: loop.clock.monotonic())
      nextConnectionNumber += 1
      connections[fd] = connection
      loop.watch(fd, events: Int16(POLLIN)) { [unowned self] events in handleEvents(events, on: connection) }
      if connections.count > limits.maximumClients {
        refuse(
          connection, id: nil,
          ControlError(.busy, "the daemon already serves \(limits.maximumClients) clients; try again shortly"))
      }
    }
  }

  // MARK: - Reading

  private func handleEvents(_ events: Int16, on connection: ClientConnection) {
    guard connection.isOpen else { return }
    if events & Int16(POLLOUT) != 0 { flush(connection) }
    guard connection.isOpen else { return }
    if events & Int16(POLLIN | POLLHUP | POLLERR) != 0, !connection.peerClosedInput, !connection.closeWhenFlushed {
      readAvailable(connection)
    } else if events & Int16(POLLHUP | POLLERR) != 0 {
      close(connection)
    }
  }

  private func readAvailable(_ connection: ClientConnection) {
    var buffer = [UInt8](repeating: 0, count: Self.readChunk)
    let count = recv(connection.fd, &buffer, buffer.count, 0)
    if count < 0 {
      if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return }
      close(connection)
      return
    }
    if count == 0 {
      connection.peerClosedInput = true
      finishIfDone(connection)
      return
    }
    connection.input.append(contentsOf: buffer[0..<count])
    processLines(connection)
  }

  private func processLines(_ connection: ClientConnection) {
    var start = 0
    while connection.isOpen, !connection.closeWhenFlushed,
      let newline = connection.input[start...].firstIndex(of: 0x0A)
    {
      let line = connection.input[start..<newline]
      start = newline + 1
      connection.lastRequestAt = loop.clock.monotonic()
      if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { continue }
      handleLine(line, on: connection)
    }
    connection.input.removeFirst(min(start, connection.input.count))
    if connection.input.count > ControlProtocolLimits.maximumLineLength, !connection.closeWhenFlushed {
      refuse(
        connection, id: nil,
        ControlError(
          .lineTooLong,
          "a request line passed the limit of \(ControlProtocolLimits.maximumLineLength) bytes; closing the connection")
      )
    }
  }

  private func handleLine(_ line: ArraySlice<UInt8>, on connection: ClientConnection) {
    switch RequestParser.parse(line) {
    case .failure(let failure):
      send(ControlResponse.failure(id: failure.id, error: failure.error), to: connection)
    case .success(let request):
      if request.command.kind.changesState && !mayChangeState(connection) {
        let error = ControlError(
          .permissionDenied,
          "\(request.command.name) changes what the daemon records; only root, the daemon's user and members of the socket group (\(groupDescription)) may do that"
        )
        logger.notice(
          "refused \(request.command.name) from uid \(connection.peer.uid) (pid \(connection.peer.pid)): not in the socket group",
          fields: LogFields(reason: "permission_denied"))
        send(ControlResponse.failure(id: request.id, error: error), to: connection)
        return
      }
      guard let assembled = assemble(request, on: connection) else { return }
      let channel = ConnectionChannel(requestID: assembled.id, connection: connection, server: self)
      route(assembled, Responder(channel: channel, conversation: connection.number))
    }
  }

  private var groupDescription: String {
    GroupDatabase.groupName(policy.socketGID).map { "group \($0)" } ?? "gid \(policy.socketGID)"
  }

  private func mayChangeState(_ connection: ClientConnection) -> Bool {
    if let cached = connection.mayChangeState { return cached }
    let allowed = policy.mayChangeState(connection.peer)
    connection.mayChangeState = allowed
    return allowed
  }

  /// Collects the parts of a multi-part import, route load, report or job list; returns the request to
  /// route once the last part has arrived, nil after acknowledging an earlier part.
  private func assemble(_ request: ControlRequest, on connection: ClientConnection) -> ControlRequest? {
    switch request.command {
    case .import(let part): assemble(part, of: request, into: \.pendingImport, on: connection)
    case .routeLoad(let part): assemble(part, of: request, into: \.pendingRoute, on: connection)
    case .report(let part): assemble(part, of: request, into: \.pendingReport, on: connection)
    case .jobAssignAll(let part): assemble(part, of: request, into: \.pendingJobs, on: connection)
    default: request
    }
  }

  private func assemble<Arguments: MultiPartArguments>(
    _ part: Arguments, of request: ControlRequest, into pending: ReferenceWritableKeyPath<ClientConnection, Arguments?>,
    on connection: ClientConnection
  ) -> ControlRequest? {
    let command = request.command.name
    func refuse(_ message: String) -> ControlRequest? {
      connection[keyPath: pending] = nil
      send(
        ControlResponse.failure(id: request.id, error: ControlError(.badArguments, "\(command): \(message)")),
        to: connection)
      return nil
    }
    let sofar = connection[keyPath: pending]
    if let sofar, let mismatch = sofar.mismatch(with: part) { return refuse(mismatch) }
    let whole = sofar?.appending(part) ?? part
    let limit = min(limits.maximumAssembledPoints, Arguments.maximumElements ?? .max)
    guard whole.elements.count <= limit else { return refuse("more than \(limit) \(Arguments.elementsName)") }
    guard !whole.more else {
      connection[keyPath: pending] = whole
      send(
        ControlResponse.success(id: request.id, result: PartAccepted(received: whole.elements.count)), to: connection)
      return nil
    }
    connection[keyPath: pending] = nil
    return ControlRequest(id: request.id, command: whole.command, expiresAt: request.expiresAt)
  }

  private func refuse(_ connection: ClientConnection, id: RequestID?, _ error: ControlError) {
    connection.closeWhenFlushed = true
    connection.input.removeAll()
    send(ControlResponse.failure(id: id, error: error), to: connection)
    finishIfDone(connection)
  }

  private func closeIdleClients() {
    let now = loop.clock.monotonic()
    for connection in Array(connections.values) where connection.isOpen {
      finishIfDone(connection)
      if connection.isOpen, connection.whenDrained != nil, now - connection.lastWrittenAt >= limits.idleTimeout {
        logger.notice(
          "closing a control connection (pid \(connection.peer.pid)) that read none of its answer for \(FixedDecimal.shortest(limits.idleTimeout)) s"
        )
        close(connection)
        continue
      }
      guard connection.isOpen, !connection.isFollowing, connection.outstandingAnswers == 0,
        !connection.closeWhenFlushed, now - connection.lastRequestAt >= limits.idleTimeout
      else { continue }
      refuse(
        connection, id: nil,
        ControlError(
          .idleTimeout, "no request for \(FixedDecimal.shortest(limits.idleTimeout)) s; closing the connection"))
    }
  }

  func close(_ connection: ClientConnection) {
    guard connection.isOpen else { return }
    connection.isOpen = false
    connection.whenDrained = nil
    loop.unwatch(connection.fd)
    connections[connection.fd] = nil
    Glibc.close(connection.fd)
  }
}
