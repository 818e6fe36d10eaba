/// Seeded mutations of an input, for the file runner's `--mutate`: the same seed gives the
/// same inputs, so a finding is reproducible by its seed and round.
struct InputMutator {
  private var state: UInt64

  init(seed: UInt64) { state = seed == 0 ? 0x9E37_79B9_7F4A_7C15 : seed }

  /// SplitMix64.
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// Bytes JSON gives meaning to, and a few that break UTF-8, so mutations reach the
  /// parser's interesting branches more often than uniform bytes would.
  private static let interesting: [UInt8] =
    Array(#"{}[]":,-+.eE0123456789\ntrufalsn"#.utf8) + [0x00, 0x0D, 0x80, 0xC3, 0xFF]

  mutating func mutate(_ input: [UInt8], splicingWith other: [UInt8]) -> [UInt8] {
    var bytes = input
    let steps = 1 + Int(next() % 4)
    for _ in 0..<steps {
      let position = bytes.isEmpty ? 0 : Int(next() % UInt64(bytes.count + 1))
      switch next() % 6 {
      case 0 where !bytes.isEmpty && position < bytes.count:
        bytes[position] ^= UInt8(truncatingIfNeeded: 1 << (next() % 8))
      case 1:
        bytes.insert(Self.interesting[Int(next() % UInt64(Self.interesting.count))], at: position)
      case 2 where position < bytes.count:
        let length = min(bytes.count - position, 1 + Int(next() % 8))
        bytes.removeSubrange(position..<(position + length))
      case 3 where !other.isEmpty:
        let start = Int(next() % UInt64(other.count))
        let length = min(other.count - start, 1 + Int(next() % 32))
        bytes.insert(contentsOf: other[start..<(start + length)], at: position)
      case 4 where position < bytes.count:
        bytes[position] = Self.interesting[Int(next() % UInt64(Self.interesting.count))]
      default:
        // Repeat a stretch: deep nesting and long strings.
        if position < bytes.count {
          let length = min(bytes.count - position, 1 + Int(next() % 4))
          let stretch = Array(bytes[position..<(position + length)])
          let times = 1 + Int(next() % 64)
          for _ in 0..<times { bytes.insert(contentsOf: stretch, at: position) }
        }
      }
    }
    return bytes
  }
}
