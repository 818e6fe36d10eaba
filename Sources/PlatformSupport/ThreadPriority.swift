import CLinux

#if canImport(Glibc)
  import Glibc
#endif

/// Lowers the calling thread's claim on the machine, for work that must never compete with
/// capture: the store's whole-file check reads every page of a file that grows for years.
public enum ThreadPriority {
  /// Puts the calling thread in the idle I/O class (its reads wait for any other I/O, such
  /// as capture's commits) and at the lowest CPU priority (nice 19). Returns what could not
  /// be done, for the journal; the work goes on at the priority it has.
  public static func makeCurrentThreadIdle() -> [String] {
    var refused: [String] = []
    if dashpilot_set_thread_idle_io_priority() != 0 {
      refused.append("ioprio_set (idle I/O class): \(String(cString: strerror(errno)))")
    }
    if dashpilot_set_thread_nice(19) != 0 {
      refused.append("setpriority (nice 19): \(String(cString: strerror(errno)))")
    }
    return refused
  }

  /// The calling thread's I/O class: 0 none set, 1 real time, 2 best effort, 3 idle.
  public static var currentIOClass: Int32 { dashpilot_thread_io_priority_class() }
}
