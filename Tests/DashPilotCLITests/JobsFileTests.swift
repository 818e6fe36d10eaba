import DashPilotCore
import Foundation
import Testing

@testable import DashPilotCLI

/// The files `dashpilotctl jobs import` reads: CSV and GeoJSON points with the wire's names,
/// each job read by the wire's own reader, every problem named with the file, its line and
/// the field.
struct JobsFileTests {
  static func read(_ text: String, file: String = "day.csv") -> Result<[JobsFile.Entry], JobsFile.Problems> {
    JobsFile.jobs(from: Data(text.utf8), file: file)
  }

  static func problems(_ text: String, file: String = "day.csv") -> [String] {
    guard case .failure(let problems) = read(text, file: file) else { return [] }
    return problems.list.map(\.description)
  }

  static let window = DateInterval(
    start: UTCTimestamp.parse("2026-12-02T09:00:00Z")!, end: UTCTimestamp.parse("2026-12-02T11:00:00Z")!)

  @Test("CSV: a header in any order, quoted fields, optional columns left empty, CRLF and a BOM")
  func csv() throws {
    let text =
      "\u{FEFF}name,id,lat,lon,radius_m,window_start,window_end,note\r\n"
      + "\"Flowers, 12 High St\",A-1,51.5109801,-0.12,30,2026-12-02T09:00:00Z,2026-12-02T11:00:00Z,\"ring \"\"twice\"\"\"\r\n"
      + "\r\n"
      + "Parcel,B-2, 51.52 , -0.121,,,,\r\n"
    let entries = try Self.read(text).get()
    #expect(
      entries == [
        JobsFile.Entry(
          job: DeliveryJob(
            id: "A-1", name: "Flowers, 12 High St", destination: GeoCoordinate(latitude: 51.5109801, longitude: -0.12),
            radius: 30, window: Self.window, note: "ring \"twice\""), line: 2),
        JobsFile.Entry(
          job: DeliveryJob(id: "B-2", name: "Parcel", destination: GeoCoordinate(latitude: 51.52, longitude: -0.121)),
          line: 4),
      ])
  }

  @Test("CSV: every bad line named with its line and field, in the wire's words")
  func csvProblems() {
    let text = """
      id,name,lat,lon,radius_m,window_start,window_end
      A-1,Flowers,51.5,-0.12,5,,
      B-2,,51.5,-0.12,,,
      C-3,Parcel,north,-0.12,,,
      D-4,Parcel,95,-0.12,,,
      E-5,Parcel,51.5,-0.12,,2026-12-02T09:00:00Z,
      F-6,Parcel,51.5,-0.12,,2026-12-02T11:00:00Z,2026-12-02T09:00:00Z
      G-7,Parcel,51.5,-0.12,,tomorrow,2026-12-02T09:00:00Z
      H-8,"Parcel,51.5,-0.12,,,
      I-9,Parcel,51.5
      A-1,Flowers,51.5,-0.12,30,,
      """
    #expect(
      Self.problems(text) == [
        #"day.csv:2: "radius_m" must be a number of metres from 10 to 1000"#,
        #"day.csv:3: needs "name": what the driver reads and hears"#,
        #"day.csv:4: "lat" must be a number of degrees, not "north""#,
        #"day.csv:5: 95.0,-0.12 is not a position on Earth ("lat" within ±90, "lon" within ±180)"#,
        #"day.csv:6: a window needs both "window_start" and "window_end""#,
        #"day.csv:7: "window_end" must come after "window_start""#,
        #"day.csv:8: "window_start" must be a UTC time such as 2026-11-01T00:00:00Z"#,
        "day.csv:9: a quoted field is not closed on its line",
        "day.csv:10: has 3 fields; the header names 7 columns",
      ])
    // Once every line reads, a repeated id is named too.
    #expect(
      Self.problems("id,name,lat,lon\nA-1,Flowers,51.5,-0.12\nB-2,Parcel,51.5,-0.12\nA-1,Flowers,51.5,-0.12\n")
        == [#"day.csv:4: "id" A-1 is given before, on line 2"#])
  }

  @Test("CSV: a header that is not the jobs' is refused at line 1, naming the columns")
  func csvHeader() {
    #expect(
      Self.problems("id,name,lat,lon,radius\nA-1,Flowers,51.5,-0.12,30\n") == [
        #"day.csv:1: the header names the column "radius"; the columns are id, name, lat, lon, radius_m, window_start, window_end, note (the first four needed)"#
      ])
    #expect(
      Self.problems("id,name,lat\n") == [
        #"day.csv:1: the header has no column "lon": id, name, lat, lon are needed"#
      ])
    #expect(Self.problems("id,name,lat,lon\n") == ["day.csv: holds no job"])
    #expect(Self.problems("") == ["day.csv: holds no header line"])
  }

  @Test("GeoJSON: Points with the wire's properties, other properties ignored; an integer id is its digits")
  func geoJSON() throws {
    let text = """
      {"type": "FeatureCollection", "features": [
        {"type": "Feature", "geometry": {"type": "Point", "coordinates": [-0.12, 51.5109801]},
         "properties": {"id": "A-1", "name": "Flowers", "radius_m": 30, "window_start": "2026-12-02T09:00:00Z",
                        "window_end": "2026-12-02T11:00:00Z", "note": "ring twice", "marker-color": "#f00"}},
        {"type": "Feature", "geometry": {"type": "Point", "coordinates": [-0.121, 51.52]},
         "properties": {"id": 1042, "name": "Parcel"}}
      ]}
      """
    #expect(
      try Self.read(text, file: "day.geojson").get() == [
        JobsFile.Entry(
          job: DeliveryJob(
            id: "A-1", name: "Flowers", destination: GeoCoordinate(latitude: 51.5109801, longitude: -0.12), radius: 30,
            window: Self.window, note: "ring twice"), line: 2),
        JobsFile.Entry(
          job: DeliveryJob(id: "1042", name: "Parcel", destination: GeoCoordinate(latitude: 51.52, longitude: -0.121)),
          line: 5),
      ])
  }

  @Test("GeoJSON: each bad feature named with the line it begins on, its number and id, and the field")
  func geoJSONProblems() {
    let text = """
      {"type":"FeatureCollection","features":[
      {"type":"Feature","geometry":{"type":"Point","coordinates":[-0.12,51.5]},"properties":{"id":"A-1","name":"Ok"}},
      {"type":"Feature","geometry":{"type":"Point","coordinates":[-0.12,51.5]},
       "properties":{"id":"B-2","name":"Tight","radius_m":5}},
      {"type":"Feature","geometry":{"type":"LineString","coordinates":[[-0.12,51.5],[-0.11,51.5]]},"properties":{"id":"C-3","name":"Road"}},
      {"type":"Feature","geometry":{"type":"Point","coordinates":[-0.12,51.5]},"properties":{"name":"No id \\"here\\""}}
      ]}
      """
    #expect(
      Self.problems(text, file: "day.geojson") == [
        #"day.geojson:3: feature 2 ("B-2"): "radius_m" must be a number of metres from 10 to 1000"#,
        #"day.geojson:5: feature 3 ("C-3"): a job is a Point geometry with coordinates [longitude, latitude]"#,
        #"day.geojson:6: feature 4: needs "id": the job's id, 1 to 64 bytes"#,
      ])
    #expect(
      Self.problems(#"{"type":"Feature"}"#, file: "day.geojson") == [
        #"day.geojson: is not a GeoJSON FeatureCollection of jobs (its type is "Feature")"#
      ])
    #expect(
      Self.problems("{not json", file: "day.geojson") == [
        #"day.geojson: is neither CSV nor JSON: it begins with "{" but is not valid JSON"#
      ])
  }

  @Test("a file of more jobs than the queue holds is refused before anything is sent")
  func tooMany() {
    let rows = (0..<201).map { "J-\($0),Parcel \($0),51.5,-0.12" }
    #expect(
      Self.problems("id,name,lat,lon\n" + rows.joined(separator: "\n")) == [
        "day.csv: holds 201 jobs; the queue holds at most 200"
      ])
  }
}
