import ControlProtocol
import FoundationEssentials

/// An event with the sentence the journal gets for it, as a component's pure policy returns
/// it for the component to announce (`DaemonContext.announce`).
struct EventReport: Hashable {
  var event: DaemonEvent
  var message: String
  var priority: LogPriority
  /// When it happened on the wall clock; nil: when it is announced.
  var time: Date?

  init(_ event: DaemonEvent, _ message: String, priority: LogPriority = .notice, at time: Date? = nil) {
    self.event = event
    self.message = message
    self.priority = priority
    self.time = time
  }
}

extension DaemonContext {
  func announce(_ report: EventReport) {
    announce(report.event, report.message, priority: report.priority, at: report.time)
  }
}
