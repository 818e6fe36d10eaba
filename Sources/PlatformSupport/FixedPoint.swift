#if canImport(Glibc)
  import Glibc
#endif

extension Double {
  /// The value with exactly `decimals` digits after the point, as C's "%.*f" writes it
  /// (no locale: always a point, never a grouping separator). String(format:) would do the
  /// same but lives in Foundation, which the daemon does not link.
  public func fixedPoint(decimals: Int) -> String {
    var buffer = [CChar](repeating: 0, count: 352)
    let count = withVaList([Int32(max(0, min(decimals, 17))), self]) { arguments in
      vsnprintf(&buffer, buffer.count, "%.*f", arguments)
    }
    guard count >= 0 else { return String(self) }
    return String(
      decoding: buffer.prefix(min(Int(count), buffer.count - 1)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }
}
