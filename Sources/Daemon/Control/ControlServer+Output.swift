import ControlProtocol
import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

// Writing to clients: every socket is non-blocking, so what the kernel does not take now
// waits in the connection's bounded buffer until poll says it may be written.
extension ControlServer {
  func send(_ line: Data, to connection: ClientConnection) {
    guard connection.isOpen else { return }
    if connection.outputStart > 0 && connection.outputStart == connection.output.count {
      connection.output.removeAll(keepingCapacity: true)
      connection.outputStart = 0
    }
    connection.output.append(contentsOf: line)
    flush(connection)
  }

  func flush(_ connection: ClientConnection) {
    while connection.isOpen && connection.pendingOutputCount > 0 {
      let written = connection.output.withUnsafeBytes { bytes in
        Glibc.send(
          connection.fd, bytes.baseAddress! + connection.outputStart, connection.pendingOutputCount, Int32(MSG_NOSIGNAL)
        )
      }
      if written < 0 {
        if errno == EINTR { continue }
        if errno == EAGAIN || errno == EWOULDBLOCK { break }
        close(connection)
        return
      }
      connection.outputStart += written
      if written > 0 { connection.lastWrittenAt = loop.clock.monotonic() }
    }
    guard connection.isOpen else { return }
    if connection.whenDrained != nil, connection.pendingOutputCount <= limits.maximumPartBacklog {
      let next = connection.whenDrained
      connection.whenDrained = nil
      next?()
    }
    if connection.pendingOutputCount == 0 {
      connection.output.removeAll(keepingCapacity: connection.output.count < 65_536)
      connection.outputStart = 0
      loop.setEvents(connection.fd, connection.closeWhenFlushed || connection.peerClosedInput ? 0 : Int16(POLLIN))
      finishIfDone(connection)
    } else {
      let readMore =
        !connection.closeWhenFlushed && !connection.peerClosedInput
        && connection.pendingOutputCount <= limits.maximumPendingAnswers
      loop.setEvents(connection.fd, Int16(POLLOUT) | (readMore ? Int16(POLLIN) : 0))
    }
  }

  /// Calls `next` once `connection`'s unread output is small enough for another part of an
  /// answer in parts: now, or when a flush has brought it down.
  func whenDrained(_ connection: ClientConnection, _ next: @escaping () -> Void) {
    guard connection.isOpen else { return }
    if connection.pendingOutputCount <= limits.maximumPartBacklog {
      next()
    } else {
      connection.whenDrained = next
    }
  }

  /// Closes a connection whose work is over: told to close, or the client finished
  /// sending and every answer has been written.
  func finishIfDone(_ connection: ClientConnection) {
    guard connection.isOpen, connection.pendingOutputCount == 0 else { return }
    if connection.closeWhenFlushed
      || (connection.peerClosedInput && (connection.outstandingAnswers == 0 || connection.isFollowing))
    {
      close(connection)
    }
  }
}
