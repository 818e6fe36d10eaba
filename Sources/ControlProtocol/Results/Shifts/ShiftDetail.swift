/// `shift show ID`: the row plus the sentences that qualify its figure, and each capture
/// gap with its times and cause.
public struct ShiftDetail: Sendable, Hashable, Codable {
  public var shift: ShiftSummary
  public var qualifyingSentences: [String]
  public var captureSessions: Int
  /// Every gap the figure's count includes, in time order (an uncovered start of the
  /// shift first, an uncovered end last).
  public var gaps: [WireGap]

  public init(shift: ShiftSummary, qualifyingSentences: [String], captureSessions: Int, gaps: [WireGap] = []) {
    self.shift = shift
    self.qualifyingSentences = qualifyingSentences
    self.captureSessions = captureSessions
    self.gaps = gaps
  }

  enum CodingKeys: String, CodingKey {
    case shift, gaps
    case qualifyingSentences = "qualifying_sentences"
    case captureSessions = "capture_sessions"
  }
}
