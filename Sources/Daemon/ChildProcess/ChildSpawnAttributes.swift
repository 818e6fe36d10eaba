#if canImport(Glibc)
  import Glibc
#endif

/// The spawn attributes of every child the daemon starts (the speech command, the route
/// reader). The daemon blocks and catches signals, so a child starts with the defaults and
/// nothing blocked; and in a process group of its own, so one past its time is stopped
/// with its children (`kill(-pid, SIGKILL)`).
enum ChildSpawnAttributes {
  /// Runs `body` with the attributes set, destroying them afterwards.
  static func with<Result>(_ body: (UnsafePointer<posix_spawnattr_t>) -> Result) -> Result {
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var defaults = sigset_t()
    sigemptyset(&defaults)
    for number in [SIGTERM, SIGINT, SIGHUP, SIGPIPE, SIGCHLD] { sigaddset(&defaults, number) }
    var unblocked = sigset_t()
    sigemptyset(&unblocked)
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setsigmask(&attributes, &unblocked)
    posix_spawnattr_setpgroup(&attributes, 0)
    posix_spawnattr_setflags(
      &attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETPGROUP))
    return withUnsafePointer(to: &attributes) { body($0) }
  }
}
