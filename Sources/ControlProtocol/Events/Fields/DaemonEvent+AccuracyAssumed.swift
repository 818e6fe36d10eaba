extension DaemonEvent {
  /// A session whose receiver reports no error estimate, and the accuracy its fixes are
  /// kept with (metres, `[Capture] AssumedAccuracy=`); `shift` is absent while none is open.
  public struct AccuracyAssumed: Sendable, Hashable, Codable {
    public var session: String
    public var shift: Int64?
    public var accuracyMetres: Double
    public static let reason = "no error estimate"

    public init(session: String, shift: Int64?, accuracyMetres: Double) {
      self.session = session
      self.shift = shift
      self.accuracyMetres = accuracyMetres
    }

    private enum CodingKeys: String, CodingKey {
      case session, shift
      case accuracyMetres = "accuracy_m"
    }
  }
}
