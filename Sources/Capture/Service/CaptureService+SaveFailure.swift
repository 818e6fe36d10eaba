import DashPilotCore
import FoundationEssentials

// A save that failed: the session ends where the store stopped taking rows, and, in the
// daemon, capture holds (dropping fixes, counted) until the store takes a write again.
extension CaptureService {
  /// While capture holds on a failed save, a fix is dropped unjudged (and counted).
  mutating func dropsWhileStoreFails(into events: inout [CaptureEvent]) -> Bool {
    guard let failure = storeFailure else { return false }
    statistics.received += 1
    statistics.droppedWhileStoreFailing += 1
    events.append(.dropped(failure))
    return true
  }

  /// A save failed: the session ends, and the filter judges from what the sink really
  /// kept, not from samples that were lost. `save(_:)` failing calls this; a store that
  /// writes in batches calls it too when a later flush (a timer, not a fix) fails.
  public mutating func saveFailed(reason: String) -> [CaptureEvent] {
    var events: [CaptureEvent] = [.saveFailed(reason)]
    statistics.saveFailures += 1
    // The store refused a write: the instant still being gathered is not tried on it.
    if pendingInstant != nil {
      pendingInstant = nil
      statistics.received += 1
      statistics.droppedWhileStoreFailing += 1
      events.append(.dropped(reason))
    }
    endSession(.saveFailed(reason), into: &events)
    filter.reset(lastRetained: (try? sink.lastRetainedSample()) ?? nil)
    if holdsAfterSaveFailure && isCapturing { storeFailure = reason }
    return events
  }

  /// The store took a write again (the owner's retry succeeded): the hold ends, and the
  /// next fix with a position begins one new session. The filter judges from what the
  /// store really kept.
  public mutating func storeRecovered() {
    guard storeFailure != nil else { return }
    storeFailure = nil
    filter.reset(lastRetained: (try? sink.lastRetainedSample()) ?? nil)
  }
}
