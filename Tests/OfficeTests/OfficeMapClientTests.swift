import Foundation
import Office
import TestSupport
import Testing

/// GDAL's ogrinfo and ogr2ogr read the office as any map tool would, through the same
/// PostgreSQL service the QGIS project names: every layer of docs/office/dashpilot-office.qgs
/// is there with its geometry and key, and a shift with one capture gap comes out as two
/// lines, each holding only its own positions.
@Suite(.requiresPostGIS, .requiresGDAL)
struct OfficeMapClientTests {
  struct Layer {
    var relation: String
    var geometryColumn: String
    var key: [String]
    var type: String
  }

  /// The layers of the QGIS project, read from their datasources.
  static func projectLayers() throws -> [Layer] {
    let text = try String(
      contentsOf: TestPaths.repositoryRoot.appendingPathComponent("docs/office/dashpilot-office.qgs"), encoding: .utf8)
    return text.components(separatedBy: "<datasource>").dropFirst().map { part in
      let source = String(part.prefix { $0 != "<" }).replacing("&quot;", with: "\"")
      let table = source.components(separatedBy: "table=\"public\".\"")[1]
      let relation = String(table.prefix { $0 != "\"" })
      let geometry = String(table.drop { $0 != "(" }.dropFirst().prefix { $0 != ")" })
      let key = source.components(separatedBy: "key='")[1].prefix { $0 != "'" }
      let type = source.components(separatedBy: "type=")[1].prefix { $0 != " " }
      return Layer(
        relation: relation, geometryColumn: geometry,
        key: key.split(separator: ",").map { String($0).replacing("\"", with: "") }, type: String(type))
    }
  }

  @Test func everyLayerOfTheQGISProjectIsReadByOgrinfoAndTheStretchesByOgr2ogr() throws {
    let database = try OfficeDatabase("map_client")
    _ = try database.writer().write(OfficeWriterTests.shiftMessages().map { BoxPayloads.inbound($0) })
    let directory = try TestPaths.temporaryDirectory("office-gdal")
    defer { try? FileManager.default.removeItem(at: directory) }
    let services = directory.appendingPathComponent("pg_service.conf")
    try """
    [dashpilot]
    host=\(database.server.socketDirectory.path)
    port=\(database.server.port)
    user=\(PostgresServer.superuser)
    dbname=\(database.name)

    """.write(to: services, atomically: true, encoding: .utf8)
    var environment = ProcessInfo.processInfo.environment
    environment["PGSERVICEFILE"] = services.path

    let layers = try Self.projectLayers()
    #expect(layers.map(\.relation) == ["live", "stops", "jobs", "stretches", "samples"])
    for layer in layers {
      let info = try ProcessRunner.run(
        URL(fileURLWithPath: "/usr/bin/ogrinfo"), ["-ro", "-so", "PG:service=dashpilot", layer.relation],
        environment: environment, timeout: 60)
      #expect(info.status == 0, "\(layer.relation): \(info.standardError)")
      let count = try database.count(layer.relation)
      #expect(info.standardOutput.contains("Feature Count: \(count)"), "\(layer.relation): \(info.standardOutput)")
      let geometryLine = info.standardOutput.split(separator: "\n").first { $0.hasPrefix("Geometry Column") }
      #expect(geometryLine?.hasSuffix("= \(layer.geometryColumn)") == true, "\(layer.relation): \(geometryLine ?? "")")
      #expect(
        info.standardOutput.contains("Geometry: \(layer.type == "LineString" ? "Line String" : "Point")"),
        "\(info.standardOutput)")
      for column in layer.key where column != "id" {
        #expect(info.standardOutput.contains("\n\(column): "), "\(layer.relation) has no \(column)")
      }
    }

    let output = directory.appendingPathComponent("stretches.geojson")
    let export = try ProcessRunner.run(
      URL(fileURLWithPath: "/usr/bin/ogr2ogr"),
      [
        "-f", "GeoJSON", output.path, "PG:service=dashpilot", "stretches", "-where", "vehicle = 'van-7' AND shift = 42",
      ],
      environment: environment, timeout: 60)
    #expect(export.status == 0, "\(export.standardError)")
    let geojson = try JSONSerialization.jsonObject(with: Data(contentsOf: output)) as? [String: Any]
    let features = geojson?["features"] as? [[String: Any]] ?? []
    #expect(features.count == 2)
    for feature in features {
      let geometry = feature["geometry"] as? [String: Any]
      let properties = feature["properties"] as? [String: Any]
      #expect(geometry?["type"] as? String == "LineString")
      #expect((geometry?["coordinates"] as? [Any])?.count == properties?["positions"] as? Int)
    }
    #expect(features.compactMap { ($0["properties"] as? [String: Any])?["positions"] as? Int } == [60, 30])
  }
}
