import Foundation

/// Recordings the tests read but the repository does not hold (they are not ours to
/// commit): gpsd's regression logs and other projects' receiver recordings, each found
/// through an environment variable or, by default, in `../shared` beside the repository.
public enum SharedLogs {
  /// gpsd's regression logs, `NAME.log` (what the receiver sent) and `NAME.log.chk` (what
  /// gpsd 3.22 made of it): `DASHPILOT_GPSD_LOGS` (a gpsd source tree's `test/daemon`
  /// works), else `../shared/gpsd-logs`.
  public static var gpsdLogs: URL { directory("DASHPILOT_GPSD_LOGS", default: "gpsd-logs") }

  /// Receiver recordings from other public projects, each with its notes:
  /// `DASHPILOT_REAL_LOGS`, else `../shared/real-logs`.
  public static var realLogs: URL { directory("DASHPILOT_REAL_LOGS", default: "real-logs") }

  public static let gpsdLogsPrecondition = TestPrecondition(
    unmet: files(in: gpsdLogs, endingWith: ".log.chk")
      ? nil
      : "needs gpsd's regression logs (no NAME.log.chk in \(gpsdLogs.path)): set DASHPILOT_GPSD_LOGS to "
        + "a gpsd source tree's test/daemon (git clone https://gitlab.com/gpsd/gpsd.git), or put them in ../shared/gpsd-logs"
  )

  public static let realLogsPrecondition = TestPrecondition(
    unmet: files(in: realLogs, endingWith: ".nmea")
      ? nil
      : "needs the shared real-receiver recordings (no NAME.nmea in \(realLogs.path)): set DASHPILOT_REAL_LOGS "
        + "to their folder, or put them in ../shared/real-logs")

  private static func directory(_ variable: String, default name: String) -> URL {
    if let path = ProcessInfo.processInfo.environment[variable], !path.isEmpty {
      return URL(fileURLWithPath: path, isDirectory: true)
    }
    return TestPaths.shared.appendingPathComponent(name, isDirectory: true)
  }

  private static func files(in directory: URL, endingWith suffix: String) -> Bool {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    return names.contains { $0.hasSuffix(suffix) }
  }
}
