import Foundation
import TestSupport
import Testing

@testable import Daemon

#if canImport(Glibc)
  import Glibc
#endif

@Suite("Who may change state")
struct AccessPolicyTests {
  let policy = AccessPolicy(daemonUID: 120, socketGID: 130) { uid, _ in uid == 1001 ? [1001, 130] : [uid] }

  @Test("root, the daemon's user and the socket group's members may; others may not")
  func decisions() {
    #expect(policy.mayChangeState(PeerCredentials(pid: 1, uid: 0, gid: 0, groups: [])))
    #expect(policy.mayChangeState(PeerCredentials(pid: 1, uid: 120, gid: 120, groups: [])))
    #expect(policy.mayChangeState(PeerCredentials(pid: 1, uid: 1000, gid: 130, groups: [])))
    #expect(policy.mayChangeState(PeerCredentials(pid: 1, uid: 1000, gid: 1000, groups: [1000, 130])))
    #expect(policy.mayChangeState(PeerCredentials(pid: 1, uid: 1001, gid: 1001, groups: [1001])))
    #expect(!policy.mayChangeState(PeerCredentials(pid: 1, uid: 1000, gid: 1000, groups: [1000, 27])))
    #expect(!policy.mayChangeState(PeerCredentials(pid: 1, uid: 65534, gid: 65534, groups: [])))
  }
}

/// dashpilotctl run as `nobody` (setpriv) against a daemon run as root.
@Suite(
  "Permissions over the real socket", .serialized, .requiresRoot)
struct PermissionProcessTests {
  func asNobody(_ daemon: DaemonUnderTest, groups: String?, _ arguments: [String]) throws -> ProcessOutcome {
    let groupArguments = groups.map { ["--groups=\($0)"] } ?? ["--clear-groups"]
    return try ProcessRunner.run(
      URL(fileURLWithPath: "/usr/bin/setpriv"),
      ["--reuid=65534", "--regid=65534"] + groupArguments
        + [try DaemonBinaries.url("dashpilotctl").path] + arguments + ["--socket", daemon.socketPath],
      environment: ["NO_COLOR": "1", "PATH": "/usr/bin:/bin"])
  }

  @Test("a non-member may read status but not start a shift (exit 1, with a sentence)")
  func nonMember() throws {
    let daemon = try DaemonUnderTest()
    defer { daemon.stop() }
    try daemon.waitUntilReady()
    #expect(chmod(daemon.socketPath, 0o666) == 0)
    let status = try asNobody(daemon, groups: nil, ["status", "--json"])
    #expect(status.status == 0)
    #expect(status.standardOutput.contains(#""pid" : \#(daemon.pid),"#))
    let refused = try asNobody(daemon, groups: nil, ["shift", "start"])
    #expect(refused.status == 1)
    #expect(
      refused.standardError
        == "dashpilotctl: dashpilotd refused: shift.start changes what the daemon records; only root, the daemon's user and members of the socket group (group root) may do that (permission_denied)\n"
    )
    for arguments in [["route", "clear"], ["navigate", "51.5,-0.1"], ["shift", "end"]] {
      let outcome = try asNobody(daemon, groups: nil, arguments)
      #expect(outcome.status == 1)
      #expect(outcome.standardError.contains("(permission_denied)"))
    }
    #expect(daemon.log.contains("refused shift.start from uid 65534"))
    // Root, the daemon's own user, is let through to the recording component.
    #expect(try daemon.control(["shift", "start"]).standardOutput.hasPrefix("Shift #1 started at "))
  }

  @Test("a member of the socket group by a supplementary group may change state")
  func supplementaryMember() throws {
    let daemon = try DaemonUnderTest(config: "[Control]\nSocketGroup=users\n")
    defer { daemon.stop() }
    try daemon.waitUntilReady()
    var status = stat()
    #expect(lstat(daemon.socketPath, &status) == 0)
    #expect(status.st_gid == 100)
    #expect(status.st_mode & 0o777 == 0o660)
    let allowed = try asNobody(daemon, groups: "100", ["shift", "start"])
    #expect(allowed.status == 0)
    #expect(allowed.standardOutput.hasPrefix("Shift #1 started at "))
  }

  @Test("someone who may not open the socket is told which group to join (exit 3)")
  func cannotOpen() throws {
    let daemon = try DaemonUnderTest(config: "[Control]\nSocketGroup=users\n")
    defer { daemon.stop() }
    try daemon.waitUntilReady()
    let outcome = try asNobody(daemon, groups: nil, ["status"])
    #expect(outcome.status == 3)
    #expect(
      outcome.standardError
        == "dashpilotctl: You may not open dashpilotd's socket \(daemon.socketPath): join the group users (`sudo usermod -aG users $USER`, then log in again), or run the command with sudo.\n"
    )
  }
}
