/// A line of an answer that comes in parts (`export`, `report`). A shift's track can be
/// hundreds of thousands of points, so the daemon never builds it as one line: the first
/// line's result is the answer itself (`ExportResult`, `ReportResult`) holding the first
/// points and `"more": true`; each following line's result is a `TrackPart` continuing its
/// track. The line whose `more` is false ends the answer; an answer that fits in one line
/// has no `more` at all.
public struct TrackPart: Sendable, Hashable, Codable {
  /// More of the track, in order. When `continues` is true the first of them continues
  /// the answer's last segment so far (a segment cut at a part's end); the rest are new
  /// segments, each its own stretch of capture.
  public var segments: [[WireTrackPoint]]
  public var continues: Bool
  public var more: Bool

  public init(segments: [[WireTrackPoint]], continues: Bool, more: Bool) {
    self.segments = segments
    self.continues = continues
    self.more = more
  }
}

/// An answer whose track may come in parts: its head, then `TrackPart`s appended in order.
public protocol PartedTrackAnswer: Codable, Sendable {
  /// The track the parts continue: `export`'s segments, `report`'s stretches.
  var track: [[WireTrackPoint]] { get set }
  /// True on a head that parts follow; nil on an answer that is whole.
  var more: Bool? { get set }
}

extension PartedTrackAnswer {
  /// Appends `part` to the track, as the daemon cut it.
  public mutating func append(_ part: TrackPart) {
    var segments = part.segments[...]
    if part.continues, let first = segments.first, !track.isEmpty {
      track[track.count - 1].append(contentsOf: first)
      segments = segments.dropFirst()
    }
    track.append(contentsOf: segments)
    more = part.more ? true : nil
  }
}

/// A track cut, in order, into parts of at most `pointsPerPart` points: what the daemon
/// sends as an answer's head and its `TrackPart`s. A segment longer than what is left of a
/// part goes on in the next, which then `continues` it.
public struct TrackParts: Sendable {
  private let track: [[WireTrackPoint]]
  private let pointsPerPart: Int
  private var segment = 0
  private var offset = 0
  private var started = false

  public init(_ track: [[WireTrackPoint]], pointsPerPart: Int) {
    self.track = track
    self.pointsPerPart = max(1, pointsPerPart)
  }

  /// Whether every point has been given (never before the first part, which an empty
  /// track gives empty).
  public var isFinished: Bool { started && segment >= track.count }

  /// The next part's segments, and whether its first continues the previous part's last;
  /// nil once the track has all been given.
  public mutating func next() -> (segments: [[WireTrackPoint]], continues: Bool)? {
    guard !isFinished else { return nil }
    started = true
    let continues = offset > 0
    var segments: [[WireTrackPoint]] = []
    var room = pointsPerPart
    while segment < track.count, room > 0 {
      let points = track[segment]
      let taken = min(room, points.count - offset)
      segments.append(Array(points[offset..<(offset + taken)]))
      offset += taken
      room -= taken
      if offset >= points.count {
        segment += 1
        offset = 0
      }
    }
    return (segments, continues)
  }
}
