import OfficeCore
import Testing

/// `status` in words and in JSON, from a report value: rates and lag over the workers
/// alive, holes and refusals counted, a worker not heard from said so.
struct OfficeStatusReportTests {
  static let report = OfficeStatusReport(
    schemaVersion: 1, vehicles: 1200, samplesEstimate: 12_345_678, shifts: 3400,
    holes: OfficeStatusReport.Holes(count: 3, vehicles: 2, missing: 17, oldestAge: 8000),
    rejected: OfficeStatusReport.Rejected(
      total: 4, byCode: ["not_json": 3, "vehicle_mismatch": 1], lastTopic: "dashpilot/van-9/samples",
      lastReason: "not_json: the payload is not JSON", lastAge: 720),
    workers: [
      OfficeStatusReport.Worker(
        index: 1, host: "office-1", pid: 4242, clientID: "dashpilot-office-1", brokerConnected: true,
        heartbeatAge: 0.4, messages: 1_000_000, samples: 1_000_000, rejected: 4, messagesPerSecond: 512.4,
        samplesPerSecond: 512.4, lastCommitAge: 0.21, lag: 0.44, lastError: nil),
      OfficeStatusReport.Worker(
        index: 2, host: "office-1", pid: 4243, clientID: "dashpilot-office-2", brokerConnected: true,
        heartbeatAge: 1.0, messages: 999_000, samples: 999_000, rejected: 0, messagesPerSecond: 498.1,
        samplesPerSecond: 498.1, lastCommitAge: 0.3, lag: 0.61, lastError: nil),
      OfficeStatusReport.Worker(
        index: 3, host: "office-2", pid: 77, clientID: "dashpilot-office-3", brokerConnected: false,
        heartbeatAge: 130, messages: 5, samples: 5, rejected: 0, messagesPerSecond: 900, samplesPerSecond: 900,
        lastCommitAge: 130, lag: 30, lastError: "cannot reach PostgreSQL: connection refused"),
    ])

  @Test func wordsForAPerson() {
    #expect(
      Self.report.lines == [
        "ingest: 1,011 messages/s, 1,011 samples/s over the last 10 s; lag 0.61 s (the newest message's age when committed)",
        "stored: 1,200 vehicles, 3,400 shifts, about 12,345,678 samples (office schema version 1)",
        "holes: 3 in 2 vehicles, 17 sequences not received, the oldest 2 h 13 min old (SELECT * FROM holes)",
        "rejected: 4 (not_json 3, vehicle_mismatch 1); the last 12 min ago on dashpilot/van-9/samples: not_json: the payload is not JSON",
        "worker 1: dashpilot-office-1, pid 4242 on office-1, connected, 512 messages/s, 1,000,000 messages stored, last commit 0.21 s ago, lag 0.44 s",
        "worker 2: dashpilot-office-2, pid 4243 on office-1, connected, 498 messages/s, 999,000 messages stored, last commit 0.30 s ago, lag 0.61 s",
        "worker 3: dashpilot-office-3, pid 77 on office-2, not heard from for 2 min, last error: cannot reach PostgreSQL: connection refused",
      ])
  }

  @Test func jsonForAScript() {
    let json = Self.report.json
    #expect(
      json.hasPrefix(#"{"schema_version":1,"messages_per_second":1010.5,"samples_per_second":1010.5,"lag_s":0.610,"#))
    #expect(json.contains(#""holes":{"count":3,"vehicles":2,"missing":17,"oldest_age_s":8000}"#))
    #expect(json.contains(#""rejected":{"count":4,"by_code":{"not_json":3,"vehicle_mismatch":1}"#))
    #expect(json.contains(#""worker":3,"client_id":"dashpilot-office-3","host":"office-2","pid":77,"alive":false"#))
  }
}
