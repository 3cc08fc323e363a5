#!/usr/bin/env node
/**
 * `garrison-agent` (`npm run agent` from the repository): the agent for one
 * game server, configured from the environment (see README). A start that
 * cannot go on prints one line saying why and exits 1.
 */
// Deep import: the package index also loads cluster, workers, undici and ws.
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Logger from "effect/Logger"
import * as Option from "effect/Option"
import { readFileSync } from "node:fs"
import * as Server from "./server/Server.js"
import { readSettings, StartupError } from "./server/Settings.js"

/** The package's version (`dist/../package.json`), for `/health`. */
const version = (() => {
  try {
    const parsed: unknown = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"))
    return typeof parsed === "object" && parsed !== null && "version" in parsed && typeof parsed.version === "string" ? parsed.version : "unknown"
  } catch {
    return "unknown"
  }
})()

const program = Effect.gen(function* () {
  const settings = yield* readSettings
  return yield* Layer.launch(Server.layer(settings, version)).pipe(Logger.withMinimumLogLevel(settings.logLevel))
})

program.pipe(
  Effect.catchAllCause((cause) => {
    const failure = Cause.failureOption(cause)
    if (Option.isSome(failure) && failure.value instanceof StartupError) {
      return Effect.logError(`cannot start: ${failure.value.message}`).pipe(Effect.zipRight(Effect.failCause(cause)))
    }
    return Cause.isInterruptedOnly(cause)
      ? Effect.failCause(cause)
      : Effect.logError("the agent stopped on an error", Cause.pretty(cause)).pipe(Effect.zipRight(Effect.failCause(cause)))
  }),
  NodeRuntime.runMain({ disableErrorReporting: true })
)
