/**
 * How the controller runs: as a systemd service (systemd sets
 * `INVOCATION_ID` for what it starts, and `NOTIFY_SOCKET` for a notify
 * unit) or in the foreground. `systemctl show` adds the unit's state when
 * systemctl is there; a host without it, or without systemd as PID 1 (a
 * container), is answered quickly, never waited on.
 */
import * as Config from "effect/Config"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { execFile } from "node:child_process"
import * as Os from "node:os"
import type { ServiceState } from "./contract/Api.js"

export const UNIT_NAME = "garrison.service"
/** systemctl answers in milliseconds; a wedged D-Bus must not hold the request. */
const SYSTEMCTL_TIMEOUT_MS = 3000

export type SystemctlOutcome = { readonly _tag: "Missing" } | { readonly _tag: "Failed" } | { readonly _tag: "Ok"; readonly stdout: string }

/** `systemctl show <unit>` with the properties asked for; the process is killed when interrupted or late. */
export const runSystemctl = (unit: string): Effect.Effect<SystemctlOutcome> =>
  Effect.async<SystemctlOutcome>((resume) => {
    const child = execFile(
      "systemctl",
      ["show", unit, "--no-pager", "--property=LoadState,ActiveState,UnitFileState,MainPID"],
      { timeout: SYSTEMCTL_TIMEOUT_MS, windowsHide: true },
      (error, stdout) => {
        if (error === null) resume(Effect.succeed({ _tag: "Ok", stdout }))
        else resume(Effect.succeed((error as NodeJS.ErrnoException).code === "ENOENT" ? { _tag: "Missing" } : { _tag: "Failed" }))
      }
    )
    return Effect.sync(() => void child.kill("SIGKILL"))
  })

/** `Key=value` lines into the unit's fields (null when systemctl gave none of them). */
export const parseUnit = (unit: string, stdout: string): ServiceState["systemd"]["unit"] => {
  const fields = new Map<string, string>()
  for (const line of stdout.split("\n")) {
    const at = line.indexOf("=")
    if (at > 0) fields.set(line.slice(0, at).trim(), line.slice(at + 1).trim())
  }
  if (!fields.has("LoadState")) return null
  const mainPid = Number(fields.get("MainPID") ?? "0")
  const unitFileState = fields.get("UnitFileState") ?? ""
  return {
    name: unit,
    present: fields.get("LoadState") === "loaded",
    activeState: fields.get("ActiveState") ?? "unknown",
    unitFileState,
    enabled: unitFileState === "enabled" || unitFileState === "enabled-runtime",
    mainPid: Number.isInteger(mainPid) && mainPid > 0 ? mainPid : null
  }
}

const userName = (): string | null => {
  try {
    return Os.userInfo().username
  } catch {
    // A uid without a passwd entry (containers): no name to give.
    return null
  }
}

/** Whether the environment variable is set (a text setting cannot be malformed, so a failure is "not set"). */
const present = (key: string) =>
  Effect.map(Config.option(Config.string(key)), (value) => Option.isSome(value) && value.value !== "").pipe(Effect.orElseSucceed(() => false))

export const serviceState = (systemctl: (unit: string) => Effect.Effect<SystemctlOutcome> = runSystemctl): Effect.Effect<ServiceState> =>
  Effect.gen(function* () {
    const invocationId = yield* present("INVOCATION_ID")
    const notifySocket = yield* present("NOTIFY_SOCKET")
    const outcome = yield* systemctl(UNIT_NAME)
    const unit = outcome._tag === "Ok" ? parseUnit(UNIT_NAME, outcome.stdout) : null
    return {
      manager: invocationId || (unit !== null && unit.mainPid === process.pid) ? ("systemd" as const) : ("foreground" as const),
      pid: process.pid,
      ppid: process.ppid,
      startedAt: new Date(Date.now() - process.uptime() * 1000).toISOString(),
      user: userName(),
      systemd: { invocationId, notifySocket, systemctl: outcome._tag === "Ok" ? ("ok" as const) : outcome._tag === "Missing" ? ("missing" as const) : ("failed" as const), unit }
    }
  })
