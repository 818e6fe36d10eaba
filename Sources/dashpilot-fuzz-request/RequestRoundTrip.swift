import ControlProtocol
import Foundation

/// The property the fuzzer checks on every input: the parser answers every byte string
/// (it never traps), and what it answers is either a request that survives its own wire
/// form unchanged, or a typed error whose sentence names what was wrong. A violation is
/// returned as a sentence, so both the libFuzzer entry point and the file runner can say
/// what broke.
enum RequestRoundTrip {
  /// Nil when `input` behaves; otherwise what went wrong.
  static func violation(of input: some Collection<UInt8>) -> String? {
    switch RequestParser.parse(input) {
    case .success(let request):
      var line = request.encodedLine()
      guard line.last == 0x0A else { return "the encoded line of \(request) has no newline" }
      line.removeLast()
      if line.contains(0x0A) { return "the encoded line of \(request) holds a newline" }
      switch RequestParser.parse(line) {
      case .success(let again) where again == request:
        return nil
      case .success(let again):
        return "\(request) came back as \(again) from its own line"
      case .failure(let failure):
        return "\(request) was refused from its own line: \(failure.error.code.rawValue) \(failure.error.message)"
      }
    case .failure(let failure):
      if failure.error.message.isEmpty { return "the error \(failure.error.code.rawValue) has no message" }
      if ControlError.Code(rawValue: failure.error.code.rawValue) != failure.error.code {
        return "the error code \(failure.error.code) does not survive its wire name"
      }
      return nil
    }
  }
}
