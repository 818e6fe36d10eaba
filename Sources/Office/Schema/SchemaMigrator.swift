import FoundationEssentials

/// The office's schema, versioned in `office_schema` and brought up to date at start under
/// an advisory lock, so that several services (or workers) starting at once migrate once.
/// A database whose schema is newer than this build knows is refused: an older service
/// must not write into tables whose meaning it does not know.
public enum SchemaMigrator {
  /// Each version's SQL, in order: index 0 is version 1.
  static var migrations: [String] {
    [OfficeSchemaTables.sql + OfficeSchemaFunctions.sql + OfficeSchemaViews.sql]
  }

  public static var latestVersion: Int { migrations.count }

  /// The advisory lock's key: any bigint the office alone uses ("dashpilot" in ASCII).
  static let lockKey: Int64 = 0x6461_7368_7069_6C74

  public struct Refusal: Error, Sendable, CustomStringConvertible {
    public var description: String
  }

  /// The version before and after; throws `Refusal` for a newer database, and the server's
  /// error for a migration it refused (the transaction is rolled back, nothing half-done).
  @discardableResult
  public static func migrate(
    _ connection: PostgresConnection, software: String
  ) throws -> (from: Int, to: Int) {
    try connection.execute("SELECT pg_advisory_lock(\(lockKey))")
    defer { _ = try? connection.execute("SELECT pg_advisory_unlock(\(lockKey))") }
    try connection.execute(
      """
      CREATE TABLE IF NOT EXISTS office_schema (
        version integer PRIMARY KEY,
        applied_at timestamptz NOT NULL DEFAULT now(),
        software text NOT NULL
      )
      """)
    let current =
      Int(try connection.execute("SELECT coalesce(max(version), 0) FROM office_schema").value(0, 0) ?? "0")
      ?? 0
    guard current <= latestVersion else {
      throw Refusal(
        description:
          "the database's office schema is version \(current), newer than this \(software) knows "
          + "(\(latestVersion)): run the newer dashpilot-officed that made it")
    }
    for version in (current + 1)...max(current + 1, latestVersion) where version <= latestVersion {
      try connection.execute("BEGIN")
      do {
        try connection.execute(migrations[version - 1])
        try connection.execute(
          "INSERT INTO office_schema (version, software) VALUES ($1, $2)",
          [
            String(version), software,
          ])
        try connection.execute("COMMIT")
      } catch {
        _ = try? connection.execute("ROLLBACK")
        throw error
      }
    }
    return (current, latestVersion)
  }
}
