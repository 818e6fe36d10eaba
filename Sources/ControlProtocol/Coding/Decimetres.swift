/// Metres written to the decimetre (`WireDistance.metres`), as the uplink always wrote
/// them: positions are kept to about a centimetre and a receiver errs by metres, so
/// further digits say nothing. The value itself keeps every digit.
@propertyWrapper
public struct Decimetres: Codable, Sendable, Hashable {
  public var wrappedValue: Double

  public init(wrappedValue: Double) {
    self.wrappedValue = wrappedValue
  }

  public init(from decoder: any Decoder) throws {
    wrappedValue = try decoder.singleValueContainer().decode(Double.self)
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    let decimetres = (wrappedValue * 10).rounded(.toNearestOrAwayFromZero) / 10
    try container.encode(decimetres.isFinite ? decimetres : wrappedValue)
  }
}
