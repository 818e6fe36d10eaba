#if canImport(Glibc)
  import Glibc
#endif

/// Seconds on CLOCK_MONOTONIC: the clock every deadline and every arrival stamp is on. It
/// never jumps when the wall clock is set (a box without an RTC sets it late, from NTP or
/// from the receiver), so a retry due in 15 s comes 15 s later whatever the wall clock
/// does, and `FixAgeEstimator` can judge staleness without trusting the wall clock.
public enum MonotonicClock {
  public static func now() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
  }
}
