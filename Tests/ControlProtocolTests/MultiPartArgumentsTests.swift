import ControlProtocol
import Testing

/// The one rule a long import or route follows on both sides of the socket: the client
/// cuts it into parts, the daemon joins them.
struct MultiPartArgumentsTests {
  static let track = ImportArguments(
    name: "Tuesday", points: (0..<2500).map { WireTrackPoint(lat: 51.5, lon: -0.12, time: Double($0), accuracy: nil) })

  @Test func partsHoldAtMostTheirSizeAndAllButTheLastSayMore() {
    let parts = Self.track.parts(of: 1000)
    #expect(parts.map(\.points.count) == [1000, 1000, 500])
    #expect(parts.map(\.more) == [true, true, false])
    #expect(parts.map(\.name) == ["Tuesday", "Tuesday", "Tuesday"])
    #expect(parts.flatMap(\.points) == Self.track.points)
    // A whole that fits, even an empty one, is one last part.
    #expect(ImportArguments(points: []).parts(of: 1000).map(\.more) == [false])
  }

  @Test func joiningThePartsGivesTheWholeBack() {
    let parts = Self.track.parts(of: 700)
    let joined = parts.dropFirst().reduce(parts[0]) { $0.appending($1) }
    #expect(joined == Self.track)
  }

  @Test func aRoutePartInAnotherModeCannotContinueIt() {
    let driving = RouteLoadArguments(mode: .driving, coordinates: [WireCoordinate(lat: 1, lon: 2)], more: true)
    var walking = driving
    walking.mode = .walking
    #expect(driving.mismatch(with: driving) == nil)
    #expect(driving.mismatch(with: walking) == "a part changed the mode from driving to walking")
    #expect(Self.track.mismatch(with: Self.track) == nil)
  }
}
