import Foundation

/// libfaketime in front of one process: its wall clock (CLOCK_REALTIME, gettimeofday,
/// time) reads the real clock plus an offset kept in a file that libfaketime re-reads at
/// every call (FAKETIME_NO_CACHE), so a test can step the clock of a running daemon
/// without touching the machine's. Monotonic clocks stay real
/// (FAKETIME_DONT_FAKE_MONOTONIC), as they do when an administrator or NTP steps a clock.
final class FakedWallClock: @unchecked Sendable {
  static let library = "/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1"
  static var isAvailable: Bool { FileManager.default.fileExists(atPath: library) }

  let file: URL
  private let lock = NSLock()

  /// The clock's file in `directory`; `set(wall:)` before the process starts.
  init(directory: URL) {
    file = directory.appendingPathComponent("faketime")
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
      "FAKETIME_DONT_FAKE_MONOTONIC": "1",
    ]
  }
}
