import Foundation

/// Prints figures as `bench NAME VALUE UNIT`, and times work on the monotonic clock.
struct BenchReport {
  mutating func record(_ name: String, _ value: Double, _ unit: String) {
    let text = value.rounded() == value && abs(value) < 1e15 ? String(Int64(value)) : String(format: "%.4g", value)
    print("bench \(name) \(text) \(unit)")
  }

  /// Seconds taken by `body`, on the monotonic clock.
  func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
  }
}
