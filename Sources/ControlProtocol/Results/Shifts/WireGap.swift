import DashPilotCore
import FoundationEssentials

/// One capture gap on the wire: `{from, to, seconds, cause}`. Its length is a time and
/// never a distance; `cause` is `CaptureGapWording`'s ("receiver /dev/ttyACM0 removed",
/// "no fixes", "shift started before capture"), null where capture recorded none, so each
/// gap has the same shape.
public struct WireGap: Sendable, Hashable, Codable {
  public var from: Date
  public var to: Date
  public var seconds: Double
  @ExplicitNull public var cause: String?

  public init(from: Date, to: Date, seconds: Double, cause: String?) {
    self.from = from
    self.to = to
    self.seconds = seconds
    self.cause = cause
  }

  /// `gap`'s times and the cause found for it.
  public init(_ gap: RouteGap, cause: String?) {
    self.init(from: gap.from, to: gap.to, seconds: gap.seconds, cause: cause)
  }
}
