import CSystemd
import FoundationEssentials
import PlatformSupport

#if canImport(Glibc)
  import Glibc
#endif

/// The service's first process: brings the schema up to date (under its lock), makes the
/// coming months' partitions, starts the workers and starts again any that dies (a worker
/// killed mid-batch comes back under its client id, and the broker sends it what it had
/// not acknowledged), makes partitions ahead every hour, and on SIGTERM stops the workers,
/// each after its batch in hand.
public final class Supervisor {
  let options: OfficeOptions
  let configuration: OfficeConfiguration
  let stop: StopSignal
  let log = OfficeLog()
  private var workers: [Int: WorkerProcess] = [:]
  private var lastPartitions = -Double.infinity

  struct WorkerProcess {
    var pid: pid_t?
    var startedAt: Double
    var restartAt: Double
    var failures: Int
  }

  public init(options: OfficeOptions, configuration: OfficeConfiguration, stop: StopSignal) {
    self.options = options
    self.configuration = configuration
    self.stop = stop
  }

  /// The exit status of a refusal no restart can cure (a schema newer than this build): 78,
  /// EX_CONFIG, which the unit's RestartPreventExitStatus= names.
  public static let configurationFailure: Int32 = 78

  public func run() -> Int32 {
    log.info(
      "starting \(configuration.workers) \(configuration.workers == 1 ? "worker" : "workers"): broker "
        + "\(configuration.host):\(configuration.port), database \(OfficeStatus.redacted(configuration.database))")
    // Ready at once: the service is up and says what it waits for (a PostgreSQL not set up
    // or not started yet must not hold `systemctl start`, nor an install, for ever).
    _ = sd_notify(0, "READY=1\nSTATUS=preparing the database")
    guard prepareDatabase() else { return stop.isSet ? 0 : Self.configurationFailure }
    let now = MonotonicClock.now()
    for index in 1...configuration.workers {
      workers[index] = WorkerProcess(pid: nil, startedAt: now, restartAt: now, failures: 0)
    }
    startDueWorkers()
    _ = sd_notify(0, "STATUS=\(configuration.workers) workers storing into PostgreSQL")
    while !stop.isSet {
      stop.sleep(0.2)
      reapWorkers()
      startDueWorkers()
      if MonotonicClock.now() - lastPartitions >= 3600 { makePartitionsAhead() }
    }
    _ = sd_notify(0, "STOPPING=1\nSTATUS=stopping the workers")
    stopWorkers()
    log.info("stopped")
    return 0
  }

  /// Migrates under the lock and makes the partitions; waits for a PostgreSQL that is not
  /// up yet (at boot it may start after us), gives up on a schema it must not touch.
  private func prepareDatabase() -> Bool {
    var backoff = Backoff()
    var said = LogThrottle(interval: 30)
    while !stop.isSet {
      do {
        let connection = try PostgresConnection(configuration.database)
        let versions = try SchemaMigrator.migrate(connection, software: "dashpilot-officed \(OfficeMain.version)")
        if versions.from != versions.to {
          log.notice("the office schema is now version \(versions.to) (it was \(versions.from))")
        }
        makePartitionsAhead(connection)
        return true
      } catch let refusal as SchemaMigrator.Refusal {
        log.error(refusal.description)
        return false
      } catch {
        if said.admit(now: MonotonicClock.now()).say {
          log.warning("cannot prepare the database (\(error)); trying again")
          _ = sd_notify(0, "STATUS=waiting for PostgreSQL: \(error)")
        }
        stop.sleep(backoff.next())
      }
    }
    return false
  }

  private func makePartitionsAhead(_ given: PostgresConnection? = nil) {
    lastPartitions = MonotonicClock.now()
    do {
      let connection = try given ?? PostgresConnection(configuration.database)
      try connection.execute("SELECT office_partitions_ahead(1, \(configuration.monthsAhead))")
    } catch {
      log.warning("cannot make the coming months' partitions now (\(error)); the workers make any month they need")
    }
  }

  private func startDueWorkers() {
    let now = MonotonicClock.now()
    for (index, worker) in workers.sorted(by: { $0.key < $1.key }) where worker.pid == nil && worker.restartAt <= now {
      let arguments = ["dashpilot-officed"] + options.workerArguments(index: index)
      switch Self.spawn(arguments) {
      case .success(let pid):
        workers[index]?.pid = pid
        workers[index]?.startedAt = now
      case .failure(let failure):
        log.error("cannot start worker \(index): \(failure.reason)")
        workers[index]?.restartAt = now + 5
      }
    }
  }

  /// A worker that ended without being asked is started again: after 1 s, doubling to
  /// 30 s while it keeps dying within a minute of its start.
  private func reapWorkers() {
    var status: Int32 = 0
    while true {
      let pid = waitpid(-1, &status, WNOHANG)
      guard pid > 0 else { return }
      guard let (index, worker) = workers.first(where: { $0.value.pid == pid }) else { continue }
      let now = MonotonicClock.now()
      let failures = now - worker.startedAt < 60 ? worker.failures + 1 : 1
      let delay = min(30, pow(2, Double(failures - 1)))
      let how = Self.ending(status)
      log.warning("worker \(index) (pid \(pid)) \(how); starting it again in \(Int(delay)) s")
      workers[index] = WorkerProcess(pid: nil, startedAt: worker.startedAt, restartAt: now + delay, failures: failures)
    }
  }

  /// SIGTERM to every worker, then up to 30 s for each to store its batch and leave.
  private func stopWorkers() {
    let running = workers.values.compactMap(\.pid)
    for pid in running { kill(pid, SIGTERM) }
    let deadline = MonotonicClock.now() + 30
    var left = Set(running)
    while !left.isEmpty, MonotonicClock.now() < deadline {
      var status: Int32 = 0
      let pid = waitpid(-1, &status, WNOHANG)
      if pid > 0 { left.remove(pid) } else { usleep(50_000) }
    }
    for pid in left {
      log.warning("worker pid \(pid) did not stop within 30 s; killing it (its batch comes again)")
      kill(pid, SIGKILL)
      waitpid(pid, nil, 0)
    }
  }

  /// "was killed by signal 9", "exited with status 1".
  static func ending(_ status: Int32) -> String {
    let signal = status & 0x7F
    return signal == 0 ? "exited with status \((status >> 8) & 0xFF)" : "was killed by signal \(signal)"
  }

  /// Starts this same program (`/proc/self/exe`) with `arguments`; the child keeps the
  /// blocked signals, which its own StopSignal waits for.
  struct SpawnFailure: Error {
    var reason: String
  }

  static func spawn(_ arguments: [String]) -> Result<pid_t, SpawnFailure> {
    var pid: pid_t = 0
    var argv = arguments.map { strdup($0) } + [nil]
    defer { for argument in argv { free(argument) } }
    let result = posix_spawn(&pid, "/proc/self/exe", nil, nil, &argv, environ)
    return result == 0 ? .success(pid) : .failure(SpawnFailure(reason: String(cString: strerror(result))))
  }
}
