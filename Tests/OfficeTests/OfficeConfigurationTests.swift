import ConfigurationFile
import Foundation
import Office
import OfficeCore
import TestSupport
import Testing

/// The configuration file and the command line: config/officed.conf as shipped is the
/// defaults, the command line overrides the file, and a bad line stops start-up naming the
/// file, the line and the key.
struct OfficeConfigurationTests {
  static func file(_ text: String) throws -> String {
    let url = try TestPaths.temporaryDirectory("officed-conf").appendingPathComponent("officed.conf")
    try text.write(to: url, atomically: true, encoding: .utf8)
    return url.path
  }

  @Test func theShippedFileIsTheDefaults() throws {
    let shipped = try OfficeConfiguration.load(
      path: TestPaths.repositoryRoot.appendingPathComponent("config/officed.conf").path)
    #expect(shipped == OfficeConfiguration())
  }

  @Test func theCommandLineOverridesTheFile() throws {
    let path = try Self.file(
      "[Broker]\nHost=broker.fleet\nPort=8883\n[Database]\nConnection=dbname=a\n[Ingest]\nWorkers=3\n")
    let options = try OfficeOptions.parse([
      "--config", path, "--broker", "[::1]:1884", "--database", "host=db dbname=office", "--workers", "4",
    ])
    let configuration = try options.configuration()
    #expect(configuration.host == "::1" && configuration.port == 1884)
    #expect(configuration.database == "host=db dbname=office" && configuration.workers == 4)
    #expect(
      options.workerArguments(index: 2)
        == [
          "worker", "2", "--config", path, "--broker", "::1:1884", "--database", "host=db dbname=office", "--workers",
          "4",
        ])
    #expect(try OfficeOptions.parse(["--config", path]).configuration().host == "broker.fleet")
  }

  @Test(arguments: [
    ("[Broker]\nHost=a\nPort=70000\n", 3, "[Broker] Port", "\"70000\" must be a whole number from 1 to 65535"),
    (
      "[Ingest]\nWorkerCount=2\n", 2, "[Ingest] WorkerCount",
      "is not a key of [Ingest]; it has Workers, BatchSize, BatchDelay, MaximumPayload, MonthsAhead"
    ),
    ("[Uplink]\nHost=a\n", 2, "[Uplink] Host", "is in no section dashpilot-officed knows (Broker, Database, Ingest)"),
    (
      "[Broker]\nTopicPrefix=dashpilot/#\n", 2, "[Broker] TopicPrefix",
      "\"dashpilot/#\" must be the boxes' TopicPrefix with one whole level \"+\" for the vehicle, such as dashpilot/+ (no #, no empty level)"
    ),
    ("[Broker]\nGroup=a/b\n", 2, "[Broker] Group", "\"a/b\" must be one topic level (no /, + or #)"),
    ("[Ingest]\nWorkers=2\nWorkers=3\n", 3, "[Ingest] Workers", "is set twice"),
  ])
  func aBadLineNamesTheFileLineAndKey(text: String, line: Int, key: String, message: String) throws {
    let path = try Self.file(text)
    #expect(throws: ConfigurationError(file: path, line: line, key: key, message)) {
      try OfficeConfiguration.load(path: path)
    }
  }

  @Test func usageErrors() {
    #expect(throws: (any Error).self) { try OfficeOptions.parse(["--broker", "localhost"]) }
    #expect(throws: (any Error).self) { try OfficeOptions.parse(["--workers", "0"]) }
    #expect(throws: (any Error).self) { try OfficeOptions.parse(["stats"]) }
    #expect(throws: (any Error).self) { try OfficeOptions.parse(["report", "van-7", "x"]) }
  }

  @Test func aPasswordIsNeverLogged() {
    #expect(OfficeStatus.redacted("host=db password=s3cret dbname=x") == "host=db password=… dbname=x")
    #expect(OfficeStatus.redacted("postgresql://office:s3cret@db/x") == "postgresql://office:…@db/x")
  }
}
