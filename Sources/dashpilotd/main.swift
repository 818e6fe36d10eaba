import Daemon
import Foundation

// The lead wires components here: `makeComponents: { configuration in [store, capture, ...] }`.
exit(DaemonMain.run(arguments: Array(CommandLine.arguments.dropFirst())))
