import DashPilotCore
import FoundationEssentials
import Store

/// A sink that keeps samples in the store's batches: written when their second is up (a
/// timer's `flushIfDue`), all at once when capture stops, and tried again after a failure.
/// `StoreSampleSink` keeps one shift's; `ShiftRecorder` keeps each sample in the shift
/// `ShiftPolicy` gives it.
public protocol CaptureStoreSink: SampleSink {
  /// The store samples are written to.
  var store: SampleStore { get }
  /// The shift samples are written into now, if one is open.
  var shiftID: Int64? { get }
  /// Whether nothing waits to be written in a batch (samples waiting for a policy's
  /// decision are not in one).
  var batchIsWritten: Bool { get }
  /// Writes the batch if its second is up; a failure is a failed save.
  @discardableResult func flushIfDue() throws(SampleBatchFailure) -> Int
  /// Writes the batch now.
  @discardableResult func flush() throws(SampleBatchFailure) -> Int
  /// Tries the store again after a failed save (see `StoreSampleSink.retryAfterFailure`).
  func retryAfterFailure() throws(StoreError)
}

extension StoreSampleSink: CaptureStoreSink {
  public var shiftID: Int64? { batch.shiftID }
  public var batchIsWritten: Bool { batch.pending.isEmpty }
}
