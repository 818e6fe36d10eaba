import ControlProtocol
import FoundationEssentials

/// The way a request is answered: now, or later (a component that has to wait for a
/// thread of its own keeps the responder, posts back to the loop and answers there).
/// Where the answer goes is the channel's business: a socket connection, or any other
/// carrier of the same requests (the dispatcher does not know which). Use it on the loop
/// thread only; to carry it across a thread, wrap it with `DaemonContext.bind`. Answering
/// twice is ignored.
public final class Responder {
  /// Identifies the conversation the request is part of (a socket connection's number).
  /// Multi-part requests are joined before they reach a responder (ControlServer).
  public let conversation: Int
  private let channel: any ResponseChannel
  public private(set) var isAnswered = false

  public init(channel: any ResponseChannel, conversation: Int) {
    self.channel = channel
    self.conversation = conversation
  }

  public func succeed<Result: Encodable>(_ result: Result) {
    answer(.success(result))
  }

  public func fail(_ error: ControlError) {
    answer(.failure(error))
  }

  public func fail(_ code: ControlError.Code, _ message: String) {
    fail(ControlError(code, message))
  }

  /// Answers in parts (`TrackPart`): `part` now, and while `more` is true, `next` on the loop
  /// once the channel has room for another part, which is then given the same way. `next`
  /// is never called when the channel has gone (a client that hung up): the parts are
  /// dropped with it. A failure given between parts ends the answer.
  public func succeedPart(_ part: EncodedResult, more: Bool, next: @escaping () -> Void) {
    guard !isAnswered else { return }
    isAnswered = !more
    channel.deliverPart(part, more: more, whenReady: next)
  }

  /// Confirms an `events` request and turns the channel into a follower, when it can be one.
  func follow(_ result: Acknowledgement) {
    guard !isAnswered else { return }
    guard channel.startFollowing() else {
      fail(.badRequest, "events can only be followed on the control socket")
      return
    }
    succeed(result)
  }

  private func answer(_ answer: ControlAnswer) {
    guard !isAnswered else { return }
    isAnswered = true
    channel.deliver(answer)
  }
}

/// One answer: a result of the command's own type, or an error.
public enum ControlAnswer {
  case success(any Encodable)
  case failure(ControlError)
}

/// Where the answers to a request go. Loop thread only.
public protocol ResponseChannel: AnyObject {
  /// The request's one answer (a `Responder` never delivers a second).
  func deliver(_ answer: ControlAnswer)
  /// Makes the channel a follower of `events` before its answer is delivered; false when it
  /// cannot be one.
  func startFollowing() -> Bool
  /// One part of an answer in parts, `more` false on the last; `whenReady` is called on the
  /// loop once another part may be given (never, once the channel has gone).
  func deliverPart(_ part: EncodedResult, more: Bool, whenReady: @escaping () -> Void)
}

extension ResponseChannel {
  /// A channel that carries one line per answer (the fleet's reply topic) takes no parts.
  public func deliverPart(_ part: EncodedResult, more: Bool, whenReady: @escaping () -> Void) {
    deliver(.failure(ControlError(.failed, "this answer comes in parts, which only the control socket carries")))
  }
}
