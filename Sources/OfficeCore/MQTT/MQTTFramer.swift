/// Cuts the bytes read from the broker into packets. A packet whose body is longer than
/// `maximumHeld` is not held whole: its first `keptOfLarge` bytes are kept (enough for a
/// PUBLISH's topic, packet id and the start of its payload) and the rest is counted and
/// dropped as it arrives, so a payload of any size costs bounded memory, and the office can
/// still store what it was and acknowledge it.
public struct MQTTFramer: Sendable {
  public struct Frame: Sendable, Hashable {
    public var first: UInt8
    public var body: [UInt8]
    /// The body's real length (more than `body.count` for a packet over the bound).
    public var length: Int
  }

  public let maximumHeld: Int
  public let keptOfLarge: Int
  private var buffer: [UInt8] = []
  private var start = 0
  /// A large packet being skipped: its first byte, the bytes kept, how many are still to come.
  private var skipping: (first: UInt8, kept: [UInt8], length: Int, left: Int)?

  public init(maximumHeld: Int, keptOfLarge: Int = 65_536) {
    self.maximumHeld = maximumHeld
    self.keptOfLarge = min(keptOfLarge, maximumHeld)
  }

  /// Adds bytes read from the socket and returns the packets they complete, in order.
  public mutating func append(_ bytes: UnsafeRawBufferPointer) throws(MQTTProtocolError) -> [Frame] {
    buffer.append(contentsOf: bytes)
    var frames: [Frame] = []
    while let frame = try next() { frames.append(frame) }
    if start > 0, start * 2 >= buffer.count {
      buffer.removeFirst(start)
      start = 0
    }
    return frames
  }

  private mutating func next() throws(MQTTProtocolError) -> Frame? {
    if var large = skipping {
      let available = buffer.count - start
      let taken = min(available, large.left)
      let keep = min(taken, keptOfLarge - large.kept.count)
      if keep > 0 { large.kept.append(contentsOf: buffer[start..<start + keep]) }
      start += taken
      large.left -= taken
      guard large.left == 0 else {
        skipping = large
        return nil
      }
      skipping = nil
      return Frame(first: large.first, body: large.kept, length: large.length)
    }
    guard buffer.count - start >= 2 else { return nil }
    var length = 0
    var multiplier = 1
    var index = start + 1
    while true {
      guard index < buffer.count else { return nil }
      let digit = buffer[index]
      length += Int(digit & 0x7F) * multiplier
      index += 1
      if digit & 0x80 == 0 { break }
      multiplier *= 128
      guard index - start <= 4 else { throw MQTTProtocolError("a remaining length runs over 4 bytes") }
    }
    let first = buffer[start]
    if length > maximumHeld {
      start = index
      skipping = (first, [], length, length)
      return try next()
    }
    guard buffer.count - index >= length else { return nil }
    let frame = Frame(first: first, body: Array(buffer[index..<index + length]), length: length)
    start = index + length
    return frame
  }
}
