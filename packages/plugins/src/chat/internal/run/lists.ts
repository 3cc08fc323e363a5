/**
 * The global ban list and the priority queue, as the bot manages them. Both
 * write through their plugins, so every server's `ban.txt` and
 * `priority.txt` follow, and their own audit rows and events are written
 * as for the REST API.
 *
 * - `banWhitelist`: `op` `ban` (`platformId`, `reason`, optional `name` and
 *   `duration` such as `7d` or `12h`; permanent without), `unban` (alias
 *   `whitelist`: lifts the player's active ban) or `check`.
 * - `priorityQueue`: `op` `add` (`platformId`, optional `name`, `role`
 *   VIP/Supporter/Premium, `days` 1 to 3650; permanent without: adds, or
 *   extends an active entry), `remove` or `check`.
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { auditActorOf, DURATION_EXAMPLES, readUserDuration } from "@garrison/runtime"
import { PRIORITY_ROLES } from "../../../priority/index.js"
import { InvalidChatInput } from "../../errors.js"
import { oneOf, optionalNumber, optionalText, steam64, text } from "../params.js"
import { asRefusal, refused } from "../refusals.js"
import type { ServerRunner } from "./context.js"

export const banWhitelist: ServerRunner = (call, _server, services) =>
  Effect.gen(function* () {
    const op = yield* oneOf(call.params, "op", ["ban", "unban", "whitelist", "check"])
    const platformId = yield* steam64(call.params)
    const by = auditActorOf(call.caller)
    if (op === "check") {
      const ban = yield* asRefusal(services.bans.activeFor(platformId))
      return Option.match(ban, {
        onNone: () => ({ message: `${platformId} is not banned.`, banned: false }),
        onSome: (b) => ({
          message: `${platformId} is banned: ${b.reason}${b.expiresAt === null ? " (permanent)" : ` (until ${b.expiresAt})`}`,
          banned: true,
          ban: { id: b.id, reason: b.reason, expiresAt: b.expiresAt }
        })
      })
    }
    if (op === "unban" || op === "whitelist") {
      const ban = yield* asRefusal(services.bans.activeFor(platformId))
      if (Option.isNone(ban)) return yield* Effect.fail(refused(404, "not-found", `${platformId} has no active ban`))
      yield* asRefusal(services.bans.remove(ban.value.id, by))
      return { message: `${platformId} is no longer banned.`, unbanned: true }
    }
    const reason = yield* text(call.params, "reason", { max: 500 })
    const name = (yield* optionalText(call.params, "name", { max: 128 })) ?? platformId
    const duration = yield* optionalText(call.params, "duration", { max: 32 })
    if (duration !== undefined && Option.isNone(readUserDuration(duration))) {
      return yield* Effect.fail(new InvalidChatInput({ field: "params.duration", message: `params.duration must be ${DURATION_EXAMPLES}` }))
    }
    const ban = yield* asRefusal(services.bans.add({ platformId, playerName: name, reason, expiresAt: duration ?? null, source: "chat" }, by))
    return {
      message: `Banned ${name} (${platformId}): ${reason}${ban.expiresAt === null ? " (permanent)" : ` until ${ban.expiresAt}`}`,
      ban: { id: ban.id, reason: ban.reason, expiresAt: ban.expiresAt }
    }
  })

export const priorityQueue: ServerRunner = (call, _server, services) =>
  Effect.gen(function* () {
    const op = yield* oneOf(call.params, "op", ["add", "remove", "check"])
    const platformId = yield* steam64(call.params)
    const entryOf = Effect.map(asRefusal(services.priority.exportAll), (entries) => entries.find((e) => e.platformId === platformId))
    if (op === "check") {
      const entry = yield* entryOf
      return entry === undefined
        ? { message: `${platformId} has no priority.`, entry: null }
        : { message: `${platformId}: ${entry.role}${entry.expiresAt === null ? " (permanent)" : ` until ${entry.expiresAt}`}`, entry }
    }
    if (op === "remove") {
      const entry = yield* entryOf
      if (entry === undefined) return yield* Effect.fail(refused(404, "not-found", `${platformId} has no priority entry`))
      yield* asRefusal(services.priority.remove(entry.id))
      return { message: `${platformId} no longer has priority.`, removed: true }
    }
    const role = yield* oneOf(call.params, "role", PRIORITY_ROLES, "VIP")
    const name = (yield* optionalText(call.params, "name", { max: 128 })) ?? platformId
    const days = call.params["days"] === undefined || call.params["days"] === null ? null : yield* optionalNumber(call.params, "days", { min: 1, max: 3650, integer: true, fallback: 0 })
    const { entry, outcome } = yield* asRefusal(services.priority.grant({ platformId, name, role, days, source: "manual", grantedBy: call.caller.name }))
    return {
      message: `${name} (${platformId}): ${role} ${outcome}${entry.expiresAt === null ? ", permanent" : `, until ${entry.expiresAt}`}.`,
      outcome,
      entry
    }
  })
