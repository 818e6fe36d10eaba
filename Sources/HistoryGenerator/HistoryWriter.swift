import Capture
import DashPilotCore
import Foundation
import Store

/// Writes a generated history through the store itself (`SampleStore`: its own schema,
/// encoding and migrations, the calls capture makes: a shift started on movement, capture
/// sessions begun and ended with their reasons, samples appended, the shift ended), one
/// transaction per shift with `durability: .disposable` (no fsync: the file is a fixture
/// until it is complete). It is written beside `path` and renamed into place when whole, so
/// an interrupted run never leaves a file that looks complete.
public enum HistoryWriter {
  /// Where the shifts are driven: a depot on the edge of a city centre.
  public static let depot = GeoCoordinate(latitude: 41.8515, longitude: -87.6629)

  /// The database 0.1.0 wrote (`scripts/fixtures/make-release-database.sh`), the start of a
  /// `.release010` file.
  public static let releaseDatabase = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures/databases/dashpilot-0.1.0.sqlite")

  /// Writes the history to `path` (replacing any file there) and says what it wrote.
  /// `progress` is told after each shift (shifts written, shifts in all).
  public static func write(
    _ parameters: HistoryParameters, to path: String, progress: (Int, Int) -> Void = { _, _ in }
  ) throws -> HistorySummary {
    try parameters.validate()
    let began = Date()
    let beganCPU = HistorySummary.processorSeconds()
    let partial = path + ".partial"
    for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: partial + suffix) }
    if parameters.layout == .release010 {
      try FileManager.default.copyItem(atPath: releaseDatabase.path, toPath: partial)
    }
    var counts = HistorySummary.Counts()
    do {
      let store = try SampleStore(path: partial, durability: .disposable)
      try endReleaseShift(store)
      let newest = try store.shifts().last?.shift.endedAt
      let days = WorkingDays.days(count: parameters.shifts, before: parameters.until)
      for (index, day) in days.enumerated() {
        let shift = ShiftSimulation.shift(day: day, depot: depot, parameters: parameters)
        if index == 0, let newest, shift.start <= newest {
          throw HistoryParameterError(
            "the first generated shift (\(WorkingDays.text(shift.start))) would start before the file's newest "
              + "shift ended (\(WorkingDays.text(newest))): choose a later --until")
        }
        try record(shift, in: store, counts: &counts)
        progress(index + 1, days.count)
      }
      try store.checkpoint()
    }
    for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    guard rename(partial, path) == 0 else {
      throw HistoryParameterError("could not rename \(partial) to \(path): \(String(cString: strerror(errno)))")
    }
    return try HistorySummary(
      parameters: parameters, path: path, counts: counts, seconds: Date().timeIntervalSince(began),
      cpuSeconds: HistorySummary.processorSeconds() - beganCPU)
  }

  private static func record(_ shift: GeneratedShift, in store: SampleStore, counts: inout HistorySummary.Counts)
    throws(StoreError)
  {
    let id = try store.transaction("generate a shift") { (_) throws(StoreError) -> Int64 in
      let stored = try store.startShift(at: shift.start, startedBy: .movement)
      for session in shift.sessions {
        try store.beginCaptureSession(
          session.id, at: session.start, shiftID: stored.id,
          reason: SessionStartReason.fixesStarted(device: ShiftSimulation.receiverPath).code)
        try store.append(session.samples, toShift: stored.id)
        try store.endCaptureSession(
          session.id, at: session.end, reason: session.endReason.code, device: session.endReason.device,
          shiftID: stored.id)
      }
      _ = try store.endShift(stored.id, at: shift.end, endedBy: shift.endedBy)
      return stored.id
    }
    counts.add(shift, id: id)
  }

  /// A 0.1.0 file was left with its third shift open (the daemon stopped mid-shift, as an
  /// upgrade stops it): the hands-free policy ends it at its last fix, as capture lost.
  private static func endReleaseShift(_ store: SampleStore) throws(StoreError) {
    guard let open = try store.openShift() else { return }
    let last = try store.lastSample(ofShift: open.id)?.timestamp ?? open.shift.startedAt
    _ = try store.endShift(open.id, at: last, endedBy: .captureLost)
  }
}
