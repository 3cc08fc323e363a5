/**
 * Fills `<dataDir>/garrison.db` with copies of one server entry the API
 * created, while the controller is stopped: the benchmark needs a thousand
 * stopped entries, and creating them over HTTP costs more of its time
 * budget than the measurement. The row shape is the servers plugin's own
 * (`servers`: id, name, entry JSON, created_at, updated_at), read back from
 * the template rather than restated, so only the id, name and game port
 * differ. better-sqlite3 ships no type declarations; the calls are typed here.
 */
import { randomUUID } from "node:crypto"
import { createRequire } from "node:module"
import * as NodePath from "node:path"

interface Statement {
  get(...params: ReadonlyArray<unknown>): unknown
  run(...params: ReadonlyArray<unknown>): unknown
}

interface WritableDatabase {
  prepare(source: string): Statement
  transaction<A extends ReadonlyArray<unknown>>(f: (...args: A) => void): (...args: A) => void
  close(): void
}

type DatabaseConstructor = new (filename: string, options?: { readonly fileMustExist?: boolean }) => WritableDatabase

const require = createRequire(import.meta.url)

interface ServerRow {
  readonly id: string
  readonly name: string
  readonly entry: string
  readonly created_at: string
  readonly updated_at: string
}

/** Inserts `count` copies of entry `templateId`, named by `name(i)` with game port `gamePort(i)`. */
export const cloneServerEntries = (
  dataDir: string,
  templateId: string,
  count: number,
  name: (i: number) => string,
  gamePort: (i: number) => number
): void => {
  const Sqlite = require("better-sqlite3") as DatabaseConstructor
  const db = new Sqlite(NodePath.join(dataDir, "garrison.db"), { fileMustExist: true })
  try {
    const template = db.prepare("SELECT id, name, entry, created_at, updated_at FROM servers WHERE id = ?").get(templateId) as
      | ServerRow
      | undefined
    if (template === undefined) throw new Error(`no servers row ${templateId} to copy`)
    const entry = JSON.parse(template.entry) as Record<string, unknown>
    if (entry["id"] !== templateId || entry["name"] !== template.name || typeof entry["gamePort"] !== "number") {
      throw new Error(`the servers row no longer has the expected shape: ${template.entry}`)
    }
    const insert = db.prepare("INSERT INTO servers (id, name, entry, created_at, updated_at) VALUES (?, ?, ?, ?, ?)")
    db.transaction(() => {
      for (let i = 0; i < count; i++) {
        const id = randomUUID()
        // The RCON password is sealed to the template's id and would not open in a copy: copies get none
        // (they stay stopped, so they never connect).
        const rcon = typeof entry["rcon"] === "object" && entry["rcon"] !== null ? { ...entry["rcon"], password: "" } : undefined
        const copy = JSON.stringify({ ...entry, id, name: name(i), gamePort: gamePort(i), ...(rcon === undefined ? {} : { rcon }) })
        insert.run(id, name(i), copy, template.created_at, template.updated_at)
      }
    })()
  } finally {
    db.close()
  }
}
