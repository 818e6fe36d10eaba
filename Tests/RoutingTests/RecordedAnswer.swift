import Foundation
import Routing
import TestSupport

/// An answer recorded from a real engine (`Fixtures/routing/<engine>/NAME.json`, written by
/// `scripts/<engine>/record_fixtures.py`): the status and the body exactly as sent.
struct RecordedAnswer: Decodable {
  var status: Int
  var body: String

  static func load(_ engine: String, _ name: String) throws -> RecordedAnswer {
    let url = TestPaths.fixtures.appendingPathComponent("routing/\(engine)/\(name).json")
    return try JSONDecoder().decode(RecordedAnswer.self, from: Data(contentsOf: url))
  }

  var response: HTTPResponse { HTTPResponse(status: status, body: Array(body.utf8)) }
}
