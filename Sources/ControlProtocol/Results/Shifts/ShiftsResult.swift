/// `shifts`: newest first.
public struct ShiftsResult: Sendable, Hashable, Codable {
  public var shifts: [ShiftSummary]
  public init(shifts: [ShiftSummary]) { self.shifts = shifts }
}
