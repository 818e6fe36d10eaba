import Glibc

/// Seconds on CLOCK_MONOTONIC: the clock a fix's arrival is stamped with. It never jumps
/// when the wall clock is set (a box without an RTC sets it late), which is what lets
/// `FixAgeEstimator` judge staleness without trusting the wall clock.
public enum MonotonicClock {
  public static func now() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
  }
}
