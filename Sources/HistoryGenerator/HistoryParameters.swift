import Foundation

/// What a generated history holds: `shifts` working days of `hours` each, one shift a day,
/// dated back from `until`, recorded at `rate` fixes a second while the vehicle moves.
/// The same parameters (and the same `until`) always give the same rows.
public struct HistoryParameters: Sendable, Hashable {
  /// The file layout the rows are written into.
  public enum Layout: String, Sendable, Hashable, CaseIterable {
    /// A file the store creates today (schema 5: 1 KiB pages, no AUTOINCREMENT).
    case current
    /// A file 0.1.0 made and today's store upgraded in place, as on a box that recorded
    /// since 0.1.0: Fixtures/databases/dashpilot-0.1.0.sqlite (its 4 KiB pages, its
    /// AUTOINCREMENT tables and its three shifts) with the generated shifts after them.
    case release010 = "0.1.0"
  }

  /// Rows kept per second while the vehicle moves: every fix of a receiver at this rate
  /// (the most it can put in the file; capture's 5 m rule keeps fewer at low speed).
  public var rate: Double
  public var shifts: Int
  /// Each shift's length, start to end.
  public var hours: Double
  public var seed: UInt64
  public var layout: Layout
  /// The day after the last shift (a UTC midnight): the shifts fall on the working days
  /// (Monday to Friday) before it, the newest on the last one.
  public var until: Date

  /// Changes whenever the same parameters would write other rows, so a cached file made by
  /// an older generator is never taken for a new one.
  public static let generatorVersion = 1

  public static let rates: ClosedRange<Double> = 0.1...50
  public static let shiftCounts: ClosedRange<Int> = 0...5_000
  public static let shiftHours: ClosedRange<Double> = 0.01...16

  public init(
    rate: Double = 1, shifts: Int = 250, hours: Double = 8, seed: UInt64 = 1, layout: Layout = .current,
    until: Date = HistoryParameters.today()
  ) {
    self.rate = rate
    self.shifts = shifts
    self.hours = hours
    self.seed = seed
    self.layout = layout
    self.until = until
  }

  /// Throws a sentence naming the parameter that cannot be used.
  public func validate() throws(HistoryParameterError) {
    guard rate.isFinite, Self.rates.contains(rate) else {
      throw HistoryParameterError(
        "--rate \(Self.number(rate)) must be between \(Self.number(Self.rates.lowerBound)) and "
          + "\(Self.number(Self.rates.upperBound)) fixes a second")
    }
    guard Self.shiftCounts.contains(shifts) else {
      throw HistoryParameterError("--shifts \(shifts) must be between 0 and \(Self.shiftCounts.upperBound)")
    }
    guard hours.isFinite, Self.shiftHours.contains(hours) else {
      throw HistoryParameterError(
        "--hours \(Self.number(hours)) must be between \(Self.number(Self.shiftHours.lowerBound)) and "
          + "\(Self.number(Self.shiftHours.upperBound))")
    }
    guard until.timeIntervalSince1970.truncatingRemainder(dividingBy: 86_400) == 0 else {
      throw HistoryParameterError("--until must be a day (YYYY-MM-DD), not a time of day")
    }
  }

  /// Names a file made with these parameters, whatever day it was made: "v1-1hz-250x8h-seed1".
  public var cacheKey: String {
    let layoutPart = layout == .current ? "" : "-layout\(layout.rawValue)"
    return "v\(Self.generatorVersion)-\(Self.number(rate))hz-\(shifts)x\(Self.number(hours))h-seed\(seed)\(layoutPart)"
  }

  /// Today's UTC midnight: the default `until`, so a file made today holds shifts up to
  /// yesterday (or the Friday before).
  public static func today(_ now: Date = Date()) -> Date {
    Date(timeIntervalSince1970: (now.timeIntervalSince1970 / 86_400).rounded(.down) * 86_400)
  }

  /// "2026-12-01" as its UTC midnight.
  public static func day(_ text: String) throws(HistoryParameterError) -> Date {
    let parts = text.split(separator: "-").map { Int($0) }
    guard parts.count == 3, let year = parts[0], let month = parts[1], let day = parts[2],
      (1970...9999).contains(year), (1...12).contains(month), (1...31).contains(day)
    else { throw HistoryParameterError("--until \(text) is not a day written YYYY-MM-DD") }
    return Date(timeIntervalSince1970: Double(WorkingDays.daysSinceEpoch(year: year, month: month, day: day)) * 86_400)
  }

  static func number(_ value: Double) -> String {
    value == value.rounded() ? String(Int(value)) : String(value)
  }
}

/// A parameter that cannot be used, in a sentence that names it.
public struct HistoryParameterError: Error, CustomStringConvertible, Sendable {
  public var description: String
  public init(_ description: String) { self.description = description }
}
