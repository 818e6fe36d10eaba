import FoundationEssentials

extension StopPolicy {
  /// Whether `stop`, read from rows up to `latest`, is over for good: no row after
  /// `latest` can change it. A stop the vehicle departed is over once a row lies away from
  /// where it stood: kept moves that stay there may be the vehicle shuffling within the
  /// stop, which joins the standing after them (`standingRuns`). One ended by a gap is over
  /// (nothing after a gap joins it); one going on, or cut by the end of the rows, is not.
  public func isOver(_ stop: Stop, latest: RouteSample) -> Bool {
    switch stop.end {
    case .departed: !isAt(stop.position, latest)
    case .beforeGap: true
    case .shiftEnded, .recordingEnded, .ongoing: false
    }
  }
}
