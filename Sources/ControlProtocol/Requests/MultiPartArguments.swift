/// The arguments of a request sent in parts, because one line holds at most 64 KiB (an
/// `import`'s points, a `route load`'s coordinates): every part but the last says `more`,
/// and the daemon assembles the parts one connection sent before it acts on the whole.
/// The one rule for both sides: `parts(of:)` cuts, `appending(_:)` joins.
public protocol MultiPartArguments: Sendable {
  associatedtype Element: Sendable
  /// What each part carries some of.
  var elements: [Element] { get set }
  var more: Bool { get set }
  /// What the elements are called in a refusal: "points", "coordinates".
  static var elementsName: String { get }
  /// Why `part` cannot continue what has arrived so far (a route whose mode changed), in
  /// words that follow the command's name; nil when it can.
  func mismatch(with part: Self) -> String?
  /// The request these arguments make.
  var command: ControlCommand { get }
  /// The most elements the assembled whole may hold, when it is fewer than the server's
  /// limit for points (a job list: the queue's bound).
  static var maximumElements: Int? { get }
}

extension MultiPartArguments {
  public static var maximumElements: Int? { nil }
}

extension MultiPartArguments {
  /// The whole cut into parts of at most `size` elements, each but the last marked `more`
  /// (one part, possibly empty, for a whole that fits).
  public func parts(of size: Int) -> [Self] {
    let size = max(1, size)
    let starts = Array(stride(from: 0, to: max(elements.count, 1), by: size))
    return starts.enumerated().map { index, start in
      var part = self
      part.elements = Array(elements[start..<min(start + size, elements.count)])
      part.more = index < starts.count - 1
      return part
    }
  }

  /// What has arrived so far with `part` after it, marked as `part` is.
  public func appending(_ part: Self) -> Self {
    var whole = self
    whole.elements += part.elements
    whole.more = part.more
    return whole
  }
}
