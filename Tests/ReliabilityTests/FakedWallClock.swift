import Foundation
import TestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// libfaketime in front of one process: its wall clock (CLOCK_REALTIME, gettimeofday,
/// time) reads the real clock plus an offset kept in a file that libfaketime re-reads at
/// every call (FAKETIME_NO_CACHE), so a test can step the clock of a running daemon
/// without touching the machine's. Monotonic clocks stay real
/// (FAKETIME_DONT_FAKE_MONOTONIC), as they do when an administrator or NTP steps a clock.
final class FakedWallClock: @unchecked Sendable {
  /// The preload library the system installed for its architecture (`.requiresFaketime`).
  static var library: String { LibFaketime.path ?? "libfaketime.so.1" }

  let file: URL
  private let lock = NSLock()
  /// libfaketime's shared segment, as FAKETIME_SHARED names it ("/SEM /SHM").
  let sharedSegment: String

  struct Failure: Error, CustomStringConvertible { var description: String }

  /// The clock's file in `directory`; `set(wall:)` before the process starts.
  ///
  /// Why the shared segment: libfaketime, preloaded into a process whose environment has
  /// no FAKETIME_SHARED, makes a segment and `setenv`s the variable in its constructor.
  /// That moves `environ` off the initial stack before Swift's runtime constructor runs,
  /// and on Linux the runtime finds argv by walking back from `environ` on that stack:
  /// `CommandLine.arguments` comes back empty and dashpilotd starts with its defaults.
  /// A segment made by a throwaway preloaded shell, handed to the daemon, spares it the
  /// `setenv`. (The segment outlives the shell; `remove()` deletes its two files.)
  init(directory: URL) throws {
    file = directory.appendingPathComponent("faketime")
    let outcome = try ProcessRunner.run(
      URL(fileURLWithPath: "/bin/sh"), ["-c", "printf %s \"$FAKETIME_SHARED\""],
      environment: ["LD_PRELOAD": Self.library, "PATH": "/usr/bin:/bin"])
    let names = outcome.standardOutput.split(separator: " ")
    guard outcome.status == 0, names.count == 2, names.allSatisfy({ $0.hasPrefix("/faketime_") }) else {
      throw Failure(description: "libfaketime made no shared segment: \(outcome)")
    }
    sharedSegment = outcome.standardOutput
  }

  deinit { remove() }

  /// Deletes the shared segment's files (/dev/shm/sem.faketime_sem_N, faketime_shm_N).
  func remove() {
    let names = sharedSegment.split(separator: " ").map { $0.dropFirst() }
    guard names.count == 2 else { return }
    unlink("/dev/shm/sem.\(names[0])")
    unlink("/dev/shm/\(names[1])")
  }

  /// From now on the process's wall clock reads `wall` at the real moment `real`, and
  /// runs on from there at the real rate.
  func set(wall: Date, at real: Date = Date()) throws {
    let offset = wall.timeIntervalSince(real)
    // libfaketime's relative form: a signed number of seconds. Written to a new file and
    // renamed over the old, so the daemon never reads half of one.
    let text = String(format: "%+.0f\n", offset)
    let temporary = file.appendingPathExtension("new")
    try lock.withLock {
      try text.write(to: temporary, atomically: false, encoding: .utf8)
      guard rename(temporary.path, file.path) == 0 else {
        throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: file.path])
      }
    }
  }

  /// The environment that puts libfaketime in front of a process.
  var environment: [String: String] {
    [
      "LD_PRELOAD": Self.library, "FAKETIME_TIMESTAMP_FILE": file.path, "FAKETIME_NO_CACHE": "1",
      "FAKETIME_DONT_FAKE_MONOTONIC": "1", "FAKETIME_SHARED": sharedSegment,
    ]
  }
}
