import ControlProtocol
import DashPilotCore
import Foundation
import Testing

/// The one envelope's two kinds of id and its `expires_at`: what a fleet command carries
/// beside what the socket's clients send, read by the same parser.
@Suite("Request envelope: ids and expiry")
struct RequestEnvelopeTests {
  func parsed(_ text: String, limit: Int = ControlProtocolLimits.maximumLineLength) -> Result<
    ControlRequest, RequestParseError
  > {
    RequestParser.parse(Array(text.utf8), limit: limit, tooLong: .tooLarge)
  }

  @Test("a string id is read as the sender wrote it, and echoed as a string")
  func stringID() throws {
    let request = try parsed(#"{"v":1,"id":"office-41","cmd":"status"}"#).get()
    #expect(request == ControlRequest(id: .text("office-41"), command: .status))
    let answer = String(
      decoding: ControlResponse.success(id: request.id, result: Acknowledgement(message: "ok")), as: UTF8.self)
    #expect(answer == #"{"id":"office-41","ok":true,"result":{"message":"ok"},"v":1}"# + "\n")
    guard case .answer(let id, _) = try ServerLine.parse(Data(answer.utf8).dropLast()).get() else {
      Issue.record("not an answer")
      return
    }
    #expect(id == .text("office-41"))
  }

  @Test("an integer id still reads as a number, and is answered as one")
  func numberID() throws {
    let request = try parsed(#"{"v":1,"id":41,"cmd":"status"}"#).get()
    #expect(request.id == .number(41))
    let answer = String(
      decoding: ControlResponse.failure(id: request.id, error: ControlError(.busy, "b")), as: UTF8.self)
    #expect(answer == #"{"error":{"code":"busy","message":"b"},"id":41,"ok":false,"v":1}"# + "\n")
  }

  @Test(
    "an id that is neither an integer nor a string of 1 to 128 bytes is refused, naming both forms",
    arguments: [#""""#, #"""# + String(repeating: "x", count: 129) + #"""#, "1.5", "true", "{}", "null"])
  func badIDs(id: String) {
    guard case .failure(let failure) = parsed(#"{"v":1,"id":\#(id),"cmd":"status"}"#) else {
      Issue.record("\(id) was accepted")
      return
    }
    #expect(failure.id == nil)
    #expect(
      failure.error
        == ControlError(.badRequest, #"the request needs an "id": an integer, or a string of 1 to 128 bytes"#))
  }

  @Test("an id of exactly 128 bytes (multi-byte characters counted as bytes) is read")
  func longestID() throws {
    let id = String(repeating: "é", count: 64)
    #expect(id.utf8.count == 128)
    #expect(try parsed(#"{"v":1,"id":"\#(id)","cmd":"status"}"#).get().id == .text(id))
  }

  @Test("expires_at is read to the millisecond, with or without a fraction, and survives encoding")
  func expiry() throws {
    let request = try parsed(#"{"v":1,"id":"a","cmd":"shift.end","expires_at":"2024-05-14T06:00:00.250Z"}"#).get()
    #expect(request.expiresAt == Date(timeIntervalSince1970: 1_715_666_400.25))
    let whole = try parsed(#"{"v":1,"id":"a","cmd":"shift.end","expires_at":"2024-05-14T06:00:00Z"}"#).get()
    #expect(whole.expiresAt == Date(timeIntervalSince1970: 1_715_666_400))
    #expect(try RequestParser.parse(request.encodedLine().dropLast()).get() == request)
    #expect(try parsed(#"{"v":1,"id":"a","cmd":"status","expires_at":null}"#).get().expiresAt == nil)
  }

  @Test(
    "an expires_at that is not a UTC time is a bad request, answered with the id",
    arguments: [#""tomorrow""#, #""2024-05-14T06:00:00+02:00""#, "1715666400", #""2024-02-30T06:00:00Z""#])
  func badExpiry(value: String) {
    guard case .failure(let failure) = parsed(#"{"v":1,"id":"a","cmd":"status","expires_at":\#(value)}"#) else {
      Issue.record("\(value) was accepted")
      return
    }
    #expect(failure.id == .text("a"))
    #expect(failure.error.code == .badRequest)
    #expect(
      failure.error.message
        == #""expires_at" must be a UTC time in ISO 8601, such as 2024-05-01T10:00:00Z or 2024-05-01T10:00:00.000Z"#)
  }

  @Test("over the carrier's limit a request is refused unread, with the carrier's code")
  func carrierLimit() {
    let request = #"{"v":1,"id":"a","cmd":"status"}"#
    guard case .failure(let failure) = parsed(request + "  ", limit: request.utf8.count + 1) else {
      Issue.record("accepted over the limit")
      return
    }
    #expect(failure.id == nil)
    #expect(failure.error == ControlError(.tooLarge, "the request is 33 bytes; the limit is 32"))
    #expect((try? parsed(request + " ", limit: request.utf8.count + 1).get())?.id == .text("a"))
  }
}
