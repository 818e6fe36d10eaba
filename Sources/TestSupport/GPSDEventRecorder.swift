import Foundation

/// Collects values handed over from another thread (a gpsd source's reading thread), and
/// lets a test wait until what it expects has arrived.
public final class EventRecorder<Element: Sendable>: @unchecked Sendable {
  private let condition = NSCondition()
  private var elements: [Element] = []

  public init() {}

  public func append(_ element: Element) {
    condition.lock()
    elements.append(element)
    condition.broadcast()
    condition.unlock()
  }

  public var snapshot: [Element] {
    condition.lock()
    defer { condition.unlock() }
    return elements
  }

  /// Waits until `satisfied` holds for what was recorded, or `timeout` seconds pass;
  /// returns whether it held.
  @discardableResult
  public func wait(timeout: Double, until satisfied: ([Element]) -> Bool) -> Bool {
    let deadline = Date(timeIntervalSinceNow: timeout)
    condition.lock()
    defer { condition.unlock() }
    while !satisfied(elements) {
      if !condition.wait(until: deadline) { return satisfied(elements) }
    }
    return true
  }
}
