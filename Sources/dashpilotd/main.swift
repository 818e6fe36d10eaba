import Daemon
import Foundation

// dashpilotd: the components, started in this order and stopped in reverse.
exit(
  DaemonMain.run(arguments: Array(CommandLine.arguments.dropFirst())) { configuration in
    let recording = RecordingComponent(configuration: configuration)
    // GUIDANCE: make the guidance component here, register it for fixes with
    // `recording.addFixObserver(guidance)` and add it after `recording` below.
    return [recording]
  })
