import Foundation
import TestSupport
import Testing

@testable import Daemon

#if canImport(Glibc)
  import Glibc
#endif

/// Speaking announcements through real child processes.
@Suite("Spoken announcements")
struct GuidanceSpeakerTests {
  @Test(
    "a speech command is split like an ExecStart= line, without a shell",
    arguments: [
      ("espeak-ng -v ko", ["espeak-ng", "-v", "ko"]),
      ("  /usr/bin/say   -r 180 ", ["/usr/bin/say", "-r", "180"]),
      (#"spd-say -o "voice name" -e"#, ["spd-say", "-o", "voice name", "-e"]),
      ("sh -c 'cat > /dev/null'", ["sh", "-c", "cat > /dev/null"]),
      (#"say """#, ["say", ""]),
    ])
  func parsing(text: String, expected: [String]) throws {
    #expect(try SpeechCommand(parsing: text).arguments == expected)
  }

  @Test(
    "an empty command or an unclosed quote is refused with a sentence",
    arguments: [
      ("   ", "the speech command is empty"),
      (#"say "hello"#, #"the speech command "say "hello" has an unclosed quote"#),
    ])
  func badCommand(text: String, message: String) {
    #expect(throws: SpeechCommandError(message)) { try SpeechCommand(parsing: text) }
  }

  /// Polls `reap()` until every child has ended (the test's own wait; the daemon reaps once
  /// a second from its tick).
  static func reapAll(_ speaker: Speaker) {
    for _ in 0..<2_000 where speaker.speakingCount > 0 {
      speaker.reap()
      usleep(10_000)
    }
  }

  @Test("the line reaches the command on its standard input, and the child is reaped")
  func speaksOnStandardInput() throws {
    let directory = try TestPaths.temporaryDirectory("speaker")
    defer { try? FileManager.default.removeItem(at: directory) }
    let output = directory.appendingPathComponent("heard.txt")
    var failures: [String] = []
    let speaker = Speaker(
      command: try SpeechCommand(parsing: "/bin/sh -c 'cat >> \"$0\"' \(output.path)"), clocks: .system
    ) {
      failures.append($0)
    }
    #expect(speaker.speak("길을 벗어났어. 다시 찾아볼게"))
    Self.reapAll(speaker)
    #expect(speaker.speak("You've left the route. Finding a new one."))
    Self.reapAll(speaker)
    #expect(
      try String(contentsOf: output, encoding: .utf8) == "길을 벗어났어. 다시 찾아볼게\nYou've left the route. Finding a new one.\n"
    )
    #expect(speaker.started == 2 && speaker.succeeded == 2)
    #expect(failures.isEmpty)
  }

  @Test("a command that fails is reported once, however many lines it fails on")
  func failingCommandReportedOnce() throws {
    var failures: [String] = []
    let speaker = Speaker(command: try SpeechCommand(parsing: "/bin/sh -c 'exit 3'"), clocks: .system) {
      failures.append($0)
    }
    #expect(speaker.speak("one"))
    Self.reapAll(speaker)
    #expect(speaker.speak("two"))
    Self.reapAll(speaker)
    #expect(failures == [#"the speech command /bin/sh exited with status 3 saying "one""#])
    #expect(speaker.started == 2 && speaker.succeeded == 0)
  }

  @Test("a missing command is reported once and nothing is started")
  func missingCommand() throws {
    var failures: [String] = []
    let speaker = Speaker(command: try SpeechCommand(parsing: "dashpilot-no-such-speaker -v ko"), clocks: .system) {
      failures.append($0)
    }
    #expect(!speaker.speak("one"))
    #expect(!speaker.speak("two"))
    #expect(
      failures == ["the speech command dashpilot-no-such-speaker could not be started: No such file or directory"])
    #expect(speaker.started == 0)
  }

  @Test("a slow command speaks one line at a time, in the order the lines came")
  func slowCommandSpeaksInOrder() throws {
    let directory = try TestPaths.temporaryDirectory("speaker")
    defer { try? FileManager.default.removeItem(at: directory) }
    let output = directory.appendingPathComponent("heard.txt")
    // Each line begins with how long it takes to say, the first the longest: run at once,
    // the lines would finish (and be written) in reverse. Each child notes its start too,
    // so two children at once would show as two starts in a row.
    let script = #"read line; echo "start $line" >> "$0"; sleep "${line%% *}"; echo "end $line" >> "$0""#
    var failures: [String] = []
    let speaker = Speaker(command: try SpeechCommand(parsing: "/bin/sh -c '\(script)' \(output.path)"), clocks: .system)
    {
      failures.append($0)
    }
    let lines = ["0.6 길을 벗어났어. 다시 찾아볼게", "0.4 길을 못 찾았어", "0.2 three", "0 four"]
    for line in lines {
      #expect(speaker.speak(line))
      #expect(speaker.speakingCount == 1)
    }
    #expect(speaker.waitingCount == 3)
    Self.reapAll(speaker)
    let heard = try String(contentsOf: output, encoding: .utf8)
    #expect(heard == lines.map { "start \($0)\nend \($0)\n" }.joined())
    #expect(speaker.started == 4 && speaker.succeeded == 4 && speaker.dropped == 0)
    #expect(failures.isEmpty)
  }

  @Test("a command that hangs does not pile up processes: a full queue drops its oldest line, said each time")
  func hangingCommand() throws {
    var failures: [String] = []
    let speaker = Speaker(
      command: try SpeechCommand(parsing: "/bin/sh -c 'read line; sleep 1'"), maximumWaiting: 2, clocks: .system
    ) {
      failures.append($0)
    }
    #expect(speaker.speak("one"))
    #expect(speaker.speak("two"))
    #expect(speaker.speak("three"))
    #expect(speaker.speak("four"))
    #expect(speaker.speak("five"))
    #expect(speaker.speakingCount == 1 && speaker.waitingCount == 2)
    #expect(
      failures == [
        #"the speech command /bin/sh is still speaking and 2 lines are waiting; "two" was dropped"#,
        #"the speech command /bin/sh is still speaking and 2 lines are waiting; "three" was dropped"#,
      ])
    Self.reapAll(speaker)
    #expect(speaker.speakingCount == 0 && speaker.waitingCount == 0)
    #expect(speaker.started == 3 && speaker.succeeded == 3 && speaker.dropped == 2)
  }

  @Test("a child that speaks too long is stopped, reported once, and the next line is spoken")
  func overlongSpeechIsStopped() throws {
    let directory = try TestPaths.temporaryDirectory("speaker")
    defer { try? FileManager.default.removeItem(at: directory) }
    let output = directory.appendingPathComponent("heard.txt")
    // "hang" never ends by itself (a shell waiting on its own child, which must be
    // stopped with it); any other line is written out at once.
    let script = #"read line; [ "$line" = hang ] && { sleep 60; echo "$line" >> "$0"; }; echo "$line" >> "$0""#
    var failures: [String] = []
    let speaker = Speaker(
      command: try SpeechCommand(parsing: "/bin/sh -c '\(script)' \(output.path)"), maximumSpeechDuration: 0.5,
      clocks: .system
    ) { failures.append($0) }
    #expect(speaker.speak("hang"))
    #expect(speaker.speak("after"))
    Self.reapAll(speaker)
    #expect(speaker.speakingCount == 0)
    #expect(try String(contentsOf: output, encoding: .utf8) == "after\n")
    #expect(failures == [#"the speech command /bin/sh was still speaking "hang" after 0.5 s and was stopped"#])
    #expect(speaker.started == 2 && speaker.succeeded == 1)
  }

  /// espeak-ng is in scripts/deps/guidance.txt, so `make test` installs it.
  @Test("espeak-ng (Debian's) speaks a Korean line read from standard input", .requiresEspeak)
  func realEspeak() throws {
    let directory = try TestPaths.temporaryDirectory("speaker")
    defer { try? FileManager.default.removeItem(at: directory) }
    let wave = directory.appendingPathComponent("line.wav")
    var failures: [String] = []
    // -w writes the speech to a file instead of a sound card, which a test box lacks.
    let speaker = Speaker(command: try SpeechCommand(parsing: "espeak-ng -v ko -w \(wave.path)"), clocks: .system) {
      failures.append($0)
    }
    #expect(speaker.speak("길을 못 찾았어"))
    Self.reapAll(speaker)
    #expect(failures.isEmpty)
    #expect(speaker.succeeded == 1)
    let data = try Data(contentsOf: wave)
    #expect(data.prefix(4) == Data("RIFF".utf8))
    // Several syllables of 22.05 kHz 16-bit speech: far more than a header.
    #expect(data.count > 20_000)
  }
}
