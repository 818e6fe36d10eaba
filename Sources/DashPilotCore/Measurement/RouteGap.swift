import FoundationEssentials

/// One break in capture that the measurement excluded, with its times: where the walk saw
/// it, not a second reading of the rows. `RouteDistance.gaps` counts exactly these.
public struct RouteGap: Sendable, Hashable {
  public enum Kind: Sendable, Hashable {
    /// The positions either side were captured by different sessions: capture was
    /// interrupted, and the session that `ended` says why (nil for a position with no
    /// session, an imported one).
    case sessionChanged(ended: CaptureSessionID?, began: CaptureSessionID?)
    /// The same session (or continuity inferred), but further apart than the continuity
    /// limit: no fixes were kept in between.
    case noFixes
    /// The shift's window began more than the limit before its first position.
    case beforeCapture
    /// The shift's window ended more than the limit after its last position.
    case afterCapture
  }

  public var kind: Kind
  /// The last instant recorded before the gap (the window's start for `beforeCapture`).
  public var from: Date
  /// The first instant recorded after it (the window's end for `afterCapture`).
  public var to: Date

  public init(kind: Kind, from: Date, to: Date) {
    self.kind = kind
    self.from = from
    self.to = to
  }

  /// How long capture was lost. A time, never a distance: nothing is known of what was
  /// driven meanwhile.
  public var seconds: TimeInterval { to.timeIntervalSince(from) }

  /// Whether the gap lies between two recorded positions (drawn as a line between them),
  /// rather than at an uncovered end of the shift's window.
  public var isBetweenPositions: Bool {
    switch kind {
    case .sessionChanged, .noFixes: true
    case .beforeCapture, .afterCapture: false
    }
  }
}

/// What one position did to the walk.
public enum RouteWalkStep: Sendable, Hashable {
  /// Not on Earth, or at or before the last position consumed: not counted.
  case skipped
  /// The first position of the route.
  case began
  /// Continues the current stretch.
  case continued
  /// Starts a new stretch after this gap.
  case broke(RouteGap)
}
