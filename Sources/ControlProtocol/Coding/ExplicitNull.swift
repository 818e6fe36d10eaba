/// An optional member written as `null` when it has no value, where Codable's synthesis
/// would leave it out: `status` and the shift answers write every member, so a script can
/// tell "unknown" from a typo. Read back, a null member and a missing one are both nil.
@propertyWrapper
public struct ExplicitNull<Value: Codable & Sendable & Hashable>: Codable, Sendable, Hashable {
  public var wrappedValue: Value?

  public init(wrappedValue: Value?) {
    self.wrappedValue = wrappedValue
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    wrappedValue = container.decodeNil() ? nil : try container.decode(Value.self)
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    if let wrappedValue { try container.encode(wrappedValue) } else { try container.encodeNil() }
  }
}

extension KeyedDecodingContainer {
  /// What synthesized decoding calls for an `@ExplicitNull` member: missing is nil, as
  /// null is, rather than an error.
  public func decode<Value>(_ type: ExplicitNull<Value>.Type, forKey key: Key) throws -> ExplicitNull<Value> {
    try decodeIfPresent(type, forKey: key) ?? ExplicitNull(wrappedValue: nil)
  }
}
