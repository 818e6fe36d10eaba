import Foundation
import TestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// What the kernel says about a process (Linux /proc).
enum ProcessAccounting {
  /// User plus system CPU seconds the process (all its threads) has used so far.
  static func cpuSeconds(of pid: Int32) -> Double? {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
      let close = text.lastIndex(of: ")")
    else { return nil }
    // After "pid (comm) ": state is field 3, utime field 14, stime field 15.
    let fields = text[text.index(after: close)...].split(separator: " ")
    guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
    return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
  }
}
