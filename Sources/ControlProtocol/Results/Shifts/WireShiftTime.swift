import DashPilotCore
import FoundationEssentials

/// How a shift's time divided (`shift show`'s `time`): moving, stopped with the receiver
/// reporting, and not captured, in seconds that add up to the window (`from` to `to`: a
/// completed shift's, a running one's up to when it was asked), with `ShiftTimeWording`'s
/// line, its qualifying sentences and its spoken form, and the shortest stop counted.
public struct WireShiftTime: Sendable, Hashable, Codable {
  public var from: Date
  public var to: Date
  public var movingSeconds: Double
  public var stoppedSeconds: Double
  public var notCapturedSeconds: Double
  public var minimumStopSeconds: Double
  public var summary: String
  public var qualifyingSentences: [String]
  public var spoken: String

  public init(_ time: ShiftTime, minimumStop: TimeInterval) {
    let wording = ShiftTimeWording(time: time, minimumStop: minimumStop)
    from = time.window.start
    to = time.window.end
    movingSeconds = time.moving
    stoppedSeconds = time.stopped
    notCapturedSeconds = time.notCaptured
    minimumStopSeconds = minimumStop
    summary = wording.summary
    qualifyingSentences = wording.qualifyingSentences
    spoken = wording.spoken
  }

  enum CodingKeys: String, CodingKey {
    case from, to, summary, spoken
    case movingSeconds = "moving_s"
    case stoppedSeconds = "stopped_s"
    case notCapturedSeconds = "not_captured_s"
    case minimumStopSeconds = "minimum_stop_s"
    case qualifyingSentences = "qualifying_sentences"
  }
}
