import Foundation
import Office
import OfficeCore
import TestSupport
import Testing

/// `dashpilot-officed report` draws a shift from the office's rows with ShiftReport, as
/// `dashpilotctl report` draws it on the box: two stretches solid, the capture gap between
/// them dashed and labelled with its cause from the session message, the stop numbered, the
/// box's figure beneath. (OfficeDriveTests compares it with dashpilotctl's drawing of a
/// real drive, byte for byte but the title.)
@Suite(.requiresPostGIS)
struct OfficeReportTests {
  @Test func drawsAShiftFromItsRows() throws {
    let database = try OfficeDatabase("report")
    _ = try database.writer().write(OfficeWriterTests.shiftMessages().map { BoxPayloads.inbound($0) })
    let connection = try PostgresConnection(database.conninfo)
    let rows = try OfficeReportCommand.read(connection, vehicle: "van-7", shift: 42)
    #expect(rows.samples.count == 90 && rows.sessionEnds == ["cs-1": "connection_lost"] && rows.jobs.count == 1)
    setenv("TZ", "UTC", 1)
    tzset()
    let svg = try SVGDocument(OfficeReportCommand.render(rows, vehicle: "van-7"))
    #expect(svg.elements(ofClass: "stretch").count == 2)
    #expect(svg.elements(ofClass: "gap").count == 1)
    #expect(svg.elements(ofClass: "job").count == 1)
    #expect(svg.elements(ofClass: "title").first?.text == "van-7 · Shift #42 · Tue 14 Nov 2023 22:13–22:20")
    let text = svg.elements.map(\.text).joined(separator: "\n")
    #expect(text.contains("0.7 mi recorded · partial route"))
    #expect(text.contains("gap 22:14–22:20 (6 min): gpsd connection lost"))
    #expect(text.contains("A-1 Flowers: visited, stood 6 min (22:14–22:20), 3 m from it"))
  }

  @Test func aShiftTheOfficeHasNeverHeardOfIsSaidSo() throws {
    let database = try OfficeDatabase("report_none")
    let connection = try PostgresConnection(database.conninfo)
    #expect(throws: (any Error).self) { try OfficeReportCommand.read(connection, vehicle: "van-7", shift: 9) }
    let outcome = try ProcessRunner.run(
      DaemonBinaries.url("dashpilot-officed"), ["report", "van-7", "9", "--database", database.conninfo], timeout: 30)
    #expect(outcome.status == 1)
    #expect(
      outcome.standardError
        == "dashpilot-officed: the office has no shift 9 of van-7 (no shift message, no samples)\n")
  }
}
