import FoundationEssentials

/// What `ShiftPolicy` says to do with what it was told, in order.
public enum ShiftDecision: Sendable, Hashable {
  /// Open a shift started on movement, its window from `at` (the movement's first fix),
  /// holding `samples` (the movement so far, in order); `displacement` is how far the last
  /// of them is from where the vehicle stood, metres.
  case start(at: Date, samples: [RouteSample], displacement: Double)
  /// Write these samples into the open shift, in order.
  case keep([RouteSample])
  /// End the open shift at `at` (its last moving fix), because of `cause`.
  case end(at: Date, cause: ShiftEndCause)
}
