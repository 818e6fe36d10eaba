import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// Says announcements through the configured speech command, never holding up the loop:
/// each line is a child process (posix_spawn, no shell) that reads the text on its standard
/// input, as `espeak-ng -v ko` does when given no text. The text is in the pipe before the
/// child starts, so the loop never waits on it; children are reaped with
/// `waitpid(WNOHANG)` from `reap()`, which the owner calls once a second.
///
/// A command that cannot start, exits with a failure or falls behind is reported once
/// through `onFailure` (a daemon that says the same complaint every announcement fills the
/// journal); guidance goes on silently either way.
public final class Speaker {
  public let command: SpeechCommand
  /// Lines still being spoken beyond this many are dropped: a command that hangs must not
  /// pile up processes.
  public let maximumSpeaking: Int
  private let onFailure: (String) -> Void
  private var speaking: [pid_t: String] = [:]
  private var hasReportedFailure = false
  /// Lines handed to a child that started, and children that ended well.
  public private(set) var started = 0
  public private(set) var succeeded = 0

  public init(command: SpeechCommand, maximumSpeaking: Int = 3, onFailure: @escaping (String) -> Void) {
    self.command = command
    self.maximumSpeaking = maximumSpeaking
    self.onFailure = onFailure
  }

  /// How many children are still running (or not yet reaped).
  public var speakingCount: Int { speaking.count }

  /// Starts speaking `text`; returns whether a child was started.
  @discardableResult
  public func speak(_ text: String) -> Bool {
    reap()
    guard speaking.count < maximumSpeaking else {
      report("the speech command \(command.program) is still speaking \(speaking.count) earlier lines; \"\(text)\" was dropped")
      return false
    }
    switch spawn(text) {
    case .success(let pid):
      speaking[pid] = text
      started += 1
      return true
    case .failure(let problem):
      report("the speech command \(command.program) could not be started: \(problem)")
      return false
    }
  }

  /// Collects the children that have ended, without waiting for the others.
  public func reap() {
    for (pid, text) in speaking {
      var status: Int32 = 0
      let result = waitpid(pid, &status, WNOHANG)
      if result == 0 { continue }
      speaking[pid] = nil
      guard result == pid else { continue }  // ECHILD: someone else reaped it
      let signal = status & 0x7f
      let exitStatus = (status >> 8) & 0xff
      if signal == 0 && exitStatus == 0 {
        succeeded += 1
      } else {
        let how = signal == 0 ? "exited with status \(exitStatus)" : "was killed by signal \(signal)"
        report("the speech command \(command.program) \(how) saying \"\(text)\"")
      }
    }
  }

  private func report(_ problem: String) {
    guard !hasReportedFailure else { return }
    hasReportedFailure = true
    onFailure(problem)
  }

  private struct SpawnProblem: Error, CustomStringConvertible {
    var description: String
  }

  private func spawn(_ text: String) -> Result<pid_t, SpawnProblem> {
    var fds: [Int32] = [0, 0]
    guard pipe(&fds) == 0 else { return .failure(SpawnProblem(description: "pipe: \(String(cString: strerror(errno)))")) }
    let (readEnd, writeEnd) = (fds[0], fds[1])
    _ = fcntl(readEnd, F_SETFD, FD_CLOEXEC)
    _ = fcntl(writeEnd, F_SETFD, FD_CLOEXEC)
    _ = fcntl(writeEnd, F_SETFL, fcntl(writeEnd, F_GETFL) | O_NONBLOCK)
    // An announcement is a sentence, far below the pipe's 64 KiB: it is written whole
    // before the child exists, and the write end closed, so the child reads it and then EOF.
    let line = Array((text + "\n").utf8.prefix(4000))
    let written = line.withUnsafeBytes { write(writeEnd, $0.baseAddress, $0.count) }
    close(writeEnd)
    defer { close(readEnd) }
    guard written == line.count else {
      return .failure(SpawnProblem(description: "could not hand it the text: \(String(cString: strerror(errno)))"))
    }

    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, readEnd, 0)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    // Standard error stays the daemon's (the journal), so the command's own complaint is
    // kept; the daemon's other descriptors (sockets, pipes, the database) are close-on-exec.
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    // The daemon blocks and catches signals; the speaker starts with the defaults.
    var defaults = sigset_t()
    sigemptyset(&defaults)
    for number in [SIGTERM, SIGINT, SIGHUP, SIGPIPE, SIGCHLD] { sigaddset(&defaults, number) }
    var unblocked = sigset_t()
    sigemptyset(&unblocked)
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setsigmask(&attributes, &unblocked)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

    let argv = command.arguments.map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var pid: pid_t = 0
    let result = posix_spawnp(&pid, command.program, &actions, &attributes, argv, environ)
    guard result == 0 else { return .failure(SpawnProblem(description: String(cString: strerror(result)))) }
    return .success(pid)
  }
}
