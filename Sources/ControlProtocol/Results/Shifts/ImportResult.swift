/// The answer to `import`: the shift made (its members, as every shift answer has them),
/// and under `import` what the capture rules did with the track's points: kept, of which
/// held or with an assumed accuracy, and refused by reason, as replay counts them.
public struct ImportResult: Sendable, Hashable, Codable {
  public var shift: ShiftSummary
  public var points: Int
  public var kept: Int
  public var held: Int
  public var accuracyAssumed: Int
  /// Refused points by reason (`no_fix`, `negligible_movement`, ...), only reasons that
  /// refused any.
  public var rejected: [String: Int]

  public init(
    shift: ShiftSummary, points: Int, kept: Int, held: Int, accuracyAssumed: Int, rejected: [String: Int]
  ) {
    self.shift = shift
    self.points = points
    self.kept = kept
    self.held = held
    self.accuracyAssumed = accuracyAssumed
    self.rejected = rejected
  }

  private enum Keys: String, CodingKey { case `import` }
  private enum TallyKeys: String, CodingKey {
    case points, kept, held, rejected
    case accuracyAssumed = "accuracy_assumed"
  }

  // The shift's members stand at the top, beside `import`: a shift answer with more.
  public init(from decoder: any Decoder) throws {
    shift = try ShiftSummary(from: decoder)
    let tally = try decoder.container(keyedBy: Keys.self).nestedContainer(keyedBy: TallyKeys.self, forKey: .import)
    points = try tally.decode(Int.self, forKey: .points)
    kept = try tally.decode(Int.self, forKey: .kept)
    held = try tally.decode(Int.self, forKey: .held)
    accuracyAssumed = try tally.decode(Int.self, forKey: .accuracyAssumed)
    rejected = try tally.decode([String: Int].self, forKey: .rejected)
  }

  public func encode(to encoder: any Encoder) throws {
    try shift.encode(to: encoder)
    var container = encoder.container(keyedBy: Keys.self)
    var tally = container.nestedContainer(keyedBy: TallyKeys.self, forKey: .import)
    try tally.encode(points, forKey: .points)
    try tally.encode(kept, forKey: .kept)
    try tally.encode(held, forKey: .held)
    try tally.encode(accuracyAssumed, forKey: .accuracyAssumed)
    try tally.encode(rejected, forKey: .rejected)
  }

  /// "3 no_fix, 120 negligible_movement", reasons in name order; "nothing" for none.
  public static func describe(_ rejected: [String: Int]) -> String {
    let parts = rejected.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }
    return parts.isEmpty ? "nothing refused" : parts.joined(separator: ", ")
  }
}
