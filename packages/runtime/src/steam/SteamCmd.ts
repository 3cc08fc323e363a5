/**
 * Running SteamCMD, Valve's download tool: installing and updating the game
 * server (`+app_update`) and downloading workshop items
 * (`+workshop_download_item`). One run is one process; its output is read
 * line by line (`SteamCmdOutput`), each line handed to the caller as it
 * comes (progress for the status endpoint) and folded into a report of
 * what each step did. Interrupting the run ends the process (its whole
 * process group: `steamcmd.sh` starts the real binary as a child), so a
 * cancelled update stops downloading at once.
 *
 * A password and a Steam Guard code have to go on SteamCMD's command line
 * (that is the tool's only way in, short of an interactive console); they
 * are never logged, never put in a message, and any output line that
 * echoes one has it masked before anyone sees it.
 */
import * as Cause from "effect/Cause"
import * as Deferred from "effect/Deferred"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as FiberId from "effect/FiberId"
import * as Queue from "effect/Queue"
import * as Schema from "effect/Schema"
import { type ChildProcess, spawn } from "node:child_process"
import * as NodePath from "node:path"
import { createInterface } from "node:readline"
import { SECRET_MASK } from "../game/SecretMasks.js"
import { parseSteamCmdOutput, type SteamCmdFailureKind, type SteamCmdLine } from "./SteamCmdOutput.js"

/** DayZ's app ids: the dedicated server, its experimental branch, and the game (whose workshop holds the mods). */
export const DAYZ_SERVER_APP = "223350"
export const DAYZ_EXPERIMENTAL_SERVER_APP = "1042420"
export const DAYZ_GAME_APP = "221100"

export type SteamLogin =
  | { readonly _tag: "Anonymous" }
  | { readonly _tag: "Account"; readonly username: string; readonly password: string; readonly guardCode?: string }

export const anonymous: SteamLogin = { _tag: "Anonymous" }

export type SteamCmdStep =
  | { readonly _tag: "AppUpdate"; readonly appId: string; readonly validate: boolean; readonly beta?: string }
  | { readonly _tag: "WorkshopDownload"; readonly appId: string; readonly itemId: string; readonly validate: boolean }

export interface SteamCmdJob {
  /** `+force_install_dir`: where apps are installed, and the root of `steamapps/workshop` for items. */
  readonly installDir: string
  readonly login: SteamLogin
  /** In order; none: only log in (a credentials check). */
  readonly steps: ReadonlyArray<SteamCmdStep>
}

export interface StepOutcome {
  readonly step: SteamCmdStep
  readonly ok: boolean
  /** For an app: whether it was already up to date. */
  readonly upToDate?: boolean
  /** For an item: where SteamCMD put it, and its size. */
  readonly path?: string
  readonly bytes?: number
  readonly failure?: { readonly kind: SteamCmdFailureKind; readonly reason: string }
}

export interface SteamCmdReport {
  readonly exitCode: number | null
  readonly loggedIn: boolean
  /** One per step, in the job's order. */
  readonly steps: ReadonlyArray<StepOutcome>
  /** The last meaningful line (secrets masked), for messages. */
  readonly lastLine: string
}

/**
 * The run as a whole could not do its work: SteamCMD is not there, the
 * login failed, or the process died without saying why. A step that failed
 * on its own (one item timed out) is in the report instead.
 */
export class SteamCmdError extends Schema.TaggedError<SteamCmdError>()("SteamCmdError", {
  reason: Schema.Literal(
    "not-installed",
    "invalid-job",
    "bad-credentials",
    "guard-code-needed",
    "no-subscription",
    "not-found",
    "timeout",
    "disk-full",
    "rate-limited",
    "no-connection",
    "failed"
  ),
  message: Schema.String
}) {}

export interface RunOptions {
  /** Each line as it is read (secrets masked), in order; a slow handler slows the reading, never drops lines. */
  readonly onLine?: (line: SteamCmdLine, text: string) => Effect.Effect<void>
  /** Extra environment for the process (HOME for the stand-in's tests, say). */
  readonly env?: Readonly<Record<string, string>>
  /** How long a cancelled run gets to end after SIGTERM before SIGKILL. Default 10 s. */
  readonly killGrace?: Duration.DurationInput
}

const DIGITS = /^\d{1,20}$/
/** Steam account names: letters, digits and underscores. */
const ACCOUNT = /^[A-Za-z0-9_]{1,64}$/
const GUARD_CODE = /^[A-Za-z0-9]{5}$/

/** Why a job cannot be put on a command line, or undefined when it can. */
export const jobProblem = (job: SteamCmdJob): string | undefined => {
  if (!NodePath.isAbsolute(job.installDir) || job.installDir.includes("\0")) return "the install folder must be an absolute path"
  if (job.login._tag === "Account") {
    const { username, password, guardCode } = job.login
    if (!ACCOUNT.test(username)) return "the Steam account name may hold only letters, digits and underscores"
    // SteamCMD reads a word starting with "+" as its next command, and cannot take control characters at all.
    // eslint-disable-next-line no-control-regex
    if (password === "" || password.startsWith("+") || /[\u0000-\u001f\u007f]/.test(password)) {
      return "the Steam password must be non-empty, must not start with \"+\" and must not hold control characters"
    }
    if (guardCode !== undefined && !GUARD_CODE.test(guardCode)) return "a Steam Guard code is 5 letters or digits"
  }
  for (const step of job.steps) {
    if (!DIGITS.test(step.appId)) return `app id "${step.appId}" is not a number`
    if (step._tag === "WorkshopDownload" && !DIGITS.test(step.itemId)) return `workshop id "${step.itemId}" is not a number`
    if (step._tag === "AppUpdate" && step.beta !== undefined && !/^[A-Za-z0-9_.-]{1,64}$/.test(step.beta)) {
      return `beta branch "${step.beta}" is not a branch name`
    }
  }
  return undefined
}

/** SteamCMD's command line for a job (checked by `jobProblem` first). */
export const steamCmdArguments = (job: SteamCmdJob): ReadonlyArray<string> => {
  const login =
    job.login._tag === "Anonymous"
      ? ["+login", "anonymous"]
      : ["+login", job.login.username, job.login.password, ...(job.login.guardCode === undefined ? [] : [job.login.guardCode])]
  return [
    // Never wait at a prompt: a needed Steam Guard code fails the login instead.
    "+@NoPromptForPassword",
    "1",
    // Steam asks for the folder before the login.
    "+force_install_dir",
    job.installDir,
    ...login,
    ...job.steps.flatMap((step) =>
      step._tag === "AppUpdate"
        ? ["+app_update", step.appId, ...(step.beta === undefined ? [] : ["-beta", step.beta]), ...(step.validate ? ["validate"] : [])]
        : ["+workshop_download_item", step.appId, step.itemId, ...(step.validate ? ["validate"] : [])]
    ),
    "+quit"
  ]
}

/** Masks each secret wherever it appears in a line. */
const masker = (job: SteamCmdJob) => {
  const secrets = job.login._tag === "Account" ? [job.login.password, job.login.guardCode].filter((s): s is string => s !== undefined && s.length >= 3) : []
  return (text: string) => secrets.reduce((line, secret) => line.split(secret).join(SECRET_MASK), text)
}

type Fed = { readonly _tag: "Line"; readonly text: string } | { readonly _tag: "End" }

interface Spawned {
  readonly child: ChildProcess
  readonly exited: Deferred.Deferred<number | null>
}

const spawnSteamCmd = (executable: string, args: ReadonlyArray<string>, env: Readonly<Record<string, string>>, lines: Queue.Queue<Fed>) =>
  Effect.async<Spawned, SteamCmdError>((resume) => {
    let child: ChildProcess
    try {
      child = spawn(executable, [...args], {
        stdio: ["ignore", "pipe", "pipe"],
        // Its own process group, so a cancel reaches the binary `steamcmd.sh` starts.
        detached: process.platform !== "win32",
        env: { ...process.env, ...env }
      })
    } catch (error) {
      return resume(Effect.fail(new SteamCmdError({ reason: "not-installed", message: `cannot run SteamCMD at ${executable}: ${String(error)}` })))
    }
    const exited = Deferred.unsafeMake<number | null>(FiberId.none)
    let open = 2
    const feed = (stream: NodeJS.ReadableStream) => {
      const reader = createInterface({ input: stream, crlfDelay: Infinity })
      reader.on("line", (text) => Queue.unsafeOffer(lines, { _tag: "Line", text }))
      reader.on("close", () => {
        if (--open === 0) Queue.unsafeOffer(lines, { _tag: "End" })
      })
    }
    feed(child.stdout!)
    feed(child.stderr!)
    let settled = false
    child.once("error", (error: NodeJS.ErrnoException) => {
      if (settled) return
      settled = true
      const missing = error.code === "ENOENT" || error.code === "EACCES"
      resume(
        Effect.fail(
          new SteamCmdError({
            reason: missing ? "not-installed" : "failed",
            message: missing
              ? `SteamCMD is not installed at ${executable} (${error.code}); set its path (STEAMCMD_PATH or the platform settings)`
              : `cannot run SteamCMD at ${executable}: ${error.message}`
          })
        )
      )
    })
    child.once("close", (code) => Deferred.unsafeDone(exited, Effect.succeed(code)))
    child.once("spawn", () => {
      if (settled) return
      settled = true
      resume(Effect.succeed({ child, exited }))
    })
  })

/** Ends the process group: SIGTERM, then SIGKILL after the grace. */
const endProcess = (spawned: Spawned, grace: Duration.DurationInput) =>
  Effect.gen(function* () {
    if (yield* Deferred.isDone(spawned.exited)) return
    const signal = (name: NodeJS.Signals) =>
      Effect.sync(() => {
        try {
          if (spawned.child.pid !== undefined && process.platform !== "win32") process.kill(-spawned.child.pid, name)
          else spawned.child.kill(name)
        } catch {
          // Already gone.
        }
      })
    yield* signal("SIGTERM")
    const ended = yield* Deferred.await(spawned.exited).pipe(Effect.timeout(grace), Effect.option)
    if (ended._tag === "None") {
      yield* signal("SIGKILL")
      yield* Deferred.await(spawned.exited)
    }
  })

/** The report's step outcomes, filled in as lines arrive. */
const makeTally = (job: SteamCmdJob) => {
  const outcomes: Array<StepOutcome | undefined> = job.steps.map(() => undefined)
  const appIndex = (appId: string) => job.steps.findIndex((s, i) => s._tag === "AppUpdate" && s.appId === appId && outcomes[i] === undefined)
  const itemIndex = (itemId: string) =>
    job.steps.findIndex((s, i) => s._tag === "WorkshopDownload" && s.itemId === itemId && outcomes[i] === undefined)
  const settle = (index: number, outcome: Omit<StepOutcome, "step">) => {
    if (index >= 0) outcomes[index] = { step: job.steps[index]!, ...outcome }
  }
  return {
    see: (line: SteamCmdLine) => {
      switch (line._tag) {
        case "AppInstalled":
          return settle(appIndex(line.appId), { ok: true, upToDate: false })
        case "AppUpToDate":
          return settle(appIndex(line.appId), { ok: true, upToDate: true })
        case "AppFailed":
          return settle(appIndex(line.appId), { ok: false, failure: { kind: line.kind, reason: line.reason } })
        case "ItemDownloaded":
          return settle(itemIndex(line.itemId), { ok: true, path: line.path, bytes: line.bytes })
        case "ItemFailed":
          return settle(itemIndex(line.itemId), { ok: false, failure: { kind: line.kind, reason: line.reason } })
        default:
          return
      }
    },
    /** Steps the output never settled failed; the exit code says how, when it can. */
    outcomes: (exitCode: number | null, lastLine: string): ReadonlyArray<StepOutcome> =>
      outcomes.map(
        (outcome, i) =>
          outcome ?? {
            step: job.steps[i]!,
            ok: false,
            failure: { kind: exitCode === 10 ? "timeout" : "failed", reason: `SteamCMD ended (exit ${exitCode ?? "by signal"}) without a result: ${lastLine}` }
          }
      )
  }
}

/**
 * Runs `job` with the SteamCMD at `executable`. Fails only when the run as
 * a whole could not work (see `SteamCmdError`); each step's result is in
 * the report. Interrupting it ends the process.
 */
export const runSteamCmd = (executable: string, job: SteamCmdJob, options: RunOptions = {}): Effect.Effect<SteamCmdReport, SteamCmdError> =>
  Effect.scoped(
    Effect.gen(function* () {
      const problem = jobProblem(job)
      if (problem !== undefined) return yield* new SteamCmdError({ reason: "invalid-job", message: problem })
      if (executable === "" || executable.includes("\0")) {
        return yield* new SteamCmdError({ reason: "not-installed", message: "no SteamCMD path is set (STEAMCMD_PATH or the platform settings)" })
      }
      const mask = masker(job)
      const lines = yield* Queue.unbounded<Fed>()
      const spawned = yield* Effect.acquireRelease(spawnSteamCmd(executable, steamCmdArguments(job), options.env ?? {}, lines), (s) =>
        endProcess(s, options.killGrace ?? Duration.seconds(10))
      )
      const tally = makeTally(job)
      let loggedIn = false
      let login: { kind: SteamCmdFailureKind; reason: string } | undefined
      let lastLine = ""
      for (;;) {
        const fed = yield* Queue.take(lines)
        if (fed._tag === "End") break
        // Lines that ran together (piped output) are read one by one.
        for (const { line, text } of parseSteamCmdOutput(mask(fed.text))) {
          lastLine = text
          if (line._tag === "LoggedIn") loggedIn = true
          if (line._tag === "LoginFailed") login = { kind: line.kind, reason: line.reason }
          if (line._tag === "GuardCodeNeeded" && login === undefined) login = { kind: "guard-code-needed", reason: "Steam Guard code needed" }
          tally.see(line)
          if (options.onLine) yield* options.onLine(line, text)
        }
      }
      const exitCode = yield* Deferred.await(spawned.exited)
      if (login !== undefined || exitCode === 5 || exitCode === 63) {
        const kind = login?.kind ?? (exitCode === 63 ? "guard-code-needed" : "bad-credentials")
        return yield* new SteamCmdError({ reason: kind === "failed" ? "bad-credentials" : kind, message: loginMessage(kind, login?.reason) })
      }
      return { exitCode, loggedIn, steps: tally.outcomes(exitCode, lastLine), lastLine }
    })
  ).pipe(
    Effect.catchAllDefect((defect) =>
      Effect.fail(new SteamCmdError({ reason: "failed", message: `SteamCMD run failed: ${Cause.pretty(Cause.die(defect))}` }))
    )
  )

const loginMessage = (kind: SteamCmdFailureKind, reason: string | undefined): string => {
  switch (kind) {
    case "guard-code-needed":
      return "Steam asks for a Steam Guard code for this account: supply the code from the account's e-mail or authenticator app"
    case "bad-credentials":
      return `Steam refused the login${reason ? ` (${reason})` : ""}: check the account name, password and Steam Guard code`
    case "rate-limited":
      return "Steam refused the login for now (rate limit exceeded): wait a few minutes before trying again"
    case "no-connection":
      return `Steam could not be reached${reason ? ` (${reason})` : ""}: the credentials were not checked; try again in a few minutes`
    default:
      return `the Steam login failed${reason ? `: ${reason}` : ""}`
  }
}
