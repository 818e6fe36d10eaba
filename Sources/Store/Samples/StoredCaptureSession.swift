import DashPilotCore
import FoundationEssentials

/// One run of capture as recorded: when it began, when and why it ended (nil while running,
/// or when the process died before it could say).
public struct StoredCaptureSession: Sendable, Hashable {
  public var id: CaptureSessionID
  public var startedAt: Date
  public var endedAt: Date?
  public var endReason: String?
  /// The receiver capture was reading when the session ended, where capture knew it (a
  /// device deactivated or changed).
  public var endDevice: String?

  public init(id: CaptureSessionID, startedAt: Date, endedAt: Date?, endReason: String?, endDevice: String? = nil) {
    self.id = id
    self.startedAt = startedAt
    self.endedAt = endedAt
    self.endReason = endReason
    self.endDevice = endDevice
  }
}
