import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// What the unit promises about files, checked on what the real daemon creates: started
/// under the unit's UMask=0027, its socket is 0660 and its database files are not
/// world-readable; while a shift records, a uid outside the socket group cannot change it.
@Suite(
  "permissions of a recording dashpilotd's files and socket", .serialized,
  .requiresRoot)
struct DaemonFilePermissionTests {
  /// Starts the daemon with the unit's umask (the test process's umask is restored at once;
  /// the child keeps what it was forked with).
  static func startUnderUnitUmask() throws -> DaemonUnderTest {
    let previous = umask(0o027)
    defer { umask(previous) }
    return try DaemonUnderTest()
  }

  static func mode(_ path: String) -> mode_t? {
    var status = stat()
    guard lstat(path, &status) == 0 else { return nil }
    return status.st_mode & 0o7777
  }

  func asNobody(_ daemon: DaemonUnderTest, _ arguments: [String]) throws -> ProcessOutcome {
    try ProcessRunner.run(
      URL(fileURLWithPath: "/usr/bin/setpriv"),
      ["--reuid=65534", "--regid=65534", "--clear-groups", try DaemonBinaries.url("dashpilotctl").path]
        + arguments + ["--socket", daemon.socketPath],
      environment: ["NO_COLOR": "1", "PATH": "/usr/bin:/bin"])
  }

  @Test("socket 0660, database, WAL and shared-memory files 0640 under UMask=0027")
  func fileModes() throws {
    let daemon = try Self.startUnderUnitUmask()
    defer { daemon.stop() }
    try daemon.waitUntilReady(timeout: 30)
    #expect(try daemon.controlJSON(["shift", "start"])["id"] as? Int == 1)
    #expect(Self.mode(daemon.socketPath) == 0o660)
    for suffix in ["", "-wal", "-shm"] {
      let path = daemon.databasePath + suffix
      let mode = try #require(Self.mode(path), "\(path) does not exist")
      #expect(mode & 0o007 == 0, "\(path) is \(String(mode, radix: 8)): world may read it")
      #expect(mode == 0o640, "\(path) is \(String(mode, radix: 8))")
    }
  }

  @Test("nobody: cannot open the 0660 socket (exit 3); given a world-open socket, is refused shift start (exit 1)")
  func nobodyCannotChangeARecordingShift() throws {
    let daemon = try Self.startUnderUnitUmask()
    defer { daemon.stop() }
    try daemon.waitUntilReady(timeout: 30)
    #expect(try daemon.controlJSON(["shift", "start"])["id"] as? Int == 1)

    let shut = try asNobody(daemon, ["shift", "start"])
    #expect(shut.status == 3)
    #expect(shut.standardError.hasPrefix("dashpilotctl: You may not open dashpilotd's socket \(daemon.socketPath)"))

    // Even reaching the daemon, the peer's uid decides (SO_PEERCRED), not the file mode.
    #expect(chmod(daemon.socketPath, 0o666) == 0)
    for arguments in [["shift", "start"], ["shift", "end"]] {
      let refused = try asNobody(daemon, arguments)
      #expect(refused.status == 1, "\(arguments)")
      #expect(refused.standardError.hasPrefix("dashpilotctl: dashpilotd refused: shift."), "\(refused.standardError)")
      #expect(refused.standardError.hasSuffix("may do that (permission_denied)\n"), "\(refused.standardError)")
    }
    #expect(daemon.log.contains("refused shift.start from uid 65534"))
    // The shift nobody tried to touch is still the one recording.
    let status = try daemon.controlJSON(["status"])
    #expect(status.object("shift")?["id"] as? Int == 1)
    #expect(
      try DaemonDatabaseProbe.query(daemon.databasePath, "SELECT count(*) FROM shifts WHERE ended_at_ms IS NULL") == [
        "1"
      ])
  }
}
