import Foundation

/// A PNG read back into pixels, so a test can look at what a real browser drew: 8-bit
/// greyscale, RGB or RGBA, not interlaced (what Chromium's screenshots are). The zlib
/// stream is inflated here (RFC 1950/1951), so no library beyond the test's own is needed.
public struct PNGImage: Sendable {
  public let width: Int
  public let height: Int
  /// Bytes per pixel: 1 grey, 3 RGB, 4 RGBA.
  let channels: Int
  let pixels: [UInt8]

  public struct Unreadable: Error, CustomStringConvertible {
    public var description: String
  }

  public init(contentsOf url: URL) throws {
    try self.init(data: [UInt8](try Data(contentsOf: url)))
  }

  public init(data: [UInt8]) throws {
    guard data.count > 8, data[0..<8].elementsEqual([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else {
      throw Unreadable(description: "not a PNG file")
    }
    var offset = 8
    var header: [UInt8] = []
    var compressed: [UInt8] = []
    while offset + 8 <= data.count {
      let length = data[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
      let type = String(decoding: data[offset + 4..<offset + 8], as: UTF8.self)
      let body = offset + 8
      guard body + length + 4 <= data.count else { throw Unreadable(description: "a \(type) chunk runs past the end") }
      if type == "IHDR" { header = Array(data[body..<body + length]) }
      if type == "IDAT" { compressed += data[body..<body + length] }
      if type == "IEND" { break }
      offset = body + length + 4
    }
    guard header.count == 13 else { throw Unreadable(description: "no IHDR chunk") }
    width = header[0..<4].reduce(0) { $0 << 8 | Int($1) }
    height = header[4..<8].reduce(0) { $0 << 8 | Int($1) }
    let colourType = header[9]
    guard header[8] == 8, header[12] == 0, [0, 2, 6].contains(colourType) else {
      throw Unreadable(description: "only 8-bit, non-interlaced grey, RGB or RGBA is read")
    }
    channels = colourType == 0 ? 1 : colourType == 2 ? 3 : 4
    let raw = try Inflate.zlib(compressed)
    pixels = try Self.unfiltered(raw, width: width, height: height, channels: channels)
  }

  /// The pixel's brightness, 0 (black) to 255 (white), as greyscale printing sees it.
  public func luminance(x: Int, y: Int) -> Int {
    guard x >= 0, y >= 0, x < width, y < height else { return 255 }
    let index = (y * width + x) * channels
    if channels == 1 { return Int(pixels[index]) }
    let r = Int(pixels[index])
    let g = Int(pixels[index + 1])
    let b = Int(pixels[index + 2])
    return (299 * r + 587 * g + 114 * b) / 1000
  }

  /// Whether the pixel is a grey (its channels within a few levels of each other).
  public func isGrey(x: Int, y: Int) -> Bool {
    guard channels >= 3, x >= 0, y >= 0, x < width, y < height else { return true }
    let index = (y * width + x) * channels
    let values = [Int(pixels[index]), Int(pixels[index + 1]), Int(pixels[index + 2])]
    return (values.max() ?? 0) - (values.min() ?? 0) <= 6
  }

  /// The darkest pixel within `radius` of (x, y).
  public func darkest(x: Int, y: Int, radius: Int) -> Int {
    var darkest = 255
    for dy in -radius...radius {
      for dx in -radius...radius { darkest = min(darkest, luminance(x: x + dx, y: y + dy)) }
    }
    return darkest
  }

  /// PNG's five scanline filters undone.
  static func unfiltered(_ raw: [UInt8], width: Int, height: Int, channels: Int) throws -> [UInt8] {
    let stride = width * channels
    guard raw.count >= height * (stride + 1) else { throw Unreadable(description: "the image data is short") }
    var out = [UInt8](repeating: 0, count: height * stride)
    for row in 0..<height {
      let filter = raw[row * (stride + 1)]
      let source = row * (stride + 1) + 1
      let target = row * stride
      for i in 0..<stride {
        let x = Int(raw[source + i])
        let a = i >= channels ? Int(out[target + i - channels]) : 0
        let b = row > 0 ? Int(out[target - stride + i]) : 0
        let c = row > 0 && i >= channels ? Int(out[target - stride + i - channels]) : 0
        let value: Int
        switch filter {
        case 0: value = x
        case 1: value = x + a
        case 2: value = x + b
        case 3: value = x + (a + b) / 2
        case 4:
          let p = a + b - c
          let pa = abs(p - a)
          let pb = abs(p - b)
          let pc = abs(p - c)
          value = x + (pa <= pb && pa <= pc ? a : pb <= pc ? b : c)
        default: throw Unreadable(description: "scanline filter \(filter)")
        }
        out[target + i] = UInt8(truncatingIfNeeded: value)
      }
    }
    return out
  }
}
