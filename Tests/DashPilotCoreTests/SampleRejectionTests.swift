import DashPilotCore
import Testing

/// A reason is hashed by its case (capture counts refusals in a dictionary at a receiver's
/// pace): each case hashes apart from every other, and counts kept by reason read back.
struct SampleRejectionTests {
  @Test func everyReasonHashesApartAndCountsReadBack() {
    let reasons = SampleRejection.allCases
    #expect(reasons.count == 10)
    #expect(Set(reasons.map(\.hashValue)).count == reasons.count)
    var counts: [SampleRejection: Int] = [:]
    for (index, reason) in reasons.enumerated() { counts[reason, default: 0] += index + 1 }
    counts[.negligibleMovement, default: 0] += 100
    #expect(counts.count == 10)
    #expect(counts[.noFix] == 1)
    #expect(counts[.negligibleMovement] == 109)
    #expect(counts[.unconfirmedMovement] == 10)
  }
}
