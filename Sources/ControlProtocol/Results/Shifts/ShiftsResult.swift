/// `shifts`: newest first, and what the box keeps (`[Store] KeepDays=`, the free-space
/// floor), in a sentence.
public struct ShiftsResult: Sendable, Hashable, Codable {
  public var shifts: [ShiftSummary]
  @ExplicitNull public var kept: String?

  public init(shifts: [ShiftSummary], kept: String? = nil) {
    self.shifts = shifts
    self.kept = kept
  }
}
