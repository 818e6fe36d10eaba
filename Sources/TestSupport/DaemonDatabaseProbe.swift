import Foundation

/// The database as another process sees it: the sqlite3 command-line shell opened
/// read-only, so the test never writes to the file it judges.
public enum DaemonDatabaseProbe {
  public struct Failure: Error, CustomStringConvertible {
    public var description: String
  }

  public static func query(_ path: String, _ sql: String) throws -> [String] {
    let outcome = try ProcessRunner.run(
      URL(fileURLWithPath: "/usr/bin/sqlite3"), ["-readonly", "-cmd", ".timeout 10000", path, sql])
    guard outcome.status == 0 else {
      throw Failure(description: "sqlite3 \(sql) exited \(outcome.status): \(outcome.standardError)")
    }
    return outcome.standardOutput.split(separator: "\n").map(String.init)
  }

  public static func integrity(_ path: String) throws -> [String] { try query(path, "PRAGMA integrity_check") }

  public static func sampleIDs(_ path: String, shift: Int) throws -> Set<Int> {
    Set(try query(path, "SELECT id FROM samples WHERE shift_id = \(shift)").compactMap { Int($0) })
  }
}
