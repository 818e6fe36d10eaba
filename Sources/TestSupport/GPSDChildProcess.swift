import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A child process in a process group of its own (gpsfake and the gpsd it starts, or a
/// gpsd), so a test can end the whole group at once, even after a failure. Spawned with
/// posix_spawn and reaped with waitpid: Foundation's Process already makes its child a
/// group leader (so `setsid` would fork away from it) and cannot be waited on reliably
/// once the group is killed.
///
/// The child inherits no descriptor but its standard ones. posix_spawn passes on every
/// descriptor without close-on-exec, and the test process opens sockets on many threads:
/// a gpsd started while another thread held a socket bound to its own gpsd's port (for an
/// instant, in `FreePort.canBind`) kept that port bound for its life, and the other gpsd,
/// refused 127.0.0.1 ("can't bind to IPv4 port"), listened on ::1 alone and "did not
/// listen".
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
    Self.closeInheritedDescriptors(&actions)
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    // A test runs on a thread of Swift's pool, whose signals are all blocked, and a spawned
    // child inherits that mask: gpsfake then ignores the SIGTERM that stops it. Start it with
    // none blocked.
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK))
    posix_spawnattr_setpgroup(&attributes, 0)
    var unblocked = sigset_t()
    sigemptyset(&unblocked)
    posix_spawnattr_setsigmask(&attributes, &unblocked)
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var child: pid_t = 0
    let status = posix_spawn(&child, executable, &actions, &attributes, argv, environ)
    guard status == 0 else {
      throw GPSDFake.Failure(description: "cannot start \(executable): \(String(cString: strerror(status)))")
    }
    pid = child
  }

  /// Closes every descriptor above 2 in the child: glibc's
  /// posix_spawn_file_actions_addclosefrom_np (2.34, Debian 12 has 2.36), which Swift's
  /// Glibc module does not declare, so it is looked up. The sockets TestSupport opens are
  /// close-on-exec as well, for a libc without it.
  static func closeInheritedDescriptors(_ actions: inout posix_spawn_file_actions_t) {
    typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else { return }
    _ = unsafeBitCast(symbol, to: CloseFrom.self)(&actions, 3)
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

extension GPSDChildProcess {
  /// A real gpsd (`gpsd -N -n -b -S PORT ARGUMENTS`: foreground, read-only, reading its
  /// devices at once) that listens on 127.0.0.1:`port` within `timeout`. What it prints
  /// goes to `outputPath`, and a gpsd that does not listen is killed and its output put in
  /// the error (the one clue to why: "can't bind to IPv4 port", a device it could not open).
  public static func gpsd(
    port: Int, _ arguments: [String], outputPath: String, timeout: Double = 10
  ) throws -> GPSDChildProcess {
    let process = try GPSDChildProcess(
      executable: "/usr/sbin/gpsd", arguments: ["-N", "-n", "-b", "-S", String(port)] + arguments,
      outputPath: outputPath)
    guard FreePort.waitUntilListening(port: port, timeout: timeout, while: { process.isRunning }) else {
      let exited = !process.isRunning
      process.killGroup()
      let printed = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
      throw GPSDFake.Failure(
        description: "gpsd did not listen on 127.0.0.1:\(port)\(exited ? " (it exited)" : "") within \(timeout) s; "
          + "it printed: \(printed.isEmpty ? "nothing" : printed)")
    }
    return process
  }
}
