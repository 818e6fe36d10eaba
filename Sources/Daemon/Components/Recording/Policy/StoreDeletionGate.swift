/// Whether the store's care lets rows be deleted now (`StoreMaintenance.allowsDeletion`),
/// as retention asks at each tick without knowing who looks after the file.
public enum StoreDeletionGate: Sendable, Hashable {
  case open
  /// The whole-file check has not run to its end: a damaged file's rows are copied before
  /// any goes.
  case waitingForCheck
  /// A copy of the file is being made.
  case waitingForCopy
}

extension StoreMaintenance {
  var deletionGate: StoreDeletionGate {
    if isRebuilding { return .waitingForCopy }
    return allowsDeletion ? .open : .waitingForCheck
  }
}
