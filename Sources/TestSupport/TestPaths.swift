import Foundation

/// Where tests find the repository, its fixtures and `../shared` beside it.
public enum TestPaths {
  /// The repository root, found from this file's path.
  public static let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  public static var fixtures: URL { repositoryRoot.appendingPathComponent("Fixtures") }

  /// `../shared`, beside the repository (CI lays it there), where `SharedLogs` looks by default.
  public static var shared: URL {
    repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared")
  }

  /// gpsd's regression logs (`SharedLogs.gpsdLogs`: `DASHPILOT_GPSD_LOGS`, else
  /// `../shared/gpsd-logs`); a test reading them carries `.requiresGPSDLogs`.
  public static var gpsdLogs: URL { SharedLogs.gpsdLogs }

  /// A fresh temporary directory, removed by the caller when done.
  public static func temporaryDirectory(_ label: String = "dashpilot") throws -> URL {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("\(label)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }
}
