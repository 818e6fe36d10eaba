// Writes a history of recorded shifts into a database file, through the store's own code,
// for benchmarks and tests of a box that has recorded for months or years
// (scripts/history/make-history.sh runs it). Usage: see `usage` below.
import Foundation
import HistoryGenerator

let usage = """
  USAGE: dashpilot-history --file PATH [--rate HZ] [--shifts N] [--hours H] [--seed S]
                           [--layout current|0.1.0] [--until YYYY-MM-DD] [--json]

  Writes N shifts of H hours (default 250 of 8: a year of working days), one each working
  day (Monday to Friday) before --until (default today, UTC), recorded at HZ fixes a second
  while driving (default 1), with red lights, delivery stops, a break, and a few capture
  gaps each followed by a new capture session. The same options give the same rows.
  --layout 0.1.0 starts from the database 0.1.0 wrote (4 KiB pages, AUTOINCREMENT).
  PATH is replaced. Prints what it wrote (--json: as JSON), generatorVersion included.
  """

func fail(_ message: String, status: Int32 = 2) -> Never {
  FileHandle.standardError.write(Data("dashpilot-history: \(message)\n".utf8))
  exit(status)
}

var parameters = HistoryParameters()
var file: String?
var json = false
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
  func value() -> String {
    guard let next = arguments.popFirst() else { fail("\(argument) needs a value\n\(usage)") }
    return next
  }
  func number(_ text: String) -> Double {
    guard let number = Double(text) else { fail("\(argument) \(text) is not a number") }
    return number
  }
  switch argument {
  case "--file": file = value()
  case "--rate": parameters.rate = number(value())
  case "--shifts":
    let text = value()
    guard let shifts = Int(text) else { fail("--shifts \(text) is not a whole number") }
    parameters.shifts = shifts
  case "--hours": parameters.hours = number(value())
  case "--seed":
    let text = value()
    guard let seed = UInt64(text) else { fail("--seed \(text) must be a whole number from 0") }
    parameters.seed = seed
  case "--layout":
    let text = value()
    guard let layout = HistoryParameters.Layout(rawValue: text) else {
      fail(
        "--layout \(text) must be one of \(HistoryParameters.Layout.allCases.map(\.rawValue).joined(separator: ", "))")
    }
    parameters.layout = layout
  case "--until":
    do { parameters.until = try HistoryParameters.day(value()) } catch { fail("\(error)") }
  case "--json": json = true
  case "--version":
    print("dashpilot-history generator \(HistoryParameters.generatorVersion)")
    exit(0)
  case "--help", "-h":
    print(usage)
    exit(0)
  default: fail("unknown option \(argument)\n\(usage)")
  }
}
guard let file else { fail("--file PATH is required\n\(usage)") }
do { try parameters.validate() } catch { fail("\(error)") }

let showsProgress = isatty(STDERR_FILENO) == 1
do {
  let summary = try HistoryWriter.write(parameters, to: file) { done, all in
    guard showsProgress, done % 10 == 0 || done == all else { return }
    FileHandle.standardError.write(Data("\rdashpilot-history: \(done) of \(all) shifts".utf8))
    if done == all { FileHandle.standardError.write(Data("\n".utf8)) }
  }
  if json {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    print(String(decoding: try encoder.encode(summary), as: UTF8.self))
  } else {
    print("\(file): \(summary.sentence)")
  }
} catch {
  fail("could not write \(file): \(error)", status: 1)
}
