import DashPilotCore

/// `[Store] FreeSpaceFloor=`: the room (the file system's free space plus the database's
/// own free pages) the card keeps. Below it, with an uplink, shifts the broker has
/// acknowledged are deleted, oldest first, until it is met again; without one, nothing is
/// deleted and the journal says so.
///
/// The default, 10 % of the file system: room for a package upgrade and the system's logs
/// on a card of any size (journald keeps 15 % free for others on its own account), while
/// what it costs is only shifts the fleet already holds. A size suits a box whose card is
/// shared with other data; 0 turns the deletions off (the days-left warnings stay).
public enum FreeSpaceFloor: Sendable, Hashable, CustomStringConvertible {
  case bytes(Int64)
  case percent(Double)

  public static let `default` = FreeSpaceFloor.percent(10)

  /// "10%", or a size in bytes with an optional K, M or G (powers of 1024): "512M", "2G",
  /// "0". Nil for anything else, or a percentage over 90.
  public init?(parsing text: String) {
    if text.hasSuffix("%") {
      guard let value = Double(text.dropLast()), value.isFinite, (0...90).contains(value) else { return nil }
      self = .percent(value)
      return
    }
    let units: [Character: Int64] = ["K": 1 << 10, "M": 1 << 20, "G": 1 << 30]
    var digits = Substring(text)
    var scale: Int64 = 1
    if let last = digits.last, let unit = units[last] {
      scale = unit
      digits = digits.dropLast()
    }
    guard !digits.isEmpty, digits.allSatisfy(\.isASCII), let value = Int64(digits), value >= 0,
      value <= Int64.max / scale
    else { return nil }
    self = .bytes(value * scale)
  }

  /// The floor in bytes on a file system of `size` bytes.
  public func bytes(ofFileSystemSize size: Int64) -> Int64 {
    switch self {
    case .bytes(let bytes): bytes
    case .percent(let percent): Int64((Double(size) * percent / 100).rounded(.down))
    }
  }

  public var isOff: Bool { self == .bytes(0) || self == .percent(0) }

  /// As the configuration writes it.
  public var description: String {
    switch self {
    case .percent(let percent): (FixedDecimal.text(percent, digits: percent.rounded() == percent ? 0 : 1) ?? "?") + "%"
    case .bytes(let bytes): ByteCount.text(bytes)
    }
  }
}
