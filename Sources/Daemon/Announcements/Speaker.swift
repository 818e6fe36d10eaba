import FoundationEssentials
import PlatformSupport

#if canImport(Glibc)
  import Glibc
#endif

/// Says announcements through the configured speech command, one line at a time and in
/// the order they were announced, never holding up the loop: each line is a child process
/// (posix_spawn, no shell) that reads the text on its standard input, as `espeak-ng -v ko`
/// does when given no text. The text is in the pipe before the child starts, so the loop
/// never waits on it; children are reaped with `waitpid(WNOHANG)` from `reap()`, which the
/// owner calls once a second, and the next waiting line starts as soon as the one before
/// it has been reaped. Two speech commands at once would talk over each other and could
/// finish in either order ("finding a new route" after "no route found").
///
/// Lines wait in a short queue: when it is full, the oldest waiting line is dropped (a line
/// that waited that long is stale) and that is reported every time. A child that speaks
/// longer than `maximumSpeechDuration` is killed, so a hung command cannot silence the rest.
/// A command that cannot start or exits with a failure is reported once through `onFailure`
/// (a daemon that says the same complaint every announcement fills the journal); guidance
/// goes on silently either way.
public final class Speaker {
  public let command: SpeechCommand
  /// Lines waiting behind the one being spoken beyond this many drop the oldest waiting.
  public let maximumWaiting: Int
  /// A child still speaking after this many seconds is killed.
  public let maximumSpeechDuration: TimeInterval
  private let onFailure: (String) -> Void
  /// Whose monotonic clock measures how long a line has been spoken: the daemon's.
  private let clocks: Clocks
  private var speaking: (pid: pid_t, text: String, startedAt: Double)?
  private var waiting: [String] = []
  private var hasReportedFailure = false
  /// Lines handed to a child that started, children that ended well, and lines dropped
  /// from a full queue.
  public private(set) var started = 0
  public private(set) var succeeded = 0
  public private(set) var dropped = 0

  public init(
    command: SpeechCommand, maximumWaiting: Int = 4, maximumSpeechDuration: TimeInterval = 30,
    clocks: Clocks, onFailure: @escaping (String) -> Void
  ) {
    self.command = command
    self.clocks = clocks
    self.maximumWaiting = max(1, maximumWaiting)
    self.maximumSpeechDuration = maximumSpeechDuration
    self.onFailure = onFailure
  }

  /// How many children are still running (or not yet reaped): never more than one.
  public var speakingCount: Int { speaking == nil ? 0 : 1 }

  /// Lines waiting for the one being spoken to end.
  public var waitingCount: Int { waiting.count }

  /// Speaks `text` now, or after the lines before it; returns false only when it could
  /// not be handed to the command at all (the command cannot start).
  @discardableResult
  public func speak(_ text: String) -> Bool {
    reap()
    guard speaking == nil else {
      if waiting.count >= maximumWaiting {
        let oldest = waiting.removeFirst()
        dropped += 1
        // Every drop is said: each is a line the driver did not hear.
        onFailure(
          "the speech command \(command.program) is still speaking and \(maximumWaiting) lines are waiting;"
            + " \"\(oldest)\" was dropped")
      }
      waiting.append(text)
      return true
    }
    return start(text)
  }

  /// Collects the child if it has ended (killing it if it has spoken too long) and starts
  /// the next waiting line, without waiting for anything.
  public func reap() {
    while let current = speaking {
      var status: Int32 = 0
      let result = waitpid(current.pid, &status, WNOHANG)
      if result == 0 {
        if clocks.monotonic() - current.startedAt > maximumSpeechDuration {
          // The whole group: a command that is a script leaves no speaker behind.
          kill(-current.pid, SIGKILL)
          report(
            "the speech command \(command.program) was still speaking \"\(current.text)\""
              + " after \(maximumSpeechDuration) s and was stopped")
          // Collected by the next reap, once the kernel has ended it.
          speaking?.startedAt = .infinity
        }
        return
      }
      speaking = nil
      if result == current.pid {
        let signal = status & 0x7f
        let exitStatus = (status >> 8) & 0xff
        if signal == 0 && exitStatus == 0 {
          succeeded += 1
        } else if current.startedAt.isFinite {
          let how = signal == 0 ? "exited with status \(exitStatus)" : "was killed by signal \(signal)"
          report("the speech command \(command.program) \(how) saying \"\(current.text)\"")
        }
      }  // else ECHILD: someone else reaped it
      startNextWaiting()
    }
  }

  /// Starts the oldest waiting line; a line whose command cannot start is passed over.
  private func startNextWaiting() {
    while speaking == nil, !waiting.isEmpty {
      _ = start(waiting.removeFirst())
    }
  }

  private func start(_ text: String) -> Bool {
    switch spawn(text) {
    case .success(let pid):
      speaking = (pid, text, clocks.monotonic())
      started += 1
      return true
    case .failure(let problem):
      report("the speech command \(command.program) could not be started: \(problem)")
      return false
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
    guard pipe(&fds) == 0 else {
      return .failure(SpawnProblem(description: "pipe: \(String(cString: strerror(errno)))"))
    }
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
    let argv = command.arguments.map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var pid: pid_t = 0
    let result = ChildSpawnAttributes.with { posix_spawnp(&pid, command.program, &actions, $0, argv, environ) }
    guard result == 0 else { return .failure(SpawnProblem(description: String(cString: strerror(result)))) }
    return .success(pid)
  }
}
