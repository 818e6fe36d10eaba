import ControlProtocol
import DashPilotCore
import FoundationEssentials
import Store

// `stop.started`: a stop has lasted the minimum, told by the row that made it so.
// `stop.ended`: a stop is over for good (`CurrentStopTracker`, `StopPolicy.isOver`), told
// the moment the row that ends it is kept, as `shift show` will list it (the same policy on
// the same rows, named by the same places). The uplink queues it as the fleet's `stop`
// message.
extension RecordingComponent {
  /// Registers a component told of each stop of the open shift as it starts and ends (the
  /// jobs). Call before the daemon starts.
  public func addStopObserver(_ observer: any StopObserver) {
    stopObservers.append(observer)
  }

  /// A row capture kept, as the store reads it back (position to 1e-7 degree, time to the
  /// millisecond), so that the stop is `shift show`'s to the last digit.
  func stopKept(_ sample: RouteSample) {
    let row = (try? SampleStore.storedForm(of: sample)) ?? sample
    let ended = currentStop.kept(row)
    if let started = currentStop.started(now: row.timestamp), let shift = openShiftID,
      currentStop.shiftStart.map({ started.departure > $0 }) ?? true
    {
      announceStarted(started, shift: shift)
    }
    guard let ended else { return }
    // Only a stop within the open shift is told: one standing between shifts (before a
    // shift that starts on movement, or the stand a hands-free shift ended after) is in
    // no shift that `shift show` lists (its departure is the shift's start at the latest).
    // A shift resumed at start-up began before the rows.
    guard let shift = openShiftID, currentStop.shiftStart.map({ ended.departure > $0 }) ?? true else { return }
    announceEnded(ended, shift: shift)
  }

  /// The coordinator's events, announced; a shift it started or ended by itself
  /// (`Start=movement`) tells the stop tracker, whose stops are the shift's.
  func announceFollowingShifts(_ report: EventReport) {
    switch report.event {
    case .shiftStarted(let started): currentStop.shiftStarted(at: started.startedAt ?? .distantPast)
    // A hands-free shift ends at its last moving or kept fix: no stop of it is cut.
    case .shiftEnded: currentStop.shiftStarted(at: .distantFuture)
    default: break
    }
    context?.announce(report)
  }

  /// A shift ended by hand with the vehicle standing: the stop its end cut, as `shift show`
  /// lists it, told before the shift's end is.
  func stopCut(byEndOf ended: StoredShift) {
    guard let end = ended.shift.endedAt, end >= ended.shift.startedAt else { return }
    let window = DateInterval(start: ended.shift.startedAt, end: end)
    if let cut = currentStop.shiftEnded(window) { announceEnded(cut, shift: ended.id) }
  }

  private func announceStarted(_ stop: Stop, shift: Int64) {
    let place = stop.place(in: places)
    context?.announce(
      .stopStarted(.init(shift: shift, stop: WireStop(stop, place: place))),
      "stopped at \(place?.name ?? Self.position(stop)) since \(Self.time(stop.arrival))", priority: .info)
    for observer in stopObservers { observer.stopStarted(stop, shift: shift) }
  }

  private func announceEnded(_ stop: Stop, shift: Int64?) {
    let place = stop.place(in: places)
    let wire = WireStop(stop, place: place)
    let line = StopWording.duration(stop.duration, cut: wire.cut)
    context?.announce(
      .stopEnded(.init(shift: shift, stop: wire)),
      "stopped \(line) at \(place?.name ?? Self.position(stop)), from \(Self.time(stop.arrival)) to \(Self.time(stop.departure))",
      priority: .info)
    for observer in stopObservers { observer.stopEnded(stop, shift: shift) }
  }

  private static func position(_ stop: Stop) -> String {
    "\(degrees(stop.position.latitude)), \(degrees(stop.position.longitude))"
  }

  /// To 5 decimals (about a metre), as a person reads a position.
  private static func degrees(_ value: Double) -> Double { (value * 100_000).rounded() / 100_000 }

  private static func time(_ date: Date) -> String { UTCTimestamp.string(date) ?? "?" }
}
