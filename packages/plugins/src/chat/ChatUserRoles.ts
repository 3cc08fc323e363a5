/**
 * Per chat user roles: the role a chat user acts with through the bot. A
 * user without a mapping acts with the built-in `chat-bot` role. Whoever
 * maps (or unmaps) a user must hold every grant of the roles involved:
 * `users.manage` alone does not make a moderator able to give a chat user
 * `admin`, nor to take it away from one. Every change is an audit row
 * (`chat.user-role.set`, `chat.user-role.remove`).
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { AuditTrail, type Principal, recordForRequest } from "@garrison/runtime"
import { grantsBeyond, type RoleRecord, Roles } from "../accounts/index.js"
import { ChatRoleBeyondCaller, type ChatStoreError, ChatUserRoleNotFound, storeError, UnknownChatRole } from "./errors.js"

export interface ChatUserRole {
  readonly chatUserId: string
  readonly role: string
  /** The chat user's display tag when it was mapped (for people reading the list; never used to decide anything). */
  readonly chatUserTag: string | null
  readonly updatedAt: string
  readonly updatedBy: string | null
}

export interface ChatUserRolesShape {
  /** Every mapping, by chat user id. */
  readonly list: Effect.Effect<ReadonlyArray<ChatUserRole>, ChatStoreError>
  readonly get: (chatUserId: string) => Effect.Effect<Option.Option<ChatUserRole>, ChatStoreError>
  /** Sets or replaces the mapping; answers it and the role it replaced. */
  readonly set: (
    chatUserId: string,
    input: { readonly role: string; readonly chatUserTag?: string | undefined },
    by: Principal
  ) => Effect.Effect<{ readonly mapping: ChatUserRole; readonly previous: string | null }, UnknownChatRole | ChatRoleBeyondCaller | ChatStoreError>
  readonly remove: (chatUserId: string, by: Principal) => Effect.Effect<ChatUserRole, ChatUserRoleNotFound | ChatRoleBeyondCaller | ChatStoreError>
}

interface Row {
  readonly chat_user_id: string
  readonly role: string
  readonly chat_user_tag: string | null
  readonly updated_at: string
  readonly updated_by: string | null
}

const toMapping = (row: Row): ChatUserRole => ({
  chatUserId: row.chat_user_id,
  role: row.role,
  chatUserTag: row.chat_user_tag,
  updatedAt: row.updated_at,
  updatedBy: row.updated_by
})

export class ChatUserRoles extends Context.Tag("@garrison/plugins/chat/ChatUserRoles")<ChatUserRoles, ChatUserRolesShape>() {
  static readonly make = Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const roles = yield* Roles
    const audit = yield* AuditTrail

    const get = (chatUserId: string) =>
      sql<Row>`SELECT * FROM chat_user_roles WHERE chat_user_id = ${chatUserId}`.pipe(
        Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), toMapping)),
        Effect.mapError(storeError("read a chat user's role"))
      )

    const roleRecord = (name: string) => roles.get(name).pipe(Effect.mapError((e) => storeError("read a role")(e)))

    /** Refuses when the caller lacks a grant of `role` (a role that no longer exists hands out nothing). */
    const mayHandOut = (by: Principal, role: Option.Option<RoleRecord>, name: string) => {
      if (Option.isNone(role)) return Effect.void
      const missing = grantsBeyond(by, role.value)
      return missing.length === 0 ? Effect.void : Effect.fail(new ChatRoleBeyondCaller({ role: name, missing }))
    }

    const set: ChatUserRolesShape["set"] = (chatUserId, input, by) =>
      Effect.gen(function* () {
        const role = yield* roleRecord(input.role)
        if (Option.isNone(role)) return yield* Effect.fail(new UnknownChatRole({ role: input.role }))
        yield* mayHandOut(by, role, input.role)
        const now = new Date(yield* Clock.currentTimeMillis).toISOString()
        const previous = yield* sql.withTransaction(
          Effect.gen(function* () {
            const existing = yield* get(chatUserId)
            if (Option.isSome(existing)) yield* mayHandOut(by, yield* roleRecord(existing.value.role), existing.value.role)
            yield* sql`INSERT INTO chat_user_roles (chat_user_id, role, chat_user_tag, updated_at, updated_by)
                       VALUES (${chatUserId}, ${input.role}, ${input.chatUserTag ?? null}, ${now}, ${by.name})
                       ON CONFLICT (chat_user_id) DO UPDATE SET role = excluded.role, chat_user_tag = excluded.chat_user_tag,
                         updated_at = excluded.updated_at, updated_by = excluded.updated_by`.pipe(Effect.mapError(storeError("save a chat user's role")))
            return Option.getOrNull(Option.map(existing, (m) => m.role))
          })
        ).pipe(Effect.catchTag("SqlError", (e) => Effect.fail(storeError("save a chat user's role")(e))))
        yield* recordForRequest(audit, {
          actor: by.id,
          actorName: by.name,
          action: "chat.user-role.set",
          target: chatUserId,
          result: "success",
          details: { role: input.role, previousRole: previous }
        })
        return {
          mapping: { chatUserId, role: input.role, chatUserTag: input.chatUserTag ?? null, updatedAt: now, updatedBy: by.name },
          previous
        }
      })

    const remove: ChatUserRolesShape["remove"] = (chatUserId, by) =>
      Effect.gen(function* () {
        const removed = yield* sql.withTransaction(
          Effect.gen(function* () {
            const existing = yield* get(chatUserId)
            if (Option.isNone(existing)) return yield* Effect.fail(new ChatUserRoleNotFound({ chatUserId }))
            yield* mayHandOut(by, yield* roleRecord(existing.value.role), existing.value.role)
            yield* sql`DELETE FROM chat_user_roles WHERE chat_user_id = ${chatUserId}`.pipe(Effect.mapError(storeError("remove a chat user's role")))
            return existing.value
          })
        ).pipe(Effect.catchTag("SqlError", (e) => Effect.fail(storeError("remove a chat user's role")(e))))
        yield* recordForRequest(audit, {
          actor: by.id,
          actorName: by.name,
          action: "chat.user-role.remove",
          target: chatUserId,
          result: "success",
          details: { role: removed.role }
        })
        return removed
      })

    return {
      list: sql<Row>`SELECT * FROM chat_user_roles ORDER BY chat_user_id`.pipe(
        Effect.map((rows) => rows.map(toMapping)),
        Effect.mapError(storeError("list chat user roles"))
      ),
      get,
      set,
      remove
    } satisfies ChatUserRolesShape
  })

  static readonly layer = Layer.effect(ChatUserRoles, ChatUserRoles.make)
}
