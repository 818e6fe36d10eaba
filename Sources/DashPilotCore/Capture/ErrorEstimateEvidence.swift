import FoundationEssentials

/// Whether the receiver is one that reports no error estimate at all, so that its fixes
/// may be given the assumed accuracy. gpsd reports a fix once per sentence, and on most
/// receivers the first report of a cycle (from RMC) has no estimate while the next (from
/// GGA or GST) of the same time has one: a fix without an estimate is only given the
/// assumed accuracy once a whole fix time before it passed without any estimate. Such a
/// receiver loses its first fix time; any other never has an accuracy assumed.
struct ErrorEstimateEvidence: Sendable, Hashable {
  private var currentTime: Date?
  private var currentTimeHadEstimate = false
  /// Whether the last completed fix time had an estimate (nil before one completed).
  private var previousTimeHadEstimate: Bool?

  /// Notes a fix at `time`, with or without an estimate; returns whether a fix without
  /// one may be given the assumed accuracy.
  mutating func note(time: Date, hasEstimate: Bool) -> Bool {
    if let currentTime, time <= currentTime {
      if time == currentTime { currentTimeHadEstimate = currentTimeHadEstimate || hasEstimate }
    } else {
      if currentTime != nil { previousTimeHadEstimate = currentTimeHadEstimate }
      currentTime = time
      currentTimeHadEstimate = hasEstimate
    }
    return previousTimeHadEstimate == false && !currentTimeHadEstimate
  }

  /// Another receiver or connection: nothing is known of it yet.
  mutating func reset() { self = ErrorEstimateEvidence() }
}
