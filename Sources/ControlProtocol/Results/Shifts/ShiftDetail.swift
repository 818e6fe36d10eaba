/// `shift show ID`: the row plus the sentences that qualify its figure, each capture gap
/// with its times and cause, the stops and how the shift's time divided (all derived from
/// the rows when asked, with `[Stops] MinimumStop=`).
public struct ShiftDetail: Sendable, Hashable, Codable {
  public var shift: ShiftSummary
  public var qualifyingSentences: [String]
  public var captureSessions: Int
  /// Every gap the figure's count includes, in time order (an uncovered start of the
  /// shift first, an uncovered end last).
  public var gaps: [WireGap]
  /// Every stop, oldest first.
  public var stops: [WireStop]
  public var time: WireShiftTime
  /// The office's jobs done in the shift (`JobLedger.done`): those visited, in the order the
  /// car arrived, then those not reached by its end.
  public var jobs: [WireJob]

  public init(
    shift: ShiftSummary, qualifyingSentences: [String], captureSessions: Int, gaps: [WireGap] = [],
    stops: [WireStop], time: WireShiftTime, jobs: [WireJob] = []
  ) {
    self.shift = shift
    self.qualifyingSentences = qualifyingSentences
    self.captureSessions = captureSessions
    self.gaps = gaps
    self.stops = stops
    self.time = time
    self.jobs = jobs
  }

  enum CodingKeys: String, CodingKey {
    case shift, gaps, stops, time, jobs
    case qualifyingSentences = "qualifying_sentences"
    case captureSessions = "capture_sessions"
  }
}
