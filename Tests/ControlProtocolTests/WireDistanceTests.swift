import ControlProtocol
import DashPilotCore
import Foundation
import Testing

/// A `RouteDistance` has one JSON shape, written by `WireDistance`'s encoding wherever a
/// distance goes out: the socket's answers, `replay --json`, the uplink's messages.
struct WireDistanceTests {
  static let partial = RouteDistance(
    metres: 19_956.349, segments: 3, gaps: 2, usablePositions: 812, usesInferredContinuity: false)

  @Test func theOneShapeUsesTheShortNamesAndMetresToTheDecimetre() {
    #expect(
      ControlCoding.text(WireDistance(Self.partial, unit: .miles))
        == #"{"gaps":2,"inferred_continuity":false,"measured":true,"metres":19956.3,"partial":true,"segments":3,"#
        + #""unit":"miles","usable_positions":812,"value":12.4}"#)
    #expect(
      ControlCoding.text(WireDistance(.empty, unit: .kilometres))
        == #"{"gaps":0,"inferred_continuity":false,"measured":false,"metres":0,"partial":false,"segments":0,"#
        + #""unit":"kilometres","usable_positions":0,"value":null}"#)
  }

  @Test func aClientReadsBackWhatTheDaemonWrote() throws {
    let written = WireDistance(Self.partial, unit: .kilometres)
    let read = try ControlCoding.makeDecoder().decode(
      WireDistance.self, from: Data(ControlCoding.text(written).utf8))
    #expect(read.metres == 19_956.3)
    #expect(read.value == 20)
    #expect(read.isPartial && read.isMeasured && !read.usesInferredContinuity)
    #expect(read.usablePositions == 812)
  }
}
