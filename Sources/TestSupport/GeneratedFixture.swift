import Foundation

/// A fixture too large or too slow to commit, made by a generator script through the real
/// gpsd: made once into `.build/generated/FOLDER/KEY` (KEY: a hash of the generator and the
/// scripts it imports, so a changed generator makes it afresh) and read from there by the
/// tests and `dashpilot-bench`. Needs python3, gpsd and gpsfake (`.requiresPython3`,
/// `.requiresGPSFake`).
public struct GeneratedFixture: Sendable {
  public struct Unavailable: Error, CustomStringConvertible {
    public var description: String
  }

  /// The folder under `.build/generated`.
  public var folder: String
  /// The generator (run with the directory to fill) and the scripts it imports, in
  /// scripts/fixtures.
  public var scripts: [String]
  /// The file the generator writes last: its presence says the directory is whole.
  public var marker: String
  public var timeout: TimeInterval

  public init(folder: String, scripts: [String], marker: String, timeout: TimeInterval) {
    self.folder = folder
    self.scripts = scripts
    self.marker = marker
    self.timeout = timeout
  }

  /// The directory holding the fixture, made if missing.
  public func directory() throws -> URL {
    let source = TestPaths.repositoryRoot.appendingPathComponent("scripts/fixtures")
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for script in scripts {
      for byte in try Data(contentsOf: source.appendingPathComponent(script)) {
        hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
      }
    }
    let generated = TestPaths.repositoryRoot.appendingPathComponent(".build/generated/\(folder)")
    let directory = generated.appendingPathComponent(String(hash, radix: 16))
    if FileManager.default.fileExists(atPath: directory.appendingPathComponent(marker).path) {
      return directory
    }
    try FileManager.default.createDirectory(at: generated, withIntermediateDirectories: true)
    let making = generated.appendingPathComponent("making-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: making) }
    // A test runner's threads block most signals, and a child inherits the mask: gpsd under
    // gpsfake would never see gpsfake's SIGTERM, and gpsfake would wait for it. So the
    // generator runs with the mask cleared.
    let unblocked =
      "import os, runpy, signal, sys; signal.pthread_sigmask(signal.SIG_SETMASK, []); sys.argv = sys.argv[1:]; "
      + "sys.path.insert(0, os.path.dirname(sys.argv[0])); runpy.run_path(sys.argv[0], run_name='__main__')"
    let outcome = try ProcessRunner.run(
      URL(fileURLWithPath: "/usr/bin/env"),
      ["python3", "-c", unblocked, source.appendingPathComponent(scripts[0]).path, making.path], timeout: timeout)
    guard outcome.status == 0 else {
      throw Unavailable(description: "\(scripts[0]) failed: \(outcome.standardError)")
    }
    // Another process may have made it meanwhile: either copy is the same.
    try? FileManager.default.moveItem(at: making, to: directory)
    return directory
  }
}
