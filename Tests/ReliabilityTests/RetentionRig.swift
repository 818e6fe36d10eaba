import Foundation
import TestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// What the retention tests do to a running daemon: import completed shifts dated where they
/// need them (through the socket, as `dashpilotctl import` would), and wait for what the
/// journal says.
enum RetentionRig {
  /// Imports `count` points 100 m apart along a meridian, 10 s apart, the first at `start`
  /// (seconds since 1970): a completed shift that ends at `start + 10 * (count - 1)`.
  /// Returns its id.
  @discardableResult
  static func importShift(_ daemon: DaemonUnderTest, start: Int, count: Int = 20) throws -> Int {
    let points = (0..<count).map {
      #"{"lat":\#(51.5 + Double($0) * 0.000899322),"lon":-0.12,"time":\#(start + $0 * 10),"accuracy":5}"#
    }
    let client = try RawSocketClient(path: daemon.socketPath)
    guard
      let answer = client.ask(
        #"{"v":1,"id":1,"cmd":"import","args":{"name":"logger","points":[\#(points.joined(separator: ","))]}}"#),
      let result = answer["result"] as? [String: Any], let id = result["id"] as? Int
    else { throw DaemonTestFailure("import failed: \(daemon.log)") }
    return id
  }

  /// Seconds since 1970 of a UTC date written YYYY-MM-DD.
  static func day(_ text: String) -> Int {
    Int(ISO8601DateFormatter().date(from: text + "T00:00:00Z")!.timeIntervalSince1970)
  }

  /// Waits until the daemon's log has a line containing `text`; false after `timeout`.
  static func waitForLog(_ daemon: DaemonUnderTest, _ text: String, timeout: Double = 30) -> Bool {
    let deadline = Date(timeIntervalSinceNow: timeout)
    repeat {
      if daemon.log.contains(text) { return true }
      usleep(100_000)
    } while Date() < deadline
    return false
  }

  /// The ids `dashpilotctl shifts` lists, newest first.
  static func listedShifts(_ daemon: DaemonUnderTest) throws -> [Int] {
    let outcome = try daemon.control(["shifts", "--json"])
    guard outcome.status == 0,
      let object = try JSONSerialization.jsonObject(with: Data(outcome.standardOutput.utf8)) as? [String: Any],
      let shifts = object["shifts"] as? [[String: Any]]
    else { throw DaemonTestFailure("shifts failed: \(outcome)") }
    return shifts.compactMap { $0["id"] as? Int }
  }
}
