/// What happened when the store was opened, for the daemon to log: the file could have been
/// created, migrated, or found damaged and replaced (the damaged copy kept beside it).
public struct StoreOpenReport: Sendable, Hashable {
  /// A file renamed out of the way: the database and its -wal and -shm companions.
  public struct MovedFile: Sendable, Hashable {
    public var from: String
    public var to: String
  }

  /// A database that failed its integrity check, moved aside and kept, never deleted.
  public struct MovedAside: Sendable, Hashable {
    /// Why it was judged damaged: quick_check's first findings or SQLite's error.
    public var reason: String
    public var files: [MovedFile]
  }

  public var path: String
  /// The schema version the file had when found (0 for a new, empty file).
  public var foundSchemaVersion: Int32
  /// The schema version it has now.
  public var schemaVersion: Int32
  /// Set when the file found was damaged and a fresh one was started in its place.
  public var movedAside: MovedAside?
  /// Anything else worth a line in the log that did not stop the store from opening.
  public var problems: [String] = []
  /// A copy made while recording that took the file's place (`StoreRebuild`).
  public var switched: StoreRebuild.Switch?

  public init(
    path: String, foundSchemaVersion: Int32, schemaVersion: Int32, movedAside: MovedAside?,
    problems: [String] = [], switched: StoreRebuild.Switch? = nil
  ) {
    self.path = path
    self.foundSchemaVersion = foundSchemaVersion
    self.schemaVersion = schemaVersion
    self.movedAside = movedAside
    self.problems = problems
    self.switched = switched
  }

  /// Whether something happened that a person looking after the box should read.
  public var needsAttention: Bool {
    movedAside != nil || !problems.isEmpty || switched?.purpose == .salvage
  }

  public var wasMigrated: Bool { foundSchemaVersion != schemaVersion }

  /// Sentences for the journal; empty when the file opened as it was.
  public var messages: [String] {
    var lines: [String] = []
    if let switched { lines.append(switched.message(path: path)) }
    if let movedAside {
      let kept = movedAside.files.map { "\($0.from) -> \($0.to)" }.joined(separator: ", ")
      lines.append(
        "database \(path) failed its integrity check (\(movedAside.reason)); it was kept as \(kept) "
          + "and a fresh database was started")
    }
    if wasMigrated {
      lines.append("database \(path) migrated from schema \(foundSchemaVersion) to \(schemaVersion)")
    }
    return lines + problems
  }
}
