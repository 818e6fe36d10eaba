import ControlProtocol
import FoundationEssentials
import Synchronization

/// An answer whose track goes out in parts (`TrackPart`), each written as JSON only when
/// asked for: a 10-hour 10 Hz shift's export is never one string in the daemon, and what
/// waits for a slow client is the track's points, not their JSON.
public final class TrackAnswerParts: Sendable {
  /// Points per line: about 150 KB of JSON, well under what a client's socket buffers.
  public static let pointsPerPart = 2_000

  private struct State {
    var head: (any PartedTrackAnswer)?
    var parts: TrackParts
  }
  private let state: Mutex<State>

  public init(_ answer: some PartedTrackAnswer, pointsPerPart: Int = TrackAnswerParts.pointsPerPart) {
    var head = answer
    let parts = TrackParts(head.track, pointsPerPart: pointsPerPart)
    head.track = []
    state = Mutex(State(head: head, parts: parts))
  }

  /// The next line's result (the head first, then `TrackPart`s), and whether more follow.
  public func next() -> (part: EncodedResult, more: Bool) {
    state.withLock { state in
      let (segments, continues) = state.parts.next() ?? ([], false)
      let more = !state.parts.isFinished
      guard var head = state.head else {
        return (EncodedResult(TrackPart(segments: segments, continues: continues, more: more)), more)
      }
      state.head = nil
      head.track = segments
      head.more = more ? true : nil
      return (EncodedResult(head), more)
    }
  }
}
