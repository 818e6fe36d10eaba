import DashPilotCore

/// Sizes as the journal and the configuration say them: 512M, 1.5G, 300K, 900 bytes.
enum ByteCount {
  static func text(_ bytes: Int64) -> String {
    let units: [(Int64, String)] = [(1 << 30, "G"), (1 << 20, "M"), (1 << 10, "K")]
    for (scale, unit) in units where bytes >= scale {
      let value = Double(bytes) / Double(scale)
      let digits = value >= 100 || bytes % scale == 0 ? 0 : 1
      return (FixedDecimal.text(value, digits: digits) ?? "?") + unit
    }
    return bytes == 1 ? "1 byte" : "\(bytes) bytes"
  }
}
