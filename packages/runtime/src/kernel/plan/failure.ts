/**
 * How a plan refuses a plugin list: a `StartupError` whose message names who
 * is at fault, and for a conflict both sides, so the person starting the
 * controller knows which plugin to fix or unload.
 */
import * as Either from "effect/Either"
import { StartupError } from "../StartupError.js"

export const fail = (reason: StartupError["reason"], message: string) => Either.left(new StartupError({ reason, message }))

/** An owner as a message names it: the host, the built-in catalog, or a plugin. */
export const describeOwner = (owner: string) =>
  owner === "host" ? "the host" : owner === "built-in" ? "the built-in catalog" : `plugin "${owner}"`
