/**
 * Enabling and disabling the link: the token and role stored (sealed) with
 * their audit record in one transaction, and the link's fiber started or
 * stopped. The role must exist and must not grant admin: the link acts with
 * only what remote actions need.
 */
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Ref from "effect/Ref"
import { ADMIN, type AuditActor } from "@garrison/runtime"
import { displayRelay } from "../config.js"
import type { CloudStatus } from "../contract/Api.js"
import { type CloudStoreError, LinkRoleRefused, NoRelay, storeError } from "../errors.js"
import { audited, type CloudContext } from "./linkState.js"
import { deleteLink, saveLink } from "./store.js"

export const makeEnablement = (
  ctx: CloudContext,
  linkFiber: { readonly start: Effect.Effect<void>; readonly stop: Effect.Effect<void> },
  status: Effect.Effect<CloudStatus>
) => {
  const { sql, settings, lock } = ctx

  const enable = (
    input: { readonly token: string; readonly role: string },
    by: AuditActor
  ): Effect.Effect<CloudStatus, NoRelay | LinkRoleRefused | CloudStoreError> =>
    lock.withPermits(1)(
      Effect.gen(function* () {
        if (Option.isNone(settings.relayUrl)) {
          return yield* new NoRelay({ message: "no relay is configured (set CLOUD_RELAY_URL): the cloud link cannot be enabled" })
        }
        const role = yield* ctx.roles.get(input.role).pipe(Effect.mapError((error) => storeError("read the link's role")(error)))
        if (Option.isNone(role)) return yield* new LinkRoleRefused({ field: "role", message: `no role is named "${input.role}"` })
        if (role.value.permissions.some((grant) => grant === ADMIN)) {
          return yield* new LinkRoleRefused({
            field: "role",
            message: `the role "${input.role}" grants admin: the link acts with a role granting only what remote actions need (server.start, server.stop, server.restart, players.kick, chat.send)`
          })
        }
        const now = yield* Clock.currentTimeMillis
        yield* Effect.zipRight(
          saveLink(sql, ctx.box, input.token, input.role, now, by.id),
          audited(ctx, by, "cloud.enable", null, { role: input.role, relay: displayRelay(settings.relayUrl.value) })
        ).pipe(sql.withTransaction, Effect.mapError(storeError("enable the cloud link")))
        yield* Ref.set(ctx.link, { token: input.token, role: input.role, enabledAt: now })
        yield* linkFiber.start
        return yield* status
      })
    )

  const disable = (by: AuditActor): Effect.Effect<CloudStatus, CloudStoreError> =>
    lock.withPermits(1)(
      Effect.gen(function* () {
        yield* linkFiber.stop
        if ((yield* Ref.get(ctx.link)) !== undefined) {
          yield* Effect.zipRight(deleteLink(sql), audited(ctx, by, "cloud.disable", null, {})).pipe(
            sql.withTransaction,
            Effect.mapError(storeError("disable the cloud link"))
          )
          yield* Ref.set(ctx.link, undefined)
          yield* Effect.logInfo("cloud: link disabled")
        }
        return yield* status
      })
    )

  return { enable, disable }
}
