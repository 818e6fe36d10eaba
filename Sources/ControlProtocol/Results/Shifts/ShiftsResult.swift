/// `shifts`: one page, newest first. `more` says older shifts match beyond it; the next
/// page is asked for with `before` = `nextBefore` (the last id of this one).
public struct ShiftsResult: Sendable, Hashable, Codable {
  public var shifts: [ShiftSummary]
  public var more: Bool
  @ExplicitNull public var nextBefore: Int64?

  public init(shifts: [ShiftSummary], more: Bool = false) {
    self.shifts = shifts
    self.more = more
    nextBefore = more ? shifts.last?.id : nil
  }

  enum CodingKeys: String, CodingKey {
    case shifts, more
    case nextBefore = "next_before"
  }
}
