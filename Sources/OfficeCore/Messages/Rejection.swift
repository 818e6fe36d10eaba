/// Why a message is kept in `rejected` instead of being stored: a code to count and group
/// by, and a sentence naming what was wrong.
public struct Rejection: Sendable, Hashable, Error, CustomStringConvertible {
  public enum Code: String, Sendable, Hashable, CaseIterable {
    /// The payload is not JSON (or not a JSON object).
    case notJSON = "not_json"
    /// `schema` is missing, or none the office knows.
    case unknownSchema = "unknown_schema"
    /// A schema that belongs on another topic (a shift on `samples`).
    case wrongTopic = "wrong_topic"
    /// `key` is not `VEHICLE/SHIFT/SEQUENCE` of the message's own fields.
    case keyMismatch = "key_mismatch"
    /// `vehicle` is not the topic's vehicle: one box writing as another.
    case vehicleMismatch = "vehicle_mismatch"
    /// The payload is over the office's bound (`[Ingest] MaximumPayload=`).
    case tooLarge = "too_large"
    /// A field is missing, of the wrong type, or out of range.
    case malformed
    /// PostgreSQL refused the message's rows on their own (a value it cannot hold).
    case refusedByDatabase = "refused_by_database"
  }

  public var code: Code
  public var reason: String

  public init(_ code: Code, _ reason: String) {
    self.code = code
    self.reason = reason
  }

  public var description: String { "\(code.rawValue): \(reason)" }
}
