extension DaemonEvent {
  /// The whole-file check after start-up finished: `result` is `ok`, `damaged` or `failed`
  /// (it could not run to its end), `findings` what quick_check said when not ok.
  public struct StoreChecked: Sendable, Hashable, Codable {
    public var result: String
    public var findings: [String]

    public init(result: String, findings: [String]) {
      self.result = result
      self.findings = findings
    }
  }

  /// A copy made while recording took the database's place at start-up: `purpose` is
  /// `salvage` (a damaged file's readable rows; the damaged file kept as `kept_as`) or
  /// `convert` (an older layout), with the samples it holds.
  public struct StoreReplaced: Sendable, Hashable, Codable {
    public var purpose: String
    public var samples: Int
    public var keptAs: String?

    public init(purpose: String, samples: Int, keptAs: String?) {
      self.purpose = purpose
      self.samples = samples
      self.keptAs = keptAs
    }

    enum CodingKeys: String, CodingKey {
      case purpose, samples
      case keptAs = "kept_as"
    }
  }
}
