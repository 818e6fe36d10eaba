import Foundation
import Office
import TestSupport
import Testing

/// The schema against a real PostgreSQL with PostGIS: made at start under a lock, made once
/// however often the service starts, refused when the database is newer, and partitions
/// made for any month a row needs.
@Suite(.requiresPostGIS)
struct OfficeSchemaTests {
  @Test func migratesOnceAndMakesEveryTableAndView() throws {
    let (server, database) = try PostgresServer.freshDatabase("schema")
    let connection = try PostgresConnection(server.conninfo(database: database))
    let first = try SchemaMigrator.migrate(connection, software: "dashpilot-officed test")
    #expect(first.from == 0 && first.to == 1)
    let again = try SchemaMigrator.migrate(connection, software: "dashpilot-officed test")
    #expect(again.from == 1 && again.to == 1)
    let relations = try server.psql(
      """
      SELECT string_agg(relname || ':' || relkind::text, ' ' ORDER BY relname) FROM pg_class
      WHERE relnamespace = 'public'::regnamespace AND relkind IN ('r', 'p', 'v')
        AND relname NOT IN ('spatial_ref_sys', 'geometry_columns', 'geography_columns')
      """, database: database)
    #expect(
      relations
        == "events:p holes:v jobs:r ledger:p live:v office_schema:r rejected:r samples:p sessions:r shift_distance:v "
        + "shifts:r stops:r stretches:v vehicles:r workers:r")
    #expect(
      try server.psql("SELECT version, software FROM office_schema", database: database)
        == "1|dashpilot-officed test")
  }

  @Test func refusesADatabaseNewerThanItKnows() throws {
    let (server, database) = try PostgresServer.freshDatabase("schema_newer")
    let connection = try PostgresConnection(server.conninfo(database: database))
    try SchemaMigrator.migrate(connection, software: "test")
    try server.psql("INSERT INTO office_schema (version, software) VALUES (7, 'a later office')", database: database)
    do {
      try SchemaMigrator.migrate(connection, software: "dashpilot-officed 0.3.0")
      Issue.record("a version 7 database was accepted")
    } catch let refusal as SchemaMigrator.Refusal {
      #expect(
        refusal.description
          == "the database's office schema is version 7, newer than this dashpilot-officed 0.3.0 knows (1): "
          + "run the newer dashpilot-officed that made it")
    }
  }

  @Test func makesAMonthOnDemandAndAfterItWasDetached() throws {
    let (server, database) = try PostgresServer.freshDatabase("schema_months")
    let connection = try PostgresConnection(server.conninfo(database: database))
    try SchemaMigrator.migrate(connection, software: "test")
    // A session in another time zone must not move a month's bounds.
    try connection.execute("SET TIME ZONE 'America/New_York'")
    #expect(
      try connection.execute("SELECT office_month_partition('samples', '2019-03-31 23:30:00+00')").value(0, 0)
        == "samples_y2019m03")
    let bounds = try server.psql(
      "SELECT pg_get_expr(relpartbound, oid) FROM pg_class WHERE relname = 'samples_y2019m03'", database: database)
    #expect(bounds == "FOR VALUES FROM ('2019-03-01 00:00:00+00') TO ('2019-04-01 00:00:00+00')")
    #expect(
      try connection.execute("SELECT office_month_partition('samples', '2019-03-01T00:00:00Z')").value(0, 0)
        == "samples_y2019m03")
    let detached = try server.psql(
      "SELECT string_agg(d, ' ' ORDER BY d) FROM office_detach_month('2019-03-15') d",
      database: database)
    #expect(detached == "samples_y2019m03")
    #expect(
      try connection.execute("SELECT office_month_partition('samples', '2019-03-02T00:00:00Z')").value(0, 0)
        == "samples_y2019m03_r2")
  }
}
