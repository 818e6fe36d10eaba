// The histories the year benchmarks run on, written once by HistoryGenerator and cached
// under .build/history, keyed by the generator's version and the parameters (the file and
// a JSON summary beside it), so a rerun does not write a year again. Each run works on a
// copy: the daemon may write to what it opens.
import Foundation
import HistoryGenerator
import TestSupport

struct YearHistories {
  /// A history's cached file and what the generator says it holds.
  struct History {
    let label: String
    let path: String
    let summary: HistorySummary
  }

  /// 250 working days of 8 h at 1 Hz: the year.
  static let year = HistoryParameters(rate: 1, shifts: 250, hours: 8, seed: 1)
  /// The last quarter of that year (the same shifts: a shift's rows depend on its day).
  static let threeMonths = HistoryParameters(rate: 1, shifts: 63, hours: 8, seed: 1)
  /// A file with no shift at all, as the store creates it.
  static let empty = HistoryParameters(rate: 1, shifts: 0, hours: 8, seed: 1)
  /// One long day of a 10 Hz receiver.
  static let tenHoursTenHz = HistoryParameters(rate: 10, shifts: 1, hours: 10, seed: 1)
  /// The quarter again in a file 0.1.0 made and today's store upgraded in place.
  static let threeMonthsRelease = HistoryParameters(rate: 1, shifts: 63, hours: 8, seed: 1, layout: .release010)

  let directory: URL

  init() throws {
    directory = TestPaths.repositoryRoot.appendingPathComponent(".build/history")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  }

  /// The cached history for `parameters`, written now if there is none (and said so).
  func history(_ parameters: HistoryParameters, label: String) throws -> History {
    let base = directory.appendingPathComponent(parameters.cacheKey)
    let path = base.path + ".sqlite"
    let summaryURL = base.appendingPathExtension("json")
    if FileManager.default.fileExists(atPath: path), let data = try? Data(contentsOf: summaryURL),
      let summary = try? JSONDecoder().decode(HistorySummary.self, from: data)
    {
      say("\(label): cached \(path) (written \(summary.generatedOn) in \(rounded(summary.seconds)) s)")
      return History(label: label, path: path, summary: summary)
    }
    say("\(label): writing \(path) ...")
    let summary = try HistoryWriter.write(parameters, to: path)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    try encoder.encode(summary).write(to: summaryURL, options: .atomic)
    say("\(label): generated now: \(summary.sentence)")
    return History(label: label, path: path, summary: summary)
  }

  /// A copy of `history` in `directory` for a daemon to open; its pages dropped from the
  /// page cache, as if the box had just been switched on.
  static func workingCopy(of history: History, in directory: URL) throws -> String {
    let path = directory.appendingPathComponent("\(history.label).sqlite").path
    for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    try FileManager.default.copyItem(atPath: history.path, toPath: path)
    ColdCache.drop(database: path)
    return path
  }

  func say(_ line: String) { FileHandle.standardError.write(Data("year: \(line)\n".utf8)) }

  func rounded(_ value: Double) -> Double { (value * 10).rounded() / 10 }
}
