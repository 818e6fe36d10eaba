#if canImport(Glibc)
  import Glibc
#endif

/// The I/O scheduling class of the calling thread, for work that reads in proportion to the
/// history (counting a year of samples): at idle class it gets the disk only when nothing
/// else wants it, so capture's commits never queue behind it.
public enum IOPriority {
  /// Puts the calling thread in the idle I/O class (ioprio_set(2), IOPRIO_WHO_PROCESS with
  /// id 0: Linux reads that as the calling thread alone). False when the kernel refused, or
  /// on an architecture whose system call number is not known here.
  @discardableResult
  public static func makeCurrentThreadIdle() -> Bool {
    guard let call = systemCall, let number = ioprioSet else { return false }
    let idleClass: Int32 = 3 << 13  // IOPRIO_CLASS_IDLE << IOPRIO_CLASS_SHIFT, level 0
    return call(number, 1 /* IOPRIO_WHO_PROCESS */, 0, idleClass) == 0
  }

  /// ioprio_set's number (Swift's Glibc module does not carry the SYS_ constants).
  private static var ioprioSet: Int? {
    #if arch(x86_64)
      return 251
    #elseif arch(arm64)
      return 30
    #elseif arch(arm)
      return 314
    #else
      return nil
    #endif
  }

  private typealias SystemCall = @convention(c) (Int, Int32, Int32, Int32) -> Int

  /// glibc has no wrapper for ioprio_set, and syscall(2) is variadic, which Swift cannot
  /// call: looked up with dlsym and called with its arguments fixed. glibc's syscall is
  /// written in assembly and only moves its integer arguments to the kernel's registers,
  /// which is where a fixed-argument call on x86-64 and arm64 places them.
  private static let systemCall: SystemCall? = {
    guard let process = dlopen(nil, RTLD_NOW), let symbol = dlsym(process, "syscall") else { return nil }
    return unsafeBitCast(symbol, to: SystemCall.self)
  }()
}
