import ControlProtocol
import DashPilotCore
import FoundationEssentials
import Store

/// A shift's capture gaps with their causes: the gaps are the measurement's own (the walk
/// that made the figure), and a gap between two sessions takes its cause from how the
/// earlier one ended, as capture stored it. Each ended session is read once.
enum ShiftGaps {
  static func wire(_ measured: MeasuredRoute, store: SampleStore) throws(StoreError) -> [WireGap] {
    var sessions: [CaptureSessionID: StoredCaptureSession?] = [:]
    var result: [WireGap] = []
    for gap in measured.gaps {
      var ending: StoredCaptureSession?
      if case .sessionChanged(let ended?, _) = gap.kind {
        if let known = sessions[ended] {
          ending = known
        } else {
          ending = try store.captureSession(ended)
          sessions[ended] = ending
        }
      }
      let cause = CaptureGapWording.cause(of: gap.kind, endReason: ending?.endReason, endDevice: ending?.endDevice)
      result.append(WireGap(gap, cause: cause))
    }
    return result
  }
}
