import FoundationEssentials
import PlatformSupport

#if canImport(Glibc)
  import Glibc
#endif

/// One run of `dashpilot-route-reader`: the route's text on its standard input, its
/// standard output and error collected, all three through pipes polled together so that
/// neither side waits on a full pipe. Blocking, so it runs on a worker thread, never on the
/// loop. A child still running at `timeLimit` is killed (its whole process group) and
/// reported as such: a reader that hangs costs a command, never the daemon.
struct RouteReaderChild {
  enum Outcome: Sendable, Equatable {
    /// It ended by itself: its exit status and what it wrote.
    case exited(status: Int32, output: [UInt8], error: [UInt8])
    case killedBySignal(Int32)
    case timedOut
    case couldNotStart(String)
  }

  let program: String
  let arguments: [String]
  let timeLimit: Double
  /// Whose monotonic clock the time limit is measured on: the daemon's.
  let clocks: Clocks

  func run(input: [UInt8]) -> Outcome {
    var stdinPipe: [Int32] = [-1, -1]
    var stdoutPipe: [Int32] = [-1, -1]
    var stderrPipe: [Int32] = [-1, -1]
    guard Self.makePipe(&stdinPipe) else { return .couldNotStart("pipe: \(Self.reason(errno))") }
    guard Self.makePipe(&stdoutPipe) else {
      Self.closeAll(stdinPipe)
      return .couldNotStart("pipe: \(Self.reason(errno))")
    }
    guard Self.makePipe(&stderrPipe) else {
      Self.closeAll(stdinPipe + stdoutPipe)
      return .couldNotStart("pipe: \(Self.reason(errno))")
    }

    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    // dup2 clears close-on-exec on the copies; every other descriptor of the daemon (the
    // socket, the database, these pipes' other ends) is close-on-exec and stays behind.
    posix_spawn_file_actions_adddup2(&actions, stdinPipe[0], 0)
    posix_spawn_file_actions_adddup2(&actions, stdoutPipe[1], 1)
    posix_spawn_file_actions_adddup2(&actions, stderrPipe[1], 2)
    let argv = ([program] + arguments).map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var pid: pid_t = 0
    let spawned = ChildSpawnAttributes.with { posix_spawn(&pid, program, &actions, $0, argv, environ) }
    Self.closeAll([stdinPipe[0], stdoutPipe[1], stderrPipe[1]])
    guard spawned == 0 else {
      Self.closeAll([stdinPipe[1], stdoutPipe[0], stderrPipe[0]])
      return .couldNotStart(Self.reason(spawned))
    }
    let deadline = clocks.monotonic() + timeLimit
    let (output, error, finishedInTime) = exchange(
      input: input, stdin: stdinPipe[1], stdout: stdoutPipe[0], stderr: stderrPipe[0], deadline: deadline)
    guard finishedInTime, let status = waitForExit(pid, deadline: deadline) else {
      kill(-pid, SIGKILL)
      var ignored: Int32 = 0
      _ = waitpid(pid, &ignored, 0)
      return .timedOut
    }
    let signal = status & 0x7f
    if signal != 0 { return .killedBySignal(signal) }
    return .exited(status: (status >> 8) & 0xff, output: output, error: error)
  }

  /// Writes `input` and reads both outputs until both reach end of file; false when the
  /// deadline came first. Closes the three descriptors.
  private func exchange(input: [UInt8], stdin: Int32, stdout: Int32, stderr: Int32, deadline: Double)
    -> (output: [UInt8], error: [UInt8], finished: Bool)
  {
    var writeEnd: Int32 = stdin
    var readEnds: [Int32: [UInt8]] = [stdout: [], stderr: []]
    var open: Set<Int32> = [stdout, stderr]
    var written = 0
    _ = fcntl(stdin, F_SETFL, fcntl(stdin, F_GETFL) | O_NONBLOCK)
    if input.isEmpty {
      close(stdin)
      writeEnd = -1
    }
    var buffer = [UInt8](repeating: 0, count: 65536)
    var finished = true
    while !open.isEmpty || writeEnd >= 0 {
      let remaining = deadline - clocks.monotonic()
      guard remaining > 0 else {
        finished = false
        break
      }
      var descriptors = open.sorted().map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
      if writeEnd >= 0 { descriptors.append(pollfd(fd: writeEnd, events: Int16(POLLOUT), revents: 0)) }
      let ready = poll(&descriptors, nfds_t(descriptors.count), Int32(min(remaining * 1000 + 1, 1000)))
      if ready < 0 && errno != EINTR { break }
      for descriptor in descriptors where descriptor.revents != 0 {
        if descriptor.fd == writeEnd {
          let count = input.withUnsafeBytes { write(writeEnd, $0.baseAddress! + written, input.count - written) }
          if count > 0 { written += count }
          // A reader that stops reading (and so a broken pipe) is judged by what it says.
          if (count < 0 && errno != EAGAIN && errno != EINTR) || written == input.count {
            close(writeEnd)
            writeEnd = -1
          }
        } else {
          let count = read(descriptor.fd, &buffer, buffer.count)
          if count > 0 {
            readEnds[descriptor.fd]!.append(contentsOf: buffer[0..<count])
          } else if count == 0 || (errno != EAGAIN && errno != EINTR) {
            open.remove(descriptor.fd)
          }
        }
      }
    }
    if writeEnd >= 0 { close(writeEnd) }
    Self.closeAll([stdout, stderr])
    return (readEnds[stdout]!, readEnds[stderr]!, finished)
  }

  /// The child's wait status once it has ended, nil if it is still running at `deadline`.
  private func waitForExit(_ pid: pid_t, deadline: Double) -> Int32? {
    while true {
      var status: Int32 = 0
      let result = waitpid(pid, &status, WNOHANG)
      if result == pid { return status }
      if result < 0 && errno != EINTR { return 0 }  // ECHILD: nobody else reaps it; never happens
      if clocks.monotonic() >= deadline { return nil }
      usleep(2_000)
    }
  }

  /// A pipe whose ends are close-on-exec (Glibc's module has no pipe2).
  private static func makePipe(_ ends: inout [Int32]) -> Bool {
    guard pipe(&ends) == 0 else { return false }
    for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    return true
  }

  private static func closeAll(_ descriptors: [Int32]) {
    for descriptor in descriptors where descriptor >= 0 { close(descriptor) }
  }

  private static func reason(_ number: Int32) -> String { String(cString: strerror(number)) }
}
