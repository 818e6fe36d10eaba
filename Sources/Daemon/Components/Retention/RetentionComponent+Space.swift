import FoundationEssentials
import PlatformSupport
import Store

// The room left for recording and what it lasts at the current rate.
extension RetentionComponent {
  /// Reads the room left now (on the loop: a statvfs and a header field).
  func readSpace() {
    guard let store else { return }
    do {
      space = try store.space()
    } catch {
      space = nil
    }
    if let space, policy.shortfall(space) == nil { saidStuckBelowFloor = false }
    sayOutlookIfDue()
  }

  /// Counts the history on the worker's thread and posts the rate back; `now` is the box's
  /// trusted time, which the window ends at.
  func readFigures(now: Date) {
    guard let context, let figuresWorker else { return }
    figuresReading = true
    let reader = historyReader
    let since = now.addingTimeInterval(-RecordingOutlook.window)
    let bound = context.bind(self)
    figuresWorker.run({ reader.figures(since: since) }) { result in
      bound.withValue { component in component.figuresRead(result, now: now) }
    }
  }

  private func figuresRead(_ result: Result<HistoryFigures, StoreError>, now: Date) {
    figuresReading = false
    switch result {
    case .success(let figures):
      bytesPerDay = RecordingOutlook.bytesPerDay(figures, now: now)
      sayOutlookIfDue()
    case .failure(let error):
      context?.logger.warning(
        "store: the rate of recording could not be read: \(error)", fields: LogFields(reason: "retention"))
    }
  }

  /// Days of recording left at the current rate; nil while unknown.
  var daysLeft: Double? {
    guard let space else { return nil }
    return RecordingOutlook.daysLeft(available: space.availableBytes, bytesPerDay: bytesPerDay)
  }

  /// Says the outlook once the rate is first known, and again as days left fall below
  /// each warning level (a warning then).
  private func sayOutlookIfDue() {
    guard let context, let space, let bytesPerDay else { return }
    let level = RecordingOutlook.warningLevel(daysLeft: daysLeft)
    let line =
      "store: "
      + RetentionWording.outlook(available: space.availableBytes, bytesPerDay: bytesPerDay, daysLeft: daysLeft)
    if let level, warnedAt.map({ level < $0 }) ?? true {
      warnedAt = level
      saidOutlook = true
      context.logger.warning(line, fields: LogFields(reason: "retention"))
    } else if !saidOutlook {
      saidOutlook = true
      context.logger.info(line, fields: LogFields(reason: "retention"))
    }
    // Room made again: the next fall below a level is warned of again.
    if level == nil { warnedAt = nil }
  }
}
