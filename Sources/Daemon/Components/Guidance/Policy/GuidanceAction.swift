import ControlProtocol
import FoundationEssentials
import Guidance

/// What the guidance component must do after `GuidancePolicy` has seen something.
enum GuidanceAction: Hashable {
  /// Tell the journal and `events` followers.
  case announce(EventReport)
  /// Say this line through the speech command.
  case speak(String)
  /// Ask the provider for a route to follow (`navigate`), off the loop, and hand the answer
  /// to `navigationAnswered(_:token:now:)`.
  case planRoute(RouteRequest, token: Int)
  /// Ask the provider for a new route, off the loop, and hand the answer to
  /// `rerouteAnswered(_:for:generation:now:)`. Calls run one at a time, in order.
  case reroute(RerouteRequestID, RouteRequest, generation: Int)
  /// Answer the command being handled.
  case reply(GuidanceReply)
  /// Answer the `navigate` request waiting for its route (the one that got `planRoute`).
  case answerNavigation(GuidanceReply)
  /// A journal line that is no event.
  case log(LogPriority, String)
}

/// An answer to a guidance command.
enum GuidanceReply: Hashable {
  case route(RouteResult)
  case acknowledged(String)
  case failed(ControlError)
}
