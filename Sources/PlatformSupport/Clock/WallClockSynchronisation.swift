import FoundationEssentials

#if canImport(Glibc)
  import Glibc
#endif

/// Whether the kernel says the wall clock is synchronised (NTP, chrony, or gpsd's own
/// time service keeping it disciplined). `FixAgeEstimator` uses the wall clock only then:
/// a box without an RTC boots with a wrong clock, and its fixes must not be judged by it.
public enum WallClockSynchronisation {
  /// adjtimex(2) with no modes set only reads the clock's state; it returns TIME_ERROR (5)
  /// while the clock is unsynchronised. Swift's Glibc module does not expose `struct
  /// timex`, so the call goes through dlsym with a zeroed buffer larger than the struct
  /// (208 bytes on 64-bit Linux), whose first field, `modes`, is thereby 0.
  public static func isSynchronised() -> Bool {
    guard let adjust = adjustTime else { return false }
    let buffer = UnsafeMutableRawPointer.allocate(byteCount: 512, alignment: 16)
    defer { buffer.deallocate() }
    buffer.initializeMemory(as: UInt8.self, repeating: 0, count: 512)
    let state = adjust(buffer)
    return state >= 0 && state != 5
  }

  private typealias AdjustTime = @convention(c) (UnsafeMutableRawPointer) -> Int32

  /// adjtimex, looked up once: the daemon asks every tick, and dlopen and dlsym take the
  /// loader's lock and search the symbol tables each time.
  private static let adjustTime: AdjustTime? = {
    guard let process = dlopen(nil, RTLD_NOW), let symbol = dlsym(process, "adjtimex") else { return nil }
    return unsafeBitCast(symbol, to: AdjustTime.self)
  }()
}
