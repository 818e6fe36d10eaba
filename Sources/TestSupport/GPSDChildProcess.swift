import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A child process in a process group of its own (gpsfake and the gpsd it starts, or a
/// gpsd), so a test can end the whole group at once, even after a failure. Spawned with
/// posix_spawn and reaped with waitpid: Foundation's Process already makes its child a
/// group leader (so `setsid` would fork away from it) and cannot be waited on reliably
/// once the group is killed.
public final class GPSDChildProcess: @unchecked Sendable {
  public let pid: pid_t
  private let lock = NSLock()
  private var reaped = false

  /// Starts `executable` with `arguments`, its output going to `outputPath` (or nowhere).
  public init(executable: String, arguments: [String], outputPath: String? = nil) throws {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    let output = outputPath ?? "/dev/null"
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_APPEND, 0o644)
    posix_spawn_file_actions_adddup2(&actions, 1, 2)
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
    posix_spawnattr_setpgroup(&attributes, 0)
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var child: pid_t = 0
    let status = posix_spawn(&child, executable, &actions, &attributes, argv, environ)
    guard status == 0 else {
      throw GPSDFake.Failure(description: "cannot start \(executable): \(String(cString: strerror(status)))")
    }
    pid = child
  }

  /// Whether the child is still running (reaps it if it has exited).
  public var isRunning: Bool {
    lock.lock()
    defer { lock.unlock() }
    guard !reaped else { return false }
    var status: Int32 = 0
    if waitpid(pid, &status, WNOHANG) == pid {
      reaped = true
      return false
    }
    return true
  }

  /// SIGKILL to the whole group, then reaps the child. Safe to call twice.
  public func killGroup() {
    lock.lock()
    defer { lock.unlock() }
    guard !reaped else { return }
    kill(-pid, SIGKILL)
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0, errno == EINTR {}
    reaped = true
  }

  deinit { killGroup() }
}
