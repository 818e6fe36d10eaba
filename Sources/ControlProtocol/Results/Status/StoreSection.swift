/// The store in `status`: the database file and whether writing to it works.
public struct StoreSection: Sendable, Hashable, Codable {
  public var path: String
  /// Whether the last write succeeded; null until the store is plugged in.
  @ExplicitNull public var ok: Bool?
  @ExplicitNull public var lastError: String?

  public init(path: String, ok: Bool? = nil, lastError: String? = nil) {
    self.path = path
    self.ok = ok
    self.lastError = lastError
  }

  enum CodingKeys: String, CodingKey {
    case path, ok
    case lastError = "last_error"
  }
}
