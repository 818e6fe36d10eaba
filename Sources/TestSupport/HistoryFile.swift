import Foundation

/// A database holding months of recorded shifts, for a test that needs a long history
/// under a daemon: written by the built `dashpilot-history` (HistoryGenerator, through the
/// store's own code; the same parameters give the same rows), smaller than a year when the
/// test needs less.
public struct HistoryFile: Sendable {
  public let path: String
  /// What the generator says it wrote (its `--json`), as text.
  public let summary: String
  /// The summary's numeric `counts`: "samples", "shifts", "captureSessions", "gaps",
  /// "firstShiftID", "lastShiftID", "longestShiftID", "longestShiftSamples", ...
  public let counts: [String: Int]

  /// Writes `shifts` working days of `hours` at `rate` fixes a second to `path`, dated
  /// back from `until` (YYYY-MM-DD; today by default).
  public init(
    path: String, rate: Double = 1, shifts: Int, hours: Double = 8, seed: UInt64 = 1, until: String? = nil,
    timeout: TimeInterval = 600
  ) throws {
    var arguments = [
      "--file", path, "--rate", "\(rate)", "--shifts", "\(shifts)", "--hours", "\(hours)", "--seed", "\(seed)",
      "--json",
    ]
    if let until { arguments += ["--until", until] }
    let outcome = try ProcessRunner.run(try DaemonBinaries.url("dashpilot-history"), arguments, timeout: timeout)
    guard outcome.status == 0,
      let object = try? JSONSerialization.jsonObject(with: Data(outcome.standardOutput.utf8)) as? [String: Any]
    else {
      throw DaemonTestFailure(
        "dashpilot-history \(arguments.joined(separator: " ")) exited \(outcome.status): \(outcome.standardError)")
    }
    self.path = path
    summary = outcome.standardOutput
    counts = ((object["counts"] as? [String: Any]) ?? [:]).compactMapValues { ($0 as? NSNumber)?.intValue }
  }
}
