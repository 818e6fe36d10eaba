/// DEFLATE decompression (RFC 1951) behind a zlib header (RFC 1950): what a PNG's image
/// data is. Table-driven Huffman decoding, so a screenshot inflates in a test's moment.
enum Inflate {
  struct Corrupt: Error, CustomStringConvertible {
    var description: String
  }

  static func zlib(_ data: [UInt8]) throws -> [UInt8] {
    guard data.count >= 2, (Int(data[0]) << 8 | Int(data[1])) % 31 == 0, data[0] & 0x0F == 8 else {
      throw Corrupt(description: "not a zlib stream")
    }
    var reader = BitReader(data: data, position: 2)
    return try inflate(&reader)
  }

  struct BitReader {
    let data: [UInt8]
    var position: Int
    var buffer: UInt64 = 0
    var count = 0

    mutating func fill() {
      while count <= 56 {
        let byte = position < data.count ? UInt64(data[position]) : 0
        position += 1
        buffer |= byte << UInt64(count)
        count += 8
      }
    }

    mutating func bits(_ n: Int) throws -> Int {
      if n == 0 { return 0 }
      if count < n { fill() }
      guard position - count / 8 <= data.count + 8 else { throw Corrupt(description: "the stream ends early") }
      let value = Int(buffer & ((1 << UInt64(n)) - 1))
      buffer >>= UInt64(n)
      count -= n
      return value
    }

    mutating func peek15() -> Int {
      if count < 15 { fill() }
      return Int(buffer & 0x7FFF)
    }

    mutating func drop(_ n: Int) {
      buffer >>= UInt64(n)
      count -= n
    }

    mutating func alignToByte() { drop(count % 8) }
  }

  /// A canonical Huffman code as a table over the next 15 bits: symbol and code length.
  struct Huffman {
    var table: [Int32]

    init(lengths: [Int]) throws {
      var counts = [Int](repeating: 0, count: 16)
      for length in lengths where length > 0 { counts[length] += 1 }
      var next = [Int](repeating: 0, count: 16)
      var code = 0
      for length in 1...15 {
        code = (code + counts[length - 1]) << 1
        next[length] = code
      }
      table = [Int32](repeating: -1, count: 1 << 15)
      for (symbol, length) in lengths.enumerated() where length > 0 {
        let assigned = next[length]
        next[length] += 1
        var reversed = 0
        for bit in 0..<length where assigned & (1 << bit) != 0 { reversed |= 1 << (length - 1 - bit) }
        var index = reversed
        while index < 1 << 15 {
          table[index] = Int32(symbol << 4 | length)
          index += 1 << length
        }
      }
    }

    func decode(_ reader: inout BitReader) throws -> Int {
      let entry = table[reader.peek15()]
      guard entry >= 0 else { throw Corrupt(description: "a code that is not in the table") }
      reader.drop(Int(entry & 15))
      return Int(entry >> 4)
    }
  }

  static let lengthBase = [
    3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258,
  ]
  static let lengthExtra = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
  static let distanceBase = [
    1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097,
    6145, 8193, 12289, 16385, 24577,
  ]
  static let distanceExtra = [
    0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13,
  ]
  static let codeLengthOrder = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

  static func inflate(_ reader: inout BitReader) throws -> [UInt8] {
    var out: [UInt8] = []
    var last = false
    while !last {
      last = try reader.bits(1) == 1
      switch try reader.bits(2) {
      case 0:
        reader.alignToByte()
        let length = try reader.bits(16)
        _ = try reader.bits(16)
        for _ in 0..<length { out.append(UInt8(try reader.bits(8))) }
      case 1:
        let literals = try Huffman(
          lengths: Array(repeating: 8, count: 144) + Array(repeating: 9, count: 112)
            + Array(repeating: 7, count: 24) + Array(repeating: 8, count: 8))
        let distances = try Huffman(lengths: Array(repeating: 5, count: 30))
        try block(&reader, literals, distances, into: &out)
      case 2:
        let (literals, distances) = try dynamicCodes(&reader)
        try block(&reader, literals, distances, into: &out)
      default: throw Corrupt(description: "block type 3")
      }
    }
    return out
  }

  static func dynamicCodes(_ reader: inout BitReader) throws -> (Huffman, Huffman) {
    let literalCount = try reader.bits(5) + 257
    let distanceCount = try reader.bits(5) + 1
    let codeLengthCount = try reader.bits(4) + 4
    var codeLengths = [Int](repeating: 0, count: 19)
    for index in 0..<codeLengthCount { codeLengths[codeLengthOrder[index]] = try reader.bits(3) }
    let codeLengthCode = try Huffman(lengths: codeLengths)
    var lengths: [Int] = []
    while lengths.count < literalCount + distanceCount {
      let symbol = try codeLengthCode.decode(&reader)
      switch symbol {
      case 0...15: lengths.append(symbol)
      case 16:
        guard let previous = lengths.last else { throw Corrupt(description: "a repeat with nothing before it") }
        lengths += Array(repeating: previous, count: 3 + (try reader.bits(2)))
      case 17: lengths += Array(repeating: 0, count: 3 + (try reader.bits(3)))
      default: lengths += Array(repeating: 0, count: 11 + (try reader.bits(7)))
      }
    }
    return (
      try Huffman(lengths: Array(lengths[0..<literalCount])),
      try Huffman(lengths: Array(lengths[literalCount..<literalCount + distanceCount]))
    )
  }

  static func block(_ reader: inout BitReader, _ literals: Huffman, _ distances: Huffman, into out: inout [UInt8])
    throws
  {
    while true {
      let symbol = try literals.decode(&reader)
      if symbol < 256 {
        out.append(UInt8(symbol))
        continue
      }
      if symbol == 256 { return }
      let index = symbol - 257
      guard index < lengthBase.count else { throw Corrupt(description: "length symbol \(symbol)") }
      let length = lengthBase[index] + (try reader.bits(lengthExtra[index]))
      let code = try distances.decode(&reader)
      guard code < distanceBase.count else { throw Corrupt(description: "distance symbol \(code)") }
      let distance = distanceBase[code] + (try reader.bits(distanceExtra[code]))
      guard distance <= out.count else { throw Corrupt(description: "a distance before the start") }
      let start = out.count - distance
      for offset in 0..<length { out.append(out[start + offset]) }
    }
  }
}
