// What a running process has spent, read from /proc: CPU time over every thread, and the
// bytes it has written to storage. Shared by the end-to-end and store wear benchmarks.
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

enum ProcessFigures {
  /// CPU seconds `pid` has run, summed over its threads from /proc/PID/task/*/schedstat
  /// (the first field: nanoseconds on a CPU, user and system together). /proc/PID/stat's
  /// utime and stime tick at 100 Hz, too coarse for a client that spends a few hundred
  /// milliseconds in two minutes. A thread that ended is no longer listed, so compare two
  /// readings of threads that live through the run (every thread of these processes does).
  static func cpuSeconds(of pid: pid_t) -> Double? {
    guard let tasks = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task") else { return nil }
    var nanoseconds: UInt64 = 0
    for task in tasks {
      guard let text = try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/schedstat", encoding: .utf8),
        let first = text.split(separator: " ").first, let value = UInt64(first)
      else { continue }
      nanoseconds += value
    }
    return Double(nanoseconds) / 1e9
  }

  /// CPU seconds of each thread of `pid` by its name (/proc/PID/task/TID/comm), for saying
  /// which thread the time went to.
  static func cpuSecondsByThread(of pid: pid_t) -> [String: Double] {
    guard let tasks = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task") else { return [:] }
    var result: [String: Double] = [:]
    for task in tasks {
      let base = "/proc/\(pid)/task/\(task)"
      guard let text = try? String(contentsOfFile: base + "/schedstat", encoding: .utf8),
        let first = text.split(separator: " ").first, let value = UInt64(first)
      else { continue }
      let name = ((try? String(contentsOfFile: base + "/comm", encoding: .utf8)) ?? task)
        .trimmingCharacters(in: .whitespacesAndNewlines)
      result[name, default: 0] += Double(value) / 1e9
    }
    return result
  }

  /// Bytes `pid` caused to be sent to storage (/proc/PID/io `write_bytes`): every page of
  /// the page cache it dirtied, counted when the page goes from clean to dirty, so a page
  /// written again after an fsync cleaned it counts again.
  static func writeBytes(of pid: pid_t) -> Int64? {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/io", encoding: .utf8) else { return nil }
    for line in text.split(separator: "\n") where line.hasPrefix("write_bytes:") {
      return Int64(line.dropFirst("write_bytes:".count).trimmingCharacters(in: .whitespaces))
    }
    return nil
  }

  static func fileText(_ path: String) -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }

  static func waitFor(timeout: Double, _ condition: () -> Bool) -> Bool {
    let deadline = Date(timeIntervalSinceNow: timeout)
    while Date() < deadline {
      if condition() { return true }
      usleep(200_000)
    }
    return condition()
  }

  /// Monotonic seconds.
  static func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

  /// Sleeps until monotonic time `deadline` (at once if it has passed).
  static func sleep(until deadline: Double) {
    let left = deadline - now()
    if left > 0 { usleep(useconds_t(left * 1e6)) }
  }
}
