/**
 * What the relay asks of a server, run as the REST API would run it for a
 * caller with the link's role: the link is a principal (`cloud-link`)
 * whose permissions are the role's, read again for every action (a role
 * changed or deleted since the enable counts at once), checked with the
 * runtime's own rules (`canSeeServer`, `principalCan`, on the server the
 * action is about) before anything of the server is read. Only the
 * actions of `REMOTE_ACTIONS`, only on mirrored servers; anything else is
 * refused. Every action the relay asks is audited with the link as actor.
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import {
  type AuditTrailShape,
  canSeeServer,
  errorMessage,
  hasNul,
  type OnlinePlayer,
  PlayerIds,
  type Principal,
  principalCan,
  recordForRequest
} from "@garrison/runtime"
import { principalOfRole, type RoleRecord } from "../../accounts/index.js"
import type { ServersShape } from "../../servers/index.js"
import { type ActionRequest, type Outbound, type RemoteAction, REMOTE_ACTIONS } from "../contract/Protocol.js"

/** The link's principal id and name, as audit rows name it. */
export const LINK_ACTOR_ID = "cloud-link"
export const LINK_ACTOR_NAME = "cloud link"

const DEFAULT_KICK_REASON = "Kicked by an admin"

/** The link as a principal with the role's grants (never `admin`: the enable refuses such a role, and it is dropped here too). */
export const linkPrincipal = (role: RoleRecord): Principal =>
  principalOfRole(role, { kind: "service", id: LINK_ACTOR_ID, name: LINK_ACTOR_NAME, withoutAdmin: true })

/** The online player an id names: BattlEye number, GUID, Steam64, DayZ ID, else the exact name (case-insensitive). */
export const findPlayer = (players: ReadonlyArray<OnlinePlayer>, playerId: string): OnlinePlayer | undefined => {
  const id = playerId.trim()
  if (PlayerIds.isSteam64(id)) {
    const guid = PlayerIds.toBattlEyeGuid(id)
    return players.find((p) => p.steam64 === id || p.guid === guid)
  }
  if (/^\d+$/.test(id)) return players.find((p) => p.slot === Number(id))
  if (/^[0-9a-f]{32}$/i.test(id)) return players.find((p) => p.guid === id.toLowerCase())
  if (PlayerIds.isDayzId(id)) {
    const byId = players.find((p) => p.dayzId === id)
    if (byId !== undefined) return byId
  }
  const name = id.toLowerCase()
  return players.find((p) => p.name.toLowerCase() === name)
}

const oneLine = (text: string | undefined, max: number): text is string =>
  text !== undefined && text.length > 0 && text.length <= max && !/[\r\n]/.test(text) && !hasNul(text)

export interface RemoteDeps {
  readonly servers: ServersShape
  readonly audit: AuditTrailShape
  /** The role the link acts with now (none: no longer enabled, or the role is gone). */
  readonly role: Effect.Effect<Option.Option<{ readonly name: string; readonly record: Option.Option<RoleRecord> }>>
  readonly mirrored: (serverId: string) => Effect.Effect<boolean>
}

type ActionFailure = { readonly code: string; readonly message: string }

/** Runs one action the relay asked; the answer to send back. Never fails. */
export const runRemoteAction = (deps: RemoteDeps, request: ActionRequest): Effect.Effect<Outbound> =>
  Effect.gen(function* () {
    const refuse = (failure: ActionFailure, result: "denied" | "failure", details: Record<string, unknown> = {}) =>
      Effect.as(
        recordForRequest(deps.audit, {
          actor: LINK_ACTOR_ID,
          actorName: LINK_ACTOR_NAME,
          action: "cloud.action",
          target: request.serverId,
          result,
          details: { action: request.action, requestId: request.id, reason: failure.code, ...details }
        }),
        { type: "action.result", id: request.id, ok: false, error: failure } as const
      )
    if (!Object.hasOwn(REMOTE_ACTIONS, request.action)) {
      return yield* refuse({ code: "unknown-action", message: `"${request.action}" is not an action the link runs (${Object.keys(REMOTE_ACTIONS).join(", ")})` }, "denied")
    }
    const action = request.action as RemoteAction
    const permission = REMOTE_ACTIONS[action]
    if (!(yield* deps.mirrored(request.serverId))) {
      return yield* refuse({ code: "not-connected", message: `server ${request.serverId} is not connected to the cloud` }, "denied")
    }
    const role = yield* deps.role
    if (Option.isNone(role) || Option.isNone(role.value.record)) {
      return yield* refuse(
        { code: "forbidden", message: Option.isNone(role) ? "the cloud link is not enabled" : `the link's role "${role.value.name}" no longer exists` },
        "denied"
      )
    }
    const principal = linkPrincipal(role.value.record.value)
    // The front door's two checks, in its order: the server must be visible to the role, then the permission held on it.
    if (!canSeeServer(principal, request.serverId) || !principalCan(principal, permission, request.serverId)) {
      return yield* refuse({ code: "forbidden", message: `the link's role "${principal.role}" lacks the permission "${permission}" on this server` }, "denied", {
        permission,
        role: principal.role
      })
    }
    const params = request.params ?? {}
    if (action === "kick" && !oneLine(params.player, 100)) return yield* refuse({ code: "invalid", message: "kick needs params.player (one line, at most 100 characters)" }, "failure")
    if (action === "kick" && params.reason !== undefined && !oneLine(params.reason, 200)) {
      return yield* refuse({ code: "invalid", message: "params.reason must be one line of at most 200 characters" }, "failure")
    }
    if (action === "message" && !oneLine(params.message, 256)) return yield* refuse({ code: "invalid", message: "message needs params.message (one line, at most 256 characters)" }, "failure")

    const outcome = yield* Effect.either(
      Effect.gen(function* () {
        const server = yield* deps.servers.get(request.serverId)
        switch (action) {
          case "start":
            yield* server.actor.start
            return { status: (yield* server.state).status }
          case "stop":
            yield* server.actor.stop
            return { status: (yield* server.state).status }
          case "restart":
            yield* server.actor.restart("manual")
            return { status: (yield* server.state).status }
          case "kick": {
            const player = findPlayer(yield* server.control.players, params.player!)
            if (player === undefined) return yield* Effect.fail({ code: "not-found", message: `no player "${params.player}" is online on this server` })
            const reason = params.reason ?? DEFAULT_KICK_REASON
            yield* server.control.kick(player, reason)
            return { kicked: player.name, reason }
          }
          case "message":
            yield* server.control.broadcast(params.message!)
            return { sent: params.message! }
        }
      })
    )
    if (outcome._tag === "Left") {
      const error = outcome.left as { readonly _tag?: string; readonly code?: string; readonly message?: string }
      const failure: ActionFailure =
        error._tag === "ServerNotFound"
          ? { code: "not-found", message: `no server with id "${request.serverId}"` }
          : typeof error.code === "string" && error._tag === undefined
            ? { code: error.code, message: String(error.message) }
            : { code: "failed", message: errorMessage(error) }
      return yield* refuse(failure, "failure", { permission, role: principal.role })
    }
    yield* recordForRequest(deps.audit, {
      actor: LINK_ACTOR_ID,
      actorName: LINK_ACTOR_NAME,
      action: "cloud.action",
      target: request.serverId,
      result: "success",
      details: { action, requestId: request.id, permission, role: principal.role }
    })
    return { type: "action.result", id: request.id, ok: true, result: outcome.right } as const
  })
