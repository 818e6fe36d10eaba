/// Tables another module keeps in the store's file, with migrations of their own: the
/// uplink's outbox, and whatever must commit in the same transactions as the store's rows
/// (such as the record of answered fleet commands). Each extension's version is kept in
/// `schema_extensions`, apart from the store's own `user_version`, so the store's schema and
/// each extension move on independently.
public struct SchemaExtension: Sendable, Hashable {
  public struct Migration: Sendable, Hashable {
    public var version: Int32
    public var statements: [String]

    public init(version: Int32, statements: [String]) {
      self.version = version
      self.statements = statements
    }
  }

  /// Unique among extensions: "uplink_outbox".
  public var name: String
  /// In ascending version order.
  public var migrations: [Migration]

  public init(name: String, migrations: [Migration]) {
    self.name = name
    self.migrations = migrations
  }

  public var latestVersion: Int32 { migrations.last?.version ?? 0 }
}

extension Database {
  /// Applies every migration of `schema` newer than the version the file records, each in
  /// one transaction with its version, so a power cut mid-migration leaves the previous
  /// version whole. Safe to run at every start. A file whose recorded version is newer than
  /// the code's is refused, untouched.
  public func install(_ schema: SchemaExtension) throws(StoreError) {
    try writeTransaction("register schema extensions") { () throws(StoreError) in
      try execute(
        "CREATE TABLE IF NOT EXISTS schema_extensions (name TEXT PRIMARY KEY, version INTEGER NOT NULL) WITHOUT ROWID")
    }
    let found = try version(of: schema.name)
    guard found <= schema.latestVersion else {
      throw .newerSchema(path: "\(path) (\(schema.name))", found: found, supported: schema.latestVersion)
    }
    for migration in schema.migrations where migration.version > found {
      try writeTransaction("migrate \(schema.name) to \(migration.version)") { () throws(StoreError) in
        for statement in migration.statements { try execute(statement) }
        try withStatement("INSERT OR REPLACE INTO schema_extensions (name, version) VALUES (?, ?)") {
          (statement) throws(StoreError) in
          try statement.bind(schema.name, at: 1)
          try statement.bind(Int64(migration.version), at: 2)
          try statement.step()
        }
      }
    }
  }

  /// The version of `name` the file records; 0 when it was never installed.
  func version(of name: String) throws(StoreError) -> Int32 {
    try withStatement("SELECT version FROM schema_extensions WHERE name = ?") { (statement) throws(StoreError) in
      try statement.bind(name, at: 1)
      return try statement.step() ? Int32(truncatingIfNeeded: statement.int64(0)) : 0
    }
  }
}
