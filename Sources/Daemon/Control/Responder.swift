import ControlProtocol
import FoundationEssentials

/// The way a request is answered: now, or later (a component that has to wait for a
/// thread of its own keeps the responder, posts back to the loop and answers there).
/// Use it on the loop thread only; to carry it across a thread, wrap it with
/// `DaemonContext.bind`. Answering twice is ignored; an answer to a client that has gone
/// is dropped.
public final class Responder {
  public let requestID: Int64
  public let peer: PeerCredentials
  /// Identifies the connection, for components that keep per-client state.
  public let connectionNumber: Int
  private weak var connection: ClientConnection?
  private weak var server: ControlServer?
  public private(set) var isAnswered = false

  init(requestID: Int64, connection: ClientConnection, server: ControlServer) {
    self.requestID = requestID
    self.peer = connection.peer
    self.connectionNumber = connection.number
    self.connection = connection
    self.server = server
    connection.outstandingAnswers += 1
  }

  public func succeed<Result: Encodable>(_ result: Result) {
    answer(ControlResponse.success(id: requestID, result: result))
  }

  public func fail(_ error: ControlError) {
    answer(ControlResponse.failure(id: requestID, error: error))
  }

  public func fail(_ code: ControlError.Code, _ message: String) {
    fail(ControlError(code, message))
  }

  /// Confirms the request and turns the connection into a follower of `events`.
  func follow(_ result: Acknowledgement) {
    guard !isAnswered, let connection else { return }
    connection.isFollowing = true
    succeed(result)
  }

  private func answer(_ line: Data) {
    guard !isAnswered else { return }
    isAnswered = true
    guard let connection, connection.isOpen, let server else { return }
    connection.outstandingAnswers -= 1
    server.send(line, to: connection)
  }
}
