import Foundation
import Office
import OfficeCore
import TestSupport

/// A fresh database of the shared test server with the office's schema, and the reads the
/// tests compare.
struct OfficeDatabase {
  let server: PostgresServer
  let name: String

  init(_ label: String) throws {
    let (server, name) = try PostgresServer.freshDatabase(label)
    try self.init(server: server, name: name)
  }

  /// A PostgreSQL of the test's own (to stop, or to fill its disk), its database `office`
  /// with PostGIS and the schema.
  static func onOwnServer(dataParent: URL? = nil, settings: [String: String] = [:]) throws -> OfficeDatabase {
    let server = try PostgresServer(dataParent: dataParent, settings: settings)
    try server.start()
    try server.createDatabase("office")
    try server.psql("CREATE EXTENSION postgis", database: "office")
    return try OfficeDatabase(server: server, name: "office")
  }

  /// `name` on `server`, PostGIS in it already, given the office's schema.
  init(server: PostgresServer, name: String) throws {
    self.server = server
    self.name = name
    let connection = try PostgresConnection(conninfo)
    try SchemaMigrator.migrate(connection, software: "dashpilot-officed tests")
    try connection.execute(
      """
      INSERT INTO workers (worker, host, pid, client_id, started_at, heartbeat_at, broker_connected)
      VALUES (1, 'test', 0, 'test-1', now(), now(), true)
      """)
  }

  var conninfo: String { server.conninfo(database: name) }

  func psql(_ sql: String) throws -> String { try server.psql(sql, database: name) }

  func count(_ table: String) throws -> Int { Int(try psql("SELECT count(*) FROM \(table)")) ?? -1 }

  func writer(worker: Int = 1) throws -> BatchWriter {
    try BatchWriter(connection: PostgresConnection(conninfo), worker: worker, topics: BoxPayloads.topics)
  }

  /// Every stored row of every table, in one order, without what differs by when and where
  /// it was written (received, committed, by which worker): two databases that hold the same
  /// facts print the same text.
  func contents() throws -> String {
    try [
      "SELECT vehicle, status, status_since FROM vehicles ORDER BY 1",
      "SELECT vehicle, shift, started_at, ended_at, started_by, ended_by, metres, value, unit, segments, gaps, "
        + "usable_positions, inferred_continuity, measured, partial, summary, distance, key, sequence, queued_at "
        + "FROM shifts ORDER BY 1, 2",
      "SELECT vehicle, shift, time, ST_AsText(position), accuracy, speed, course, held, accuracy_assumed, "
        + "dated_by_arrival, capture_session FROM samples ORDER BY 1, 2, 3",
      "SELECT * FROM sessions ORDER BY 1, 2, 3",
      "SELECT vehicle, arrival, shift, departure, duration_s, start, \"end\", cut, ST_AsText(position), wander_m, "
        + "positions, place, stop, sequence FROM stops ORDER BY 1, 2",
      "SELECT vehicle, id, name, ST_AsText(destination), radius_m, window_start, window_end, note, state, shift, "
        + "visit_arrival, visit_departure, visit_duration_s, visit_distance_m, receiver_reported_throughout, "
        + "within_window, stop_end, job FROM jobs ORDER BY 1, 2",
      "SELECT vehicle, time, type, digest, shift, message, event FROM events ORDER BY 1, 2, 3, 4",
      "SELECT vehicle, sequence, queued_at, shift, kind, key, bytes, samples FROM ledger ORDER BY 1, 2",
      "SELECT vehicle, topic, code, reason, bytes, payload FROM rejected ORDER BY 1, 2, 6",
    ].map { try psql($0) }.joined(separator: "\n---\n")
  }
}
