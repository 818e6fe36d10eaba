import Foundation

/// libFuzzer's entry point (the build with `-sanitize=fuzzer` links libFuzzer's own main,
/// which calls this for every input). A violation traps on purpose: that is how libFuzzer
/// learns the input is a finding and saves it as a crash file.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRequestParser(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
  let bytes = data.map { UnsafeBufferPointer(start: $0, count: size) } ?? UnsafeBufferPointer(start: nil, count: 0)
  if let violation = RequestRoundTrip.violation(of: bytes) {
    fatalError("request parser property violated: \(violation)")
  }
  return 0
}
