import Foundation

/// What a generated file holds, as the generator wrote it: kept beside a cached file (JSON)
/// so a benchmark knows the file's shifts without opening it, and printed by
/// `dashpilot-history`.
public struct HistorySummary: Codable, Sendable, Hashable {
  public struct Counts: Codable, Sendable, Hashable {
    public var shifts = 0
    public var samples = 0
    public var heldSamples = 0
    public var captureSessions = 0
    /// Sessions that ended in a capture gap (not with their shift).
    public var gaps = 0
    public var firstShiftID: Int64?
    public var lastShiftID: Int64?
    /// The generated shift with the most rows, and how many.
    public var longestShiftID: Int64?
    public var longestShiftSamples = 0
    /// Hours from each shift's start to its end, summed.
    public var shiftHours: Double = 0
    public var firstDay: String?
    public var lastDay: String?

    mutating func add(_ shift: GeneratedShift, id: Int64) {
      shifts += 1
      let rows = shift.sampleCount
      samples += rows
      for session in shift.sessions { heldSamples += session.samples.count { sample in sample.isHeld } }
      captureSessions += shift.sessions.count
      gaps += shift.sessions.count { $0.endReason.code != "capture_stopped" }
      firstShiftID = firstShiftID ?? id
      lastShiftID = id
      if rows > longestShiftSamples {
        longestShiftSamples = rows
        longestShiftID = id
      }
      shiftHours += shift.end.timeIntervalSince(shift.start) / 3_600
      firstDay = firstDay ?? WorkingDays.text(shift.start)
      lastDay = WorkingDays.text(shift.start)
    }
  }

  public var generatorVersion: Int
  public var rate: Double
  public var hours: Double
  public var seed: UInt64
  public var layout: String
  /// The day after the last shift (YYYY-MM-DD).
  public var until: String
  public var counts: Counts
  /// The file's size once written and checkpointed (no -wal left), and its page size.
  public var bytes: Int64
  public var pageSize: Int
  /// How long writing took, the processor time it used (user and system: what a busy
  /// machine does not inflate), and when it was done (YYYY-MM-DD).
  public var seconds: Double
  public var cpuSeconds: Double
  public var generatedOn: String

  init(parameters: HistoryParameters, path: String, counts: Counts, seconds: Double, cpuSeconds: Double) throws {
    generatorVersion = HistoryParameters.generatorVersion
    rate = parameters.rate
    hours = parameters.hours
    seed = parameters.seed
    layout = parameters.layout.rawValue
    until = WorkingDays.text(parameters.until)
    self.counts = counts
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    bytes = (attributes[.size] as? NSNumber)?.int64Value ?? 0
    pageSize = try Self.pageSize(path: path)
    self.seconds = seconds
    self.cpuSeconds = cpuSeconds
    generatedOn = WorkingDays.text(Date())
  }

  /// The page size SQLite wrote in the file's header (offset 16, big-endian; 1 means 65536).
  static func pageSize(path: String) throws -> Int {
    let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
    defer { try? handle.close() }
    let header = try handle.read(upToCount: 18) ?? Data()
    guard header.count == 18 else { return 0 }
    let value = Int(header[16]) << 8 | Int(header[17])
    return value == 1 ? 65_536 : value
  }

  /// User and system time this process has used, seconds.
  static func processorSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
      + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
  }

  /// Bytes of file per hour of shift.
  public var bytesPerShiftHour: Double { counts.shiftHours > 0 ? Double(bytes) / counts.shiftHours : 0 }

  /// One line for a person: what was written, how big, how long it took.
  public var sentence: String {
    let megabytes = (Double(bytes) / 1e6 * 10).rounded() / 10
    let days = counts.firstDay.map { first in " from \(first) to \(counts.lastDay ?? first)" } ?? ""
    let rate = (Double(counts.samples) / max(seconds, 0.001)).rounded()
    return
      "\(counts.shifts) shifts of \(HistoryParameters.number(hours)) h at \(HistoryParameters.number(self.rate)) Hz"
      + "\(days): \(counts.samples) samples (\(counts.heldSamples) held), \(counts.captureSessions) capture sessions "
      + "(\(counts.gaps) gaps); \(megabytes) MB in \(pageSize)-byte pages, "
      + "\(Int(bytesPerShiftHour.rounded())) bytes per hour of shift; "
      + "written in \((seconds * 10).rounded() / 10) s (\((cpuSeconds * 10).rounded() / 10) s of CPU; "
      + "\(Int(rate)) samples/s)"
  }
}
