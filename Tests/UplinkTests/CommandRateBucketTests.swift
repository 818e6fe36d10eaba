import Testing

@testable import Uplink

/// The token bucket the command intake judges the rate by, with the times passed in.
@Suite("Command rate bucket")
struct CommandRateBucketTests {
  /// The outcome of each arrival in turn: "+" admitted, "-" refused.
  static func outcomes(_ bucket: inout CommandRateBucket, _ times: [Double]) -> String {
    String(times.map { bucket.admit(at: $0) ? "+" : "-" })
  }

  @Test("a full bucket takes its burst at once and refuses the next")
  func burst() {
    var bucket = CommandRateBucket(burst: 5, perSecond: 2)
    #expect(Self.outcomes(&bucket, Array(repeating: 3, count: 7)) == "+++++--")
  }

  @Test("it refills at its rate, a token at a time, never past the burst")
  func refill() {
    var bucket = CommandRateBucket(burst: 3, perSecond: 2)
    #expect(Self.outcomes(&bucket, [0, 0, 0, 0]) == "+++-")
    // Half a second is one token, a quarter half of one.
    #expect(Self.outcomes(&bucket, [0.25, 0.5, 0.5]) == "-+-")
    // An hour idle fills it to the burst, no more.
    #expect(Self.outcomes(&bucket, [3600.5, 3600.5, 3600.5, 3600.5]) == "+++-")
  }

  @Test("a flood gets the burst, then the rate: of 1,000 commands in each of three seconds, 200, 10 and 10")
  func flood() {
    var bucket = CommandRateBucket()
    let admitted = (0..<3).map { second in
      (0..<1_000).filter { _ in bucket.admit(at: Double(second)) }.count
    }
    #expect(admitted == [200, 10, 10])
  }

  @Test("a reading earlier than the last refills nothing, and the next is judged from the latest")
  func clockBack() {
    var bucket = CommandRateBucket(burst: 1, perSecond: 1)
    // Taken from 5 s back, the 10.5 reading would find a full bucket.
    #expect(Self.outcomes(&bucket, [10, 5, 10.5, 11]) == "+--+")
  }
}
