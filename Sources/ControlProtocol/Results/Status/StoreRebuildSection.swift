/// A copy of the store's file made while the daemon records (`status`'s `store.rebuild`).
public struct StoreRebuildSection: Sendable, Hashable, Codable {
  /// "salvage" (a damaged file's readable rows) or "convert" (an older layout).
  public var purpose: String
  /// "copying", "copied" (the next start puts it in place) or "failed".
  public var state: String
  public var copiedSamples: Int
  /// Samples' rowid ranges left behind unreadable ("first-last").
  public var unreadable: [String]

  public init(purpose: String, state: String, copiedSamples: Int, unreadable: [String]) {
    self.purpose = purpose
    self.state = state
    self.copiedSamples = copiedSamples
    self.unreadable = unreadable
  }

  enum CodingKeys: String, CodingKey {
    case purpose, state, unreadable
    case copiedSamples = "copied_samples"
  }
}
