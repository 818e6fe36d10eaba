import DashPilotCore
import FoundationEssentials

/// Whether a request's `expires_at` has passed, judged against a time the box can trust
/// (a synchronised wall clock, or the receiver's): a destination queued for a car that was
/// off all night must not start navigation in the morning, and a box whose clock still
/// says last night must not think it has not expired. Pure: the time is passed in.
public enum CommandExpiry: Sendable, Hashable {
  case unexpired
  case expired(ControlError)
  /// No time can be trusted yet; the request is not run.
  case unknown(ControlError)

  public static func judge(_ request: ControlRequest, trustedNow: Date?) -> CommandExpiry {
    guard let expiresAt = request.expiresAt else { return .unexpired }
    let when = UTCTimestamp.string(expiresAt) ?? "its expiry"
    guard let now = trustedNow else {
      return .unknown(
        ControlError(
          .unavailable,
          "\(request.command.name) was not run: it expires at \(when), and the box cannot yet tell the time "
            + "(its clock is not synchronised and no fix has given it); send it again once the car has a fix"))
    }
    guard now < expiresAt else {
      let late = Int(now.timeIntervalSince(expiresAt).rounded(.down))
      return .expired(
        ControlError(
          .expired, "\(request.command.name) expired at \(when), \(late) s before the box could run it; not run"))
    }
    return .unexpired
  }
}
