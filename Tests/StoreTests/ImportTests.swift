import DashPilotCore
import Foundation
import TestSupport
import Testing

@testable import Store

@Suite struct ImportTests {
  @Test func anImportedTrackIsACompletedShiftMeasuredWithInferredContinuity() throws {
    let file = try TemporaryStoreFile("import")
    let store = try file.open()
    // Another logger's track: the session it claims is not ours, so it is dropped.
    var track = straightRoute(count: 21, session: CaptureSessionID("other-logger"), start: at(1_690_000_000))
    track.swapAt(3, 15)  // out of order in the file
    let shift = try store.importTrack(track, source: "morning.gpx")
    #expect(shift.origin == .imported(source: "morning.gpx"))
    #expect(shift.shift.startedAt == at(1_690_000_000))
    #expect(shift.shift.endedAt == at(1_690_000_020))
    #expect(try store.sampleCount(ofShift: shift.id) == 21)
    #expect(try store.openShift() == nil)

    let stored = try store.samples(ofShift: shift.id)
    #expect(stored.allSatisfy { $0.captureSessionID == nil })
    #expect(stored.map(\.timestamp) == (0...20).map { at(1_690_000_000 + Double($0)) })

    let distance = try store.recordedDistance(ofShift: shift.id)
    #expect(distance.usesInferredContinuity)
    #expect(distance.isPartial)
    #expect(distance.segments == 1)
    #expect(distance.gaps == 0)
    #expect(distance.usablePositions == 21)
    #expect(abs(distance.metres - 2_000) < 0.1)
    #expect(RouteQuality(distance: distance).summary == "1.2 mi recorded · partial route")
  }

  @Test func anImportDoesNotDisturbTheOpenShift() throws {
    let file = try TemporaryStoreFile("import-open")
    let store = try file.open()
    let open = try store.startShift(at: at(1_700_000_000))
    let imported = try store.importTrack(straightRoute(count: 3, session: nil), source: "old.gpx")
    #expect(imported.id == 2)
    #expect(try store.openShift()?.id == open.id)
    #expect(try store.sampleCount(ofShift: open.id) == 0)
  }

  @Test func aPositionThatCannotBeStoredIsNamedAndNothingIsImported() throws {
    let file = try TemporaryStoreFile("import-bad")
    let store = try file.open()
    var track = straightRoute(count: 5, session: nil)
    track[2].coordinate.longitude = 181
    let error = #expect(throws: StoreError.self) { _ = try store.importTrack(track, source: "bad.gpx") }
    #expect(error?.description.contains("position 3 of 5") == true)
    #expect(throws: StoreError.emptyTrack) { _ = try store.importTrack([], source: "empty.gpx") }
    #expect(try store.shifts().isEmpty)
  }
}
