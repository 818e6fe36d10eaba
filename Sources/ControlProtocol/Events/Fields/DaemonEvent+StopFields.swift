import FoundationEssentials

extension DaemonEvent {
  /// `stop.ended`: a stop ended for good (the vehicle left it, or capture was lost while it
  /// stood): the stop as `shift show` lists it afterwards (`WireStop`'s fields, the same
  /// policy on the same rows) and the shift it was in. `stop.started`: a stop has lasted
  /// the minimum, as it stands so far (`end` is `ongoing`).
  public struct StopFields: Sendable, Hashable, Codable {
    public var shift: Int64?
    public var stop: WireStop

    public init(shift: Int64?, stop: WireStop) {
      self.shift = shift
      self.stop = stop
    }

    private enum CodingKeys: String, CodingKey { case shift }

    // The stop's own fields beside `shift`, not nested: the event's fields are the stop.
    public init(from decoder: any Decoder) throws {
      shift = try decoder.container(keyedBy: CodingKeys.self).decodeIfPresent(Int64.self, forKey: .shift)
      stop = try WireStop(from: decoder)
    }

    public func encode(to encoder: any Encoder) throws {
      try stop.encode(to: encoder)
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(shift, forKey: .shift)
    }
  }
}
