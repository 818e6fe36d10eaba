import DashPilotCore

/// The generator's randomness: one stream per shift, keyed by the seed and the shift's day,
/// so a day's shift is the same in every file made with that seed (a three-month file holds
/// the last three months of the year's file), and numbers are drawn by hand from the bits
/// of SplitMix64, so no library's sampling algorithm can change them. (TestSupport has the
/// same generator for tests; the generator's executable is built without TestSupport, so the
/// system test's release build of it compiles nothing the daemon's did not.)
struct HistoryRandom {
  private var state: UInt64

  init(seed: UInt64, stream: UInt64) {
    state = seed ^ (stream &* 0xD6E8_FEB8_6659_FD93)
    state = next()
  }

  /// SplitMix64.
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A number in [0, 1).
  mutating func unit() -> Double { Double(next() >> 11) * 0x1p-53 }

  mutating func uniform(_ range: ClosedRange<Double>) -> Double {
    range.lowerBound + (range.upperBound - range.lowerBound) * unit()
  }

  mutating func chance(_ probability: Double) -> Bool { unit() < probability }

  /// -1 or 1.
  mutating func sign() -> Double { chance(0.5) ? 1 : -1 }

  /// An identifier shaped like the daemon's (a lowercase version 4 UUID), so the sessions
  /// table holds rows of the size a box's has.
  mutating func sessionID() -> CaptureSessionID {
    let high = (next() & 0xFFFF_FFFF_FFFF_0FFF) | 0x4000
    let low = (next() & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000
    let hex = Array("0123456789abcdef")
    var text = ""
    for (index, value) in [high, low].enumerated() {
      for nibble in (0..<16).reversed() {
        text.append(hex[Int((value >> (UInt64(nibble) * 4)) & 0xF)])
        let position = index * 16 + (15 - nibble)
        if [7, 11, 15, 19].contains(position) { text.append("-") }
      }
    }
    return CaptureSessionID(text)
  }
}
