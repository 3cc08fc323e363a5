/** Chat users linked to players, so a lookup may name a player by their chat user id. Audited. */
import * as SqlClient from "@effect/sql/SqlClient"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { AuditTrail, type AuditActor, recordForRequest } from "@garrison/runtime"
import { TrustNotFound, type TrustStoreError, storeError } from "./errors.js"
import { rememberPlayer } from "./internal/players.js"

export interface ChatLink {
  readonly chatUserId: string
  readonly platformId: string
  readonly linkedAt: string
  readonly linkedBy: string | null
}

export interface PlayerLinksShape {
  readonly list: Effect.Effect<ReadonlyArray<ChatLink>, TrustStoreError>
  readonly link: (chatUserId: string, steam64: string, by: AuditActor) => Effect.Effect<ChatLink, TrustStoreError>
  readonly unlink: (chatUserId: string, by: AuditActor) => Effect.Effect<void, TrustNotFound | TrustStoreError>
}

interface Row {
  readonly chat_user_id: string
  readonly platform_id: string
  readonly linked_at: string
  readonly linked_by: string | null
}

export class PlayerLinks extends Context.Tag("@garrison/plugins/trust/PlayerLinks")<PlayerLinks, PlayerLinksShape>() {
  static readonly make = Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const audit = yield* AuditTrail
    return {
      list: sql<Row>`SELECT * FROM trust_chat_links ORDER BY chat_user_id`.pipe(
        Effect.map((rows) => rows.map((row) => ({ chatUserId: row.chat_user_id, platformId: row.platform_id, linkedAt: row.linked_at, linkedBy: row.linked_by }))),
        Effect.mapError(storeError("list chat links"))
      ),
      link: (chatUserId, steam64, by) =>
        Effect.gen(function* () {
          const linkedAt = new Date(yield* Clock.currentTimeMillis).toISOString()
          yield* sql.withTransaction(
            Effect.zipRight(
              sql`INSERT INTO trust_chat_links (chat_user_id, platform_id, linked_at, linked_by) VALUES (${chatUserId}, ${steam64}, ${linkedAt}, ${by.name})
                  ON CONFLICT (chat_user_id) DO UPDATE SET platform_id = excluded.platform_id, linked_at = excluded.linked_at, linked_by = excluded.linked_by`,
              rememberPlayer(sql, steam64)
            )
          ).pipe(Effect.mapError(storeError("link a chat user")))
          yield* recordForRequest(audit, { actor: by.id, actorName: by.name, action: "trust.chat-link.set", target: chatUserId, result: "success", details: { platformId: steam64 } })
          return { chatUserId, platformId: steam64, linkedAt, linkedBy: by.name }
        }),
      unlink: (chatUserId, by) =>
        Effect.gen(function* () {
          const removed = yield* sql`DELETE FROM trust_chat_links WHERE chat_user_id = ${chatUserId} RETURNING chat_user_id`.pipe(Effect.mapError(storeError("unlink a chat user")))
          if (removed.length === 0) return yield* Effect.fail(new TrustNotFound({ message: `chat user ${chatUserId} is not linked` }))
          yield* recordForRequest(audit, { actor: by.id, actorName: by.name, action: "trust.chat-link.remove", target: chatUserId, result: "success" })
        })
    } satisfies PlayerLinksShape
  })

  static readonly layer = Layer.effect(PlayerLinks, PlayerLinks.make)
}
