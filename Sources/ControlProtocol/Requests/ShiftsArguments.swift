import FoundationEssentials

/// `shifts`: one page of the shifts, newest first. A box records for years, so the answer
/// is a page, never the whole history: `limit` shifts at most, older than shift `before`
/// (the next page: the last id of the page before), started within `since` ..< `until`.
public struct ShiftsArguments: Sendable, Hashable {
  /// Shifts a page holds when the request does not say.
  public static let defaultLimit = 20
  /// The most a page may hold.
  public static let maximumLimit = 1_000

  public var limit: Int
  public var before: Int64?
  public var since: Date?
  public var until: Date?

  public init(limit: Int = defaultLimit, before: Int64? = nil, since: Date? = nil, until: Date? = nil) {
    self.limit = limit
    self.before = before
    self.since = since
    self.until = until
  }
}
