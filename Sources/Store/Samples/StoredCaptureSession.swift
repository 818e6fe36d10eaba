import DashPilotCore
import FoundationEssentials

/// One run of capture as recorded: when it began, when and why it ended (nil while running,
/// or when the process died before it could say).
public struct StoredCaptureSession: Sendable, Hashable {
  public var id: CaptureSessionID
  public var startedAt: Date
  public var endedAt: Date?
  public var endReason: String?

  public init(id: CaptureSessionID, startedAt: Date, endedAt: Date?, endReason: String?) {
    self.id = id
    self.startedAt = startedAt
    self.endedAt = endedAt
    self.endReason = endReason
  }
}
