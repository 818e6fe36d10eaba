/// The store in `status`: the database file, whether writing to it works, and how long the
/// card lasts.
public struct StoreSection: Sendable, Hashable, Codable {
  public var path: String
  /// Whether the last write succeeded; null until the store is plugged in.
  @ExplicitNull public var ok: Bool?
  @ExplicitNull public var lastError: String?
  /// Retention's figures, null until known: the room left for recording (the file system's
  /// free space and the file's free pages), the last 7 days' rate, the days of recording
  /// left at it, the free-space floor (null: off), `[Store] KeepDays=` (null: forever), and
  /// the sentence that says it.
  @ExplicitNull public var freeBytes: Int64?
  @ExplicitNull public var bytesPerDay: Int64?
  @ExplicitNull public var daysLeft: Double?
  @ExplicitNull public var freeSpaceFloorBytes: Int64?
  @ExplicitNull public var keepDays: Int?
  @ExplicitNull public var outlook: String?

  public init(path: String, ok: Bool? = nil, lastError: String? = nil) {
    self.path = path
    self.ok = ok
    self.lastError = lastError
  }

  enum CodingKeys: String, CodingKey {
    case path, ok, outlook
    case lastError = "last_error"
    case freeBytes = "free_bytes"
    case bytesPerDay = "bytes_per_day"
    case daysLeft = "days_left"
    case freeSpaceFloorBytes = "free_space_floor_bytes"
    case keepDays = "keep_days"
  }
}
