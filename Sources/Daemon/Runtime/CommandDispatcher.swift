import ControlProtocol
import FoundationEssentials

/// Hands each checked request to whoever answers it: `status` and `events` here, every
/// other command to the component that claims its kind. The control socket calls it for every
/// request it reads; another carrier of the same requests calls it through
/// `DaemonContext.dispatch` with a responder of its own, and gets the same answers.
final class CommandDispatcher {
  private let handlers: [ControlCommand.Kind: any DaemonComponent]
  /// What `status` answers (the runtime's, set once it is made).
  var status: (() -> StatusResult)?
  /// Set once SIGTERM arrived: every request is refused from then on.
  var isStopping = false
  /// The time a request's `expires_at` is judged against (`DaemonContext.trustedNow`).
  var trustedNow: () -> Date? = { nil }

  /// Throws when two components claim one command.
  init(components: [any DaemonComponent]) throws {
    var handlers: [ControlCommand.Kind: any DaemonComponent] = [:]
    for component in components {
      for kind in component.commands {
        if let other = handlers[kind] {
          throw StartupError("both \(other.name) and \(component.name) claim the command \(kind.rawValue)")
        }
        handlers[kind] = component
      }
    }
    self.handlers = handlers
  }

  /// Why a command has no component, for those that come with a part of the daemon a
  /// configuration leaves out.
  static let missingComponent: [ControlCommand.Kind: String] = [
    .shiftResend: "the fleet uplink is off (dashpilot.conf has no [Uplink] section)"
  ]

  func dispatch(_ request: ControlRequest, _ responder: Responder) {
    if isStopping {
      responder.fail(.shuttingDown, "the daemon is stopping")
      return
    }
    switch CommandExpiry.judge(request, trustedNow: request.expiresAt == nil ? nil : trustedNow()) {
    case .unexpired: break
    case .expired(let error), .unknown(let error):
      responder.fail(error)
      return
    }
    switch request.command {
    case .status:
      guard let status else {
        responder.fail(.unavailable, "the daemon is starting")
        return
      }
      responder.succeed(status())
    case .events:
      responder.follow(Acknowledgement(message: "following events: one JSON line each"))
    default:
      guard let component = handlers[request.command.kind] else {
        let why =
          Self.missingComponent[request.command.kind] ?? "this build of dashpilotd has no component that answers it"
        responder.fail(.unavailable, "\(request.command.name) is not available: \(why)")
        return
      }
      component.handle(request, responder: responder)
    }
  }
}
