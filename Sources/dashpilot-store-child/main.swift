// A child process for the store's crash test: it writes StoreIngestPattern's samples to the
// open shift of the database it is given, in batches, through the real Store code, and
// prints "committed N" after each commit, until it is killed. Not installed; tests only.
//
//   dashpilot-store-child DATABASE BATCH_SIZE
import DashPilotCore
import Foundation
import Store
import TestSupport

let arguments = CommandLine.arguments
guard arguments.count == 3, let batchSize = Int(arguments[2]), batchSize > 0 else {
  FileHandle.standardError.write(Data("usage: dashpilot-store-child DATABASE BATCH_SIZE\n".utf8))
  exit(2)
}

/// Written straight to the pipe (no buffering), so a line printed is a line the parent sees.
func say(_ line: String) {
  FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

do {
  let store = try SampleStore(path: arguments[1])
  let start = Date(timeIntervalSince1970: StoreIngestPattern.firstFixTime)
  let shift = try store.openShift() ?? store.startShift(at: start)
  var next = try store.sampleCount(ofShift: shift.id)
  let session = CaptureSessionID("child-\(getpid())")
  try store.beginCaptureSession(session, at: start + Double(next))
  // Only the count decides: the pending-age limit is out of reach on this clock.
  let batch = SampleBatch(
    store: store, shiftID: shift.id,
    policy: SampleBatchPolicy(maximumPendingAge: .infinity, maximumPendingCount: batchSize))
  say("ready \(next)")
  while true {
    let committed = try batch.append(StoreIngestPattern.sample(next, session: session), at: start)
    next += 1
    if committed > 0 { say("committed \(next)") }
  }
} catch {
  say("failed \(error)")
  exit(1)
}
