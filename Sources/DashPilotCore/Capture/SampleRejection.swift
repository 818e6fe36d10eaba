/// Why a fix was not retained. Each reason is counted, so status can say what capture did.
public enum SampleRejection: String, Sendable, Hashable, Codable, CaseIterable {
  case noFix = "no_fix"
  case invalidCoordinate = "invalid_coordinate"
  case poorAccuracy = "poor_accuracy"
  case noAccuracyEstimate = "no_accuracy_estimate"
  case stale = "stale"
  case futureTime = "future_time"
  case outOfOrder = "out_of_order"
  case implausibleSpeed = "implausible_speed"
  case negligibleMovement = "negligible_movement"
  case unconfirmedMovement = "unconfirmed_movement"

  /// Hashed by its case rather than by its name (what a raw-valued enum otherwise hashes):
  /// capture counts each fix it refuses by reason in a dictionary, eight times a second at
  /// 10 Hz, and hashing the name was 2 % of the daemon's loop (`bench e2e`).
  public func hash(into hasher: inout Hasher) {
    let ordinal: UInt8 =
      switch self {
      case .noFix: 0
      case .invalidCoordinate: 1
      case .poorAccuracy: 2
      case .noAccuracyEstimate: 3
      case .stale: 4
      case .futureTime: 5
      case .outOfOrder: 6
      case .implausibleSpeed: 7
      case .negligibleMovement: 8
      case .unconfirmedMovement: 9
      }
    hasher.combine(ordinal)
  }

  /// A sentence fragment a person reads in status output.
  public var explanation: String {
    switch self {
    case .noFix: "no 2D/3D fix"
    case .invalidCoordinate: "invalid coordinate or time"
    case .poorAccuracy: "accuracy worse than the limit"
    case .noAccuracyEstimate: "no error estimate"
    case .stale: "too old when it arrived"
    case .futureTime: "dated ahead of the receiver's recent fixes"
    case .outOfOrder: "timestamp repeats or precedes the last sample"
    case .implausibleSpeed: "implausible speed"
    case .negligibleMovement: "negligible movement"
    case .unconfirmedMovement: "moved further than the receiver's own speed says"
    }
  }
}
