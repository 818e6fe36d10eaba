import ControlProtocol
import Testing

/// How a track is cut into an answer's parts and joined again.
@Suite("Track parts")
struct TrackPartsTests {
  struct Track: PartedTrackAnswer, Equatable {
    var track: [[WireTrackPoint]]
    var more: Bool?
  }

  static func points(_ count: Int, from start: Int) -> [WireTrackPoint] {
    (start..<(start + count)).map { WireTrackPoint(lat: Double($0), lon: 0, time: Double($0)) }
  }

  /// Every part of `track` cut at `size`: each part's segment lengths and `continues`.
  static func cut(_ track: [[WireTrackPoint]], _ size: Int) -> [(lengths: [Int], continues: Bool)] {
    var parts = TrackParts(track, pointsPerPart: size)
    var result: [(lengths: [Int], continues: Bool)] = []
    while let part = parts.next() { result.append((part.segments.map(\.count), part.continues)) }
    return result
  }

  @Test("a segment longer than a part goes on in the next, which continues it")
  func cutsAcrossSegments() {
    let track = [Self.points(5, from: 0), Self.points(1, from: 5), Self.points(3, from: 6)]
    let parts = Self.cut(track, 4)
    #expect(parts.map(\.lengths) == [[4], [1, 1, 2], [1]])
    #expect(parts.map(\.continues) == [false, true, true])
  }

  @Test("a part that ends where a segment ends leaves the next one new")
  func endsAtASegment() {
    let parts = Self.cut([Self.points(4, from: 0), Self.points(2, from: 4)], 4)
    #expect(parts.map(\.lengths) == [[4], [2]])
    #expect(parts.map(\.continues) == [false, false])
  }

  @Test("an empty track is one empty part")
  func emptyTrack() {
    let parts = Self.cut([], 4)
    #expect(parts.map(\.lengths) == [[]])
    var cursor = TrackParts([], pointsPerPart: 4)
    _ = cursor.next()
    #expect(cursor.isFinished)
  }

  @Test("the head and its parts joined give the track back, point for point")
  func joinsBack() {
    let track = [Self.points(7, from: 0), Self.points(1, from: 7), Self.points(10, from: 8)]
    var parts = TrackParts(track, pointsPerPart: 3)
    let first = parts.next()!
    var whole = Track(track: first.segments, more: parts.isFinished ? nil : true)
    var lines = 1
    while let part = parts.next() {
      whole.append(TrackPart(segments: part.segments, continues: part.continues, more: !parts.isFinished))
      lines += 1
    }
    #expect(lines == 6)
    #expect(whole == Track(track: track, more: nil))
  }
}
