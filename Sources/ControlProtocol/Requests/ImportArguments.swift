/// `import`: a track from another logger, sent in parts because one line holds at most
/// 64 KiB: every part but the last says `more`, and the daemon hands the assembled track
/// to the store once the last part arrives on the same connection.
public struct ImportArguments: Sendable, Hashable {
  public var name: String?
  public var points: [WireTrackPoint]
  public var more: Bool

  public init(name: String? = nil, points: [WireTrackPoint], more: Bool = false) {
    self.name = name
    self.points = points
    self.more = more
  }
}

extension ImportArguments: MultiPartArguments {
  public var elements: [WireTrackPoint] {
    get { points }
    set { points = newValue }
  }
  public static var elementsName: String { "points" }
  public func mismatch(with part: ImportArguments) -> String? { nil }
  public var command: ControlCommand { .import(self) }
}
