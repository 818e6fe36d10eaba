import ControlProtocol
import DashPilotCore
import FoundationEssentials
import Testing

/// An answer written as JSON on a reader's thread is spliced into the answer line: the line
/// must be byte for byte the one the loop would have written from the value.
@Suite("a result encoded off the loop")
struct EncodedResultTests {
  @Test("the spliced line is the line written from the value, whatever the request id")
  func splicedLineIsTheWrittenLine() throws {
    let result = ShiftsResult(shifts: [], more: false, kept: "Every shift is kept ([Store] KeepDays=forever).")
    for id in [RequestID.number(7), .text("a \"quoted\" 0,\"v\":1}")] {
      let spliced = ControlResponse.success(id: id, result: EncodedResult(result))
      let written = ControlResponse.success(id: id, result: result)
      #expect(spliced == written)
      #expect(
        String(decoding: spliced, as: UTF8.self).hasSuffix(
          #""result":{"kept":"Every shift is kept ([Store] KeepDays=forever).","more":false,"next_before":null,"shifts":[]},"v":1}"#
            + "\n"))
    }
  }

  @Test("another carrier encodes it as the value it holds")
  func encodedAsItsValue() throws {
    let result = ShiftsResult(shifts: [], more: true)
    let direct = ControlCoding.line(result)
    let through = ControlCoding.line(EncodedResult(result))
    #expect(through == direct)
  }
}
