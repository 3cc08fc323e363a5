/**
 * The durability plugin's table read directly from a database file, after
 * the controller has stopped; opening files read-only (or a copy of them)
 * is the testkit's (`withReadOnlyDatabase`, `withDatabaseCopy`).
 */
import type { RawDatabase } from "@garrison/testkit"

export { integrityCheck, type RawDatabase, withDatabaseCopy, withReadOnlyDatabase } from "@garrison/testkit"

export interface WriteRow {
  readonly seq: number
  readonly payload: string
}

/** Every row of the durability plugin's table, by seq. */
export const durabilityRows = (db: RawDatabase): ReadonlyArray<WriteRow> =>
  db.prepare("SELECT seq, payload FROM durability_writes ORDER BY seq").all().map((row) => {
    const { seq, payload } = row as { readonly seq: unknown; readonly payload: unknown }
    return { seq: Number(seq), payload: String(payload) }
  })
