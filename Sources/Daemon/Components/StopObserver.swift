import DashPilotCore

/// Told of the open shift's stops by the recording component, on the loop thread, as
/// `stop.started` and `stop.ended` tell them: the very stops `shift show` lists, read by
/// the same policy from the same rows.
public protocol StopObserver: AnyObject {
  /// A stop has lasted the minimum; `stop` is as it stands so far (`end` is `ongoing`).
  func stopStarted(_ stop: Stop, shift: Int64)
  /// A stop ended for good, or was cut by the end of shift `shift`.
  func stopEnded(_ stop: Stop, shift: Int64?)
}
