/// `shifts`: one page, newest first, and what the box keeps (`[Store] KeepDays=`, the
/// free-space floor) in a sentence. `more` says older shifts match beyond the page; the next
/// page is asked for with `before` = `nextBefore` (the last id of this one).
public struct ShiftsResult: Sendable, Hashable, Codable {
  public var shifts: [ShiftSummary]
  public var more: Bool
  @ExplicitNull public var nextBefore: Int64?
  @ExplicitNull public var kept: String?

  public init(shifts: [ShiftSummary], more: Bool = false, kept: String? = nil) {
    self.shifts = shifts
    self.more = more
    nextBefore = more ? shifts.last?.id : nil
    self.kept = kept
  }

  enum CodingKeys: String, CodingKey {
    case shifts, more, kept
    case nextBefore = "next_before"
  }
}
