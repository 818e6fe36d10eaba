/// The store in `status`: the database file, whether writing to it works, and how long the
/// card lasts.
public struct StoreSection: Sendable, Hashable, Codable {
  public var path: String
  /// Whether the last write succeeded; null until the store is plugged in.
  @ExplicitNull public var ok: Bool?
  @ExplicitNull public var lastError: String?
  /// Capture's timed commits since the daemon started: how many, how many came a second
  /// or more after they were due, and the most one was late (ms); null until the store is
  /// plugged in.
  @ExplicitNull public var commits: Int?
  @ExplicitNull public var commitsLate: Int?
  @ExplicitNull public var worstCommitDelayMilliseconds: Int?
  /// The whole-file check after start-up: "waiting", "running", "ok", "damaged" or
  /// "failed"; what it found when not ok.
  @ExplicitNull public var check: String?
  @ExplicitNull public var checkFindings: [String]?
  /// A copy of the file being made while recording (a salvage or a conversion), with how
  /// far it is; null when none is made.
  @ExplicitNull public var rebuild: StoreRebuildSection?
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
    case path, ok, commits, check, rebuild, outlook
    case lastError = "last_error"
    case commitsLate = "commits_late"
    case worstCommitDelayMilliseconds = "worst_commit_delay_ms"
    case checkFindings = "check_findings"
    case freeBytes = "free_bytes"
    case bytesPerDay = "bytes_per_day"
    case daysLeft = "days_left"
    case freeSpaceFloorBytes = "free_space_floor_bytes"
    case keepDays = "keep_days"
  }
}
