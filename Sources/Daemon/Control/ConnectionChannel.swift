import ControlProtocol
import FoundationEssentials

/// The answer to one request read from a control socket connection, written back on it
/// with the request's id. An answer to a client that has gone is dropped.
final class ConnectionChannel: ResponseChannel {
  private let requestID: RequestID
  private weak var connection: ClientConnection?
  private weak var server: ControlServer?

  init(requestID: RequestID, connection: ClientConnection, server: ControlServer) {
    self.requestID = requestID
    self.connection = connection
    self.server = server
    connection.outstandingAnswers += 1
  }

  func deliver(_ answer: ControlAnswer) {
    guard let connection, connection.isOpen, let server else { return }
    connection.outstandingAnswers -= 1
    switch answer {
    case .success(let result): server.send(ControlResponse.success(id: requestID, result: result), to: connection)
    case .failure(let error): server.send(ControlResponse.failure(id: requestID, error: error), to: connection)
    }
  }

  func deliverPart(_ part: EncodedResult, more: Bool, whenReady: @escaping () -> Void) {
    guard let connection, connection.isOpen, let server else { return }
    if !more { connection.outstandingAnswers -= 1 }
    server.send(ControlResponse.success(id: requestID, result: part), to: connection)
    if more { server.whenDrained(connection, whenReady) }
  }

  func startFollowing() -> Bool {
    connection?.isFollowing = true
    return true
  }
}
