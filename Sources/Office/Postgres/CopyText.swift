import DashPilotCore
import FoundationEssentials

/// Rows in COPY's text format: columns separated by tabs, rows by newlines, `\N` for NULL,
/// and a backslash before each backslash, tab, newline and carriage return inside a value.
struct CopyText {
  private(set) var bytes: [UInt8] = []
  private var columnsInRow = 0

  mutating func text(_ value: String?) {
    separate()
    guard let value else {
      bytes.append(contentsOf: [0x5C, 0x4E])
      return
    }
    for byte in value.utf8 {
      switch byte {
      case 0x5C: bytes.append(contentsOf: [0x5C, 0x5C])
      case 0x09: bytes.append(contentsOf: [0x5C, 0x74])
      case 0x0A: bytes.append(contentsOf: [0x5C, 0x6E])
      case 0x0D: bytes.append(contentsOf: [0x5C, 0x72])
      default: bytes.append(byte)
      }
    }
  }

  mutating func integer(_ value: Int64?) { plain(value.map { String($0) }) }

  /// Doubles in their shortest exact form, which PostgreSQL reads back to the same value.
  mutating func number(_ value: Double?) { plain(value.map { "\($0)" }) }

  mutating func bool(_ value: Bool) { plain(value ? "t" : "f") }

  /// An instant as `UTCTimestamp` writes it (milliseconds, `Z`).
  mutating func time(_ value: Date) { plain(UTCTimestamp.string(value) ?? "infinity") }

  /// A PostGIS point in WGS 84 as hex EWKB (little-endian, SRID 4326): what `geometry`
  /// reads fastest, exactly (the doubles' own bits).
  mutating func point(latitude: Double, longitude: Double) {
    separate()
    bytes.append(contentsOf: Array("0101000020E6100000".utf8))
    for value in [longitude, latitude] {
      var bits = value.bitPattern.littleEndian
      withUnsafeBytes(of: &bits) { raw in
        for byte in raw {
          bytes.append(Self.hexDigits[Int(byte >> 4)])
          bytes.append(Self.hexDigits[Int(byte & 0x0F)])
        }
      }
    }
  }

  private static let hexDigits = Array("0123456789ABCDEF".utf8)

  mutating func endRow() {
    bytes.append(0x0A)
    columnsInRow = 0
  }

  var isEmpty: Bool { bytes.isEmpty }

  /// A value known to hold none of the escaped characters.
  private mutating func plain(_ value: String?) {
    separate()
    guard let value else {
      bytes.append(contentsOf: [0x5C, 0x4E])
      return
    }
    bytes.append(contentsOf: value.utf8)
  }

  private mutating func separate() {
    if columnsInRow > 0 { bytes.append(0x09) }
    columnsInRow += 1
  }
}
