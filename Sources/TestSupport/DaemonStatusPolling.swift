import DashPilotCore
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Why an end-to-end step could not go on, with what the processes said.
public struct DaemonTestFailure: Error, CustomStringConvertible {
  public var description: String
  public init(_ description: String) { self.description = description }
}

extension DaemonUnderTest {
  /// `dashpilotctl ARGUMENTS --json`, parsed; throws with what it printed when it fails.
  public func controlJSON(_ arguments: [String]) throws -> [String: Any] {
    let outcome = try control(arguments + ["--json"])
    guard outcome.status == 0,
      let object = try? JSONSerialization.jsonObject(with: Data(outcome.standardOutput.utf8)) as? [String: Any]
    else {
      throw DaemonTestFailure(
        "dashpilotctl \(arguments.joined(separator: " ")) exited \(outcome.status): \(outcome.standardOutput) \(outcome.standardError)"
      )
    }
    return object
  }

  /// Polls `status --json` until `condition` holds; the last status, or nil on timeout.
  public func waitForStatus(timeout: Double, _ condition: ([String: Any]) -> Bool) -> [String: Any]? {
    let deadline = Date(timeIntervalSinceNow: timeout)
    repeat {
      if let status = try? controlJSON(["status"]), condition(status) { return status }
      usleep(200_000)
    } while Date() < deadline
    return nil
  }

  /// Waits until the daemon has heard the drive up to `lastFix` and stored everything it
  /// kept (the shift's usable positions equal capture's accepted fixes); the last status,
  /// or nil on timeout.
  public func waitUntilRecorded(through lastFix: Date, timeout: Double = 120) -> [String: Any]? {
    waitForStatus(timeout: timeout) { status in
      guard let text = status.object("gpsd")?["last_fix_at"] as? String, let seen = UTCTimestamp.parse(text),
        seen >= lastFix, let accepted = status.object("capture")?["accepted"] as? Int
      else { return false }
      return status.object("shift.distance")?["usable_positions"] as? Int == accepted
    }
  }
}

extension Dictionary where Key == String, Value == Any {
  /// The object at a dotted path ("shift.distance"), for short assertions on JSON.
  public func object(_ path: String) -> [String: Any]? {
    var current: [String: Any]? = self
    for key in path.split(separator: ".") { current = current?[String(key)] as? [String: Any] }
    return current
  }
}
