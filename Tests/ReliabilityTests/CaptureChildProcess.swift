import Foundation
import TestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// `dashpilot-capture-child` as a real process: its stdout lines read with timeouts, and
/// killed with SIGKILL. Every line the child wrote before it died stays in the pipe, so
/// after the kill the test reads exactly what the child had said.
final class CaptureChildProcess {
  let process = Process()
  private let output = Pipe()
  private let errors = Pipe()
  private var buffer: [UInt8] = []
  private(set) var lines: [String] = []

  init(database: String, streamStart: Double, stopAfter: Int? = nil) throws {
    process.executableURL = try DaemonBinaries.url("dashpilot-capture-child")
    process.arguments = [database, String(streamStart)] + (stopAfter.map { [String($0)] } ?? [])
    process.standardOutput = output
    process.standardError = errors
    process.standardInput = FileHandle.nullDevice
    try process.run()
  }

  /// Reads until a line starting with `prefix` arrives; false on end of stream or timeout.
  func wait(for prefix: String, timeout: TimeInterval = 20) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    var checked = 0
    while true {
      if lines[checked...].contains(where: { $0.hasPrefix(prefix) }) { return true }
      checked = lines.count
      let remaining = deadline.timeIntervalSinceNow
      guard remaining > 0, readChunk(timeout: remaining) else { return false }
    }
  }

  /// Reads for `seconds`, keeping the lines.
  func read(for seconds: TimeInterval) {
    let deadline = Date().addingTimeInterval(seconds)
    while deadline.timeIntervalSinceNow > 0, readChunk(timeout: deadline.timeIntervalSinceNow) {}
  }

  func killHard() {
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
    // The pipe holds whatever the child wrote before it died: read to its end.
    while readChunk(timeout: 5) {}
  }

  func waitForExit(timeout: TimeInterval = 30) -> Int32? {
    let deadline = Date().addingTimeInterval(timeout)
    while process.isRunning && Date() < deadline { usleep(10_000) }
    if process.isRunning { return nil }
    while readChunk(timeout: 5) {}
    return process.terminationStatus
  }

  /// What the child wrote to stderr; only read once it has exited (reading a live child's
  /// empty pipe would block a failing test's message).
  var standardError: String {
    guard !process.isRunning else { return "(still running)" }
    return String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
  }

  /// The numbers on lines `word N`.
  func values(_ word: String) -> [Int64] {
    lines.compactMap { line in
      line.hasPrefix(word + " ") ? Int64(line.dropFirst(word.count + 1)) : nil
    }
  }

  /// Reads what is available within `timeout`; false at end of stream or on timeout.
  private func readChunk(timeout: TimeInterval) -> Bool {
    let fd = output.fileHandleForReading.fileDescriptor
    var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    guard poll(&descriptor, 1, Int32(max(0, timeout) * 1000) + 1) > 0 else { return false }
    var chunk = [UInt8](repeating: 0, count: 65_536)
    let count = Glibc.read(fd, &chunk, chunk.count)
    guard count > 0 else { return false }
    buffer.append(contentsOf: chunk[0..<count])
    while let newline = buffer.firstIndex(of: 0x0A) {
      lines.append(String(decoding: buffer[..<newline], as: UTF8.self))
      buffer.removeFirst(newline + 1)
    }
    return true
  }

  deinit {
    if process.isRunning {
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
    }
  }
}
