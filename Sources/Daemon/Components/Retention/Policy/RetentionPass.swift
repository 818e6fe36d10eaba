import FoundationEssentials
import Store

/// What retention is working through, a candidate at a time.
enum RetentionPass {
  /// Shifts a restart left marked for deletion.
  case resume
  /// Shifts that ended by `cutoff`, after `cursor` in the order they ended; `kept`: those
  /// that stay until the broker acknowledges them.
  case age(cutoff: Date, now: Date, cursor: StoredShift?, kept: [Int64])
  /// Shifts the broker acknowledged, in the order they ended, after `cursor`, while the
  /// room left is below the floor.
  case freeSpace(cursor: StoredShift?)
}
