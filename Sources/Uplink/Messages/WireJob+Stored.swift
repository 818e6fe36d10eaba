import ControlProtocol
import Store

extension WireJob {
  /// The job as the ledger holds it.
  public init(_ stored: StoredJob) {
    self.init(
      stored.job, state: stored.state.rawValue, shift: stored.shift,
      visit: stored.evidence.map {
        WireJobVisit(
          arrival: $0.arrival, departure: $0.departure, distanceMetres: $0.distance,
          receiverReportedThroughout: $0.receiverReportedThroughout, withinWindow: $0.withinWindow, stopEnd: $0.stopEnd)
      })
  }
}
