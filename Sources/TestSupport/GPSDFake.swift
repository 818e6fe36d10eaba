import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A real gpsd fed a fixture by `gpsfake` (Debian's gpsd-clients), on a free port of its own
/// (never the system's 2947), in a process group of its own so that `stop()` ends gpsfake
/// and the gpsd it started together, even when a test fails half way.
public final class GPSDFake: @unchecked Sendable {
  public struct Failure: Error, CustomStringConvertible {
    public var description: String
  }

  public let port: Int
  private let process: GPSDChildProcess
  private let output: URL

  /// Starts `gpsfake -1 -q -P PORT -c CYCLE LOG` and waits until gpsd accepts connections.
  /// gpsfake starts feeding the log when the first client connects.
  public init(log: URL, cycle: Double = 0.02, startTimeout: Double = 10) throws {
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/gpsfake") else {
      throw Failure(description: "gpsfake is not installed (Debian package gpsd-clients)")
    }
    port = try FreePort.find()
    output = FileManager.default.temporaryDirectory.appendingPathComponent("gpsfake-\(UUID().uuidString).log")
    _ = FileManager.default.createFile(atPath: output.path, contents: nil)
    process = try GPSDChildProcess(
      executable: "/usr/bin/gpsfake",
      arguments: ["-1", "-q", "-P", String(port), "-c", String(cycle), log.path],
      outputPath: output.path)
    guard FreePort.waitUntilListening(port: port, timeout: startTimeout) else {
      stop()
      throw Failure(description: "gpsd from gpsfake did not listen on port \(port): \(self.log())")
    }
  }

  /// Whether gpsfake is still running.
  public var isRunning: Bool { process.isRunning }

  /// What gpsfake and gpsd printed, for a failing test's message.
  public func log() -> String {
    (try? String(contentsOf: output, encoding: .utf8)) ?? ""
  }

  /// Kills gpsfake and its gpsd (SIGKILL to the group: gpsfake ignores SIGTERM while it
  /// waits for a client). Safe to call twice.
  public func stop() {
    process.killGroup()
  }

  deinit {
    stop()
    try? FileManager.default.removeItem(at: output)
  }
}
