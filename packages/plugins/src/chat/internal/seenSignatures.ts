/**
 * The signatures accepted inside the window, in the database: a replay is a
 * second insert of the same signature, refused by the primary key, whichever
 * controller sharing the database took the first and whether or not one
 * restarted in between. Only a signature that verified is stored, so the
 * table grows with the bot's own calls alone; each row is dropped once its
 * timestamp has left the window (it could not pass the timestamp check
 * again).
 */
import type * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import { type ChatStoreError, storeError } from "../errors.js"
import { SIGNATURE_WINDOW_SECONDS } from "./signature.js"

export interface SeenSignatures {
  /** True the first time a signature is offered inside its window, false for a replay. */
  readonly accept: (signature: string, timestamp: number, nowSeconds: number) => Effect.Effect<boolean, ChatStoreError>
}

export const makeSeenSignatures = (sql: SqlClient.SqlClient): SeenSignatures => ({
  accept: (signature, timestamp, nowSeconds) =>
    Effect.gen(function* () {
      yield* sql`DELETE FROM chat_signatures WHERE expires_at < ${nowSeconds}`
      const inserted = yield* sql`INSERT INTO chat_signatures (signature, expires_at)
                                  VALUES (${signature}, ${timestamp + SIGNATURE_WINDOW_SECONDS})
                                  ON CONFLICT (signature) DO NOTHING RETURNING signature`
      return inserted.length === 1
    }).pipe(Effect.mapError(storeError("remember a chat signature")))
})
