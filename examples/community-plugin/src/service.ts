/**
 * The `Motd` service: the plugin's storage, exported so embedding programs
 * and other plugins use it without going through HTTP.
 */
import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlSchema from "@effect/sql/SqlSchema"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import { cursorCodec, EventBus, Keyset, storeErrorFields, storeErrorMapper } from "@garrison/runtime"
import { randomUUID } from "node:crypto"
import { AuthorCount, MotdMessage, MotdStats } from "./contract/Api.js"
import { MotdPosted } from "./events.js"

export class MotdNotFound extends Schema.TaggedError<MotdNotFound>()("MotdNotFound", {
  id: Schema.String
}) {}

/** The database refused or returned rows we cannot read; the message names the operation. */
export class MotdStorageError extends Schema.TaggedError<MotdStorageError>()("MotdStorageError", storeErrorFields) {}

const storageError = storeErrorMapper(MotdStorageError)

/** Where a message stands in the list: newest first, by `postedAt` then `id`. */
export interface MotdPosition {
  readonly postedAt: string
  readonly id: string
}

/**
 * The list's paging: its cursors (the runtime encodes and checks them), its
 * sort key (the SQL condition "after this message" comes from it) and a
 * message's position. The routes decode and page with it, `listAfter` reads.
 */
export const motdPaging = Keyset.make({
  cursor: cursorCodec("motd", Schema.Struct({ postedAt: Schema.String, id: Schema.String })),
  key: [
    { column: "posted_at", direction: "desc", value: (position) => position.postedAt },
    { column: "id", direction: "desc", value: (position) => position.id }
  ],
  positionOf: (message: MotdMessage): MotdPosition => ({ postedAt: message.postedAt, id: message.id })
})

export interface MotdShape {
  /** Newest first. */
  readonly list: Effect.Effect<ReadonlyArray<MotdMessage>, MotdStorageError>
  /** Up to `limit` messages after `after` in the list's order (from the newest when undefined). */
  readonly listAfter: (after: MotdPosition | undefined, limit: number) => Effect.Effect<ReadonlyArray<MotdMessage>, MotdStorageError>
  /** Stores a message (text as given: validation belongs to the caller's schema) and publishes `MotdPosted`. */
  readonly post: (input: { readonly text: string; readonly author: string }) => Effect.Effect<MotdMessage, MotdStorageError>
  readonly remove: (id: string) => Effect.Effect<void, MotdNotFound | MotdStorageError>
  readonly stats: Effect.Effect<MotdStats, MotdStorageError>
}

export class Motd extends Context.Tag("@garrison/example-community-plugin/Motd")<Motd, MotdShape>() {
  static readonly make = Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const bus = yield* EventBus

    // Quoted aliases map snake_case columns onto the schema's fields, in portable SQL.
    const findAll = SqlSchema.findAll({
      Request: Schema.Void,
      Result: MotdMessage,
      execute: () =>
        sql`SELECT id, text, author, posted_at AS "postedAt" FROM motd_messages ORDER BY posted_at DESC, id DESC`
    })
    const findAuthors = SqlSchema.findAll({
      Request: Schema.Void,
      Result: AuthorCount,
      execute: () =>
        sql`SELECT author, posted, last_posted_at AS "lastPostedAt" FROM motd_stats ORDER BY posted DESC, author`
    })

    const list: MotdShape["list"] = findAll(undefined).pipe(Effect.mapError(storageError("list messages")))

    // Keyset: the next page starts strictly after the last message shown, so none is skipped or repeated.
    const findAfter = SqlSchema.findAll({
      Request: Schema.Struct({ after: Schema.UndefinedOr(Schema.Struct({ postedAt: Schema.String, id: Schema.String })), limit: Schema.Int }),
      Result: MotdMessage,
      execute: ({ after, limit }) =>
        sql`SELECT id, text, author, posted_at AS "postedAt" FROM motd_messages
          WHERE ${after === undefined ? sql`1 = 1` : motdPaging.after(sql, after)}
          ORDER BY ${sql.literal(motdPaging.orderBy)} LIMIT ${limit}`
    })
    const listAfter: MotdShape["listAfter"] = (after, limit) =>
      findAfter({ after, limit }).pipe(Effect.mapError(storageError("list messages")))

    const post: MotdShape["post"] = ({ text, author }) =>
      Effect.gen(function* () {
        const id = randomUUID()
        const postedAt = new Date(yield* Clock.currentTimeMillis).toISOString()
        yield* sql`INSERT INTO motd_messages (id, text, author, posted_at) VALUES (${id}, ${text}, ${author}, ${postedAt})`
        // Published only after the insert committed, so handlers never see a message that is not stored.
        yield* bus.publish(new MotdPosted({ id, author, text, postedAt }))
        return new MotdMessage({ id, text, author, postedAt })
      }).pipe(Effect.mapError(storageError("post a message")))

    const remove: MotdShape["remove"] = (id) =>
      Effect.gen(function* () {
        const found = yield* sql<{ readonly id: string }>`SELECT id FROM motd_messages WHERE id = ${id}`
        if (found.length === 0) return yield* new MotdNotFound({ id })
        yield* sql`DELETE FROM motd_messages WHERE id = ${id}`
      }).pipe(sql.withTransaction, Effect.catchTag("SqlError", (error) => Effect.fail(storageError("delete a message")(error))))

    const stats: MotdShape["stats"] = findAuthors(undefined).pipe(
      Effect.map(
        (authors) =>
          new MotdStats({ totalPosted: authors.reduce((sum, a) => sum + a.posted, 0), authors })
      ),
      Effect.mapError(storageError("count posts"))
    )

    return Motd.of({ list, listAfter, post, remove, stats })
  })

  /** Needs the kernel's `SqlClient` and `EventBus`; the runtime provides both. */
  static readonly layer = Layer.effect(Motd, Motd.make)
}
