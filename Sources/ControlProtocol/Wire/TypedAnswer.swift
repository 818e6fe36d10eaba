import FoundationEssentials

/// An answer line decoded straight into the type its command answers with. `ServerLine`
/// reads any line into a `JSONValue` tree first, which is right for a line of unknown
/// shape; a long export's parts are hundreds of thousands of points, and the tree and its
/// second decoding took the client 5 of its 9 seconds. A line this cannot read is left to
/// `ServerLine`, which says what is wrong with it.
public enum TypedAnswer {
  /// The request's id and its outcome; nil for an event line.
  public static func parse<T: Decodable>(
    _ line: Data, as type: T.Type
  ) -> (id: RequestID?, outcome: Result<T, ControlError>)?? {
    guard let envelope = try? ControlCoding.makeDecoder().decode(Envelope<T>.self, from: line),
      envelope.v == ControlProtocolLimits.version
    else { return nil }
    if envelope.event != nil { return .some(nil) }
    switch (envelope.ok, envelope.result, envelope.error) {
    case (true?, let result?, _): return (envelope.id, .success(result))
    case (false?, _, let error?): return (envelope.id, .failure(error))
    default: return nil
    }
  }

  struct Envelope<T: Decodable>: Decodable {
    var v: Int
    var id: RequestID?
    var ok: Bool?
    var result: T?
    var error: ControlError?
    var event: Present?
  }

  /// A key that is there, whatever it holds.
  struct Present: Decodable {
    init(from decoder: any Decoder) throws {}
  }
}
