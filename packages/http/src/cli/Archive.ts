/**
 * The data backup's zip (yazl to write, yauzl to read: the zip libraries the backups plugin already uses): a
 * manifest, `garrison-backup.json`, then files by their path in the data directory. Read strictly: an absolute
 * name, a `..` or a backslash fails the whole zip (yauzl's checks), and only the names the manifest allows are
 * taken.
 */
import * as Effect from "effect/Effect"
import { createWriteStream, mkdirSync, readdirSync, statSync } from "node:fs"
import * as NodePath from "node:path"
import type { Readable } from "node:stream"
import { pipeline } from "node:stream/promises"
import * as Yauzl from "yauzl"
import * as Yazl from "yazl"
import { CliFailure, describeFailure } from "./CliFailure.js"

export const MANIFEST = "garrison-backup.json"
export const FORMAT = "garrison-data-backup"

export interface Manifest {
  readonly format: typeof FORMAT
  readonly version: 1
  readonly takenAt: string
  readonly garrisonVersion: string
  /** The data directory it was taken from (information only). */
  readonly dataDir: string
  /** The store it was taken from; absent in archives made before PostgreSQL was backed up: SQLite. */
  readonly engine?: ArchiveEngine
  /** PostgreSQL: the database it was taken from, without its password (information only). */
  readonly database?: string
  /** Top-level names in the archive: `garrison.db` (SQLite) or `garrison.pgdump` (PostgreSQL), and folders such as `secrets`. */
  readonly items: ReadonlyArray<string>
}

export type ArchiveEngine = "sqlite" | "postgres"

/** The engine of an archive's database: the manifest's word (none: SQLite, from before there was one). */
export const archiveEngine = (manifest: Manifest): ArchiveEngine => (manifest.engine === "postgres" ? "postgres" : "sqlite")

/** Every regular file under `dir` (relative paths with `/`), folders walked, links and others left out. */
export const filesUnder = (dir: string): ReadonlyArray<string> => {
  const found: Array<string> = []
  const walk = (at: string, prefix: string) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const relative = prefix === "" ? entry.name : `${prefix}/${entry.name}`
      if (entry.isDirectory()) walk(NodePath.join(at, entry.name), relative)
      else if (entry.isFile()) found.push(relative)
    }
  }
  walk(dir, "")
  return found.sort()
}

/** Writes `out`: the manifest, then each `[name in zip, file on disk]`. */
export const writeArchive = (out: string, manifest: Manifest, files: ReadonlyArray<readonly [string, string]>): Effect.Effect<void, CliFailure> =>
  Effect.tryPromise({
    try: async () => {
      const zip = new Yazl.ZipFile()
      zip.addBuffer(Buffer.from(JSON.stringify(manifest, null, 2) + "\n"), MANIFEST, { mode: 0o100600 })
      for (const [name, path] of files) zip.addFile(path, name, { mode: 0o100600, mtime: statSync(path).mtime })
      zip.end()
      await pipeline(zip.outputStream as Readable, createWriteStream(out, { mode: 0o600 }))
    },
    catch: (cause) => new CliFailure({ message: `cannot write ${out}: ${describeFailure(cause)}` })
  })

const openZip = (path: string) =>
  new Promise<Yauzl.ZipFile>((resolve, reject) =>
    Yauzl.open(path, { lazyEntries: true, autoClose: false, strictFileNames: true, validateEntrySizes: true, decodeStrings: true }, (error, zip) =>
      error ? reject(error) : resolve(zip)
    )
  )

const readStream = (zip: Yauzl.ZipFile, entry: Yauzl.Entry) =>
  new Promise<Readable>((resolve, reject) => zip.openReadStream(entry, (error, stream) => (error ? reject(error) : resolve(stream))))

/**
 * Checks `archive` and unpacks it into `into` (an empty folder): the manifest first (its format), then every
 * entry, each under a top-level name the manifest lists (files 0600, folders 0700). Nothing outside `into` is
 * written.
 */
export const unpackArchive = (archive: string, into: string): Effect.Effect<Manifest, CliFailure> =>
  Effect.tryPromise({
    try: async () => {
      const zip = await openZip(archive)
      try {
        const entries: Array<Yauzl.Entry> = []
        await new Promise<void>((resolve, reject) => {
          zip.on("entry", (entry: Yauzl.Entry) => {
            entries.push(entry)
            zip.readEntry()
          })
          zip.on("end", resolve)
          zip.on("error", reject)
          zip.readEntry()
        })
        const manifestEntry = entries.find((entry) => entry.fileName === MANIFEST)
        if (manifestEntry === undefined) throw new Error(`no ${MANIFEST} in it: not a garrison backup`)
        const chunks: Array<Buffer> = []
        for await (const chunk of await readStream(zip, manifestEntry)) chunks.push(chunk as Buffer)
        const manifest = JSON.parse(Buffer.concat(chunks).toString("utf8")) as Manifest
        if (
          manifest.format !== FORMAT ||
          manifest.version !== 1 ||
          !Array.isArray(manifest.items) ||
          (manifest.engine !== undefined && manifest.engine !== "sqlite" && manifest.engine !== "postgres")
        ) {
          throw new Error(`${MANIFEST} is not a garrison data backup of version 1`)
        }
        const allowed = new Set(manifest.items)
        for (const entry of entries) {
          if (entry.fileName === MANIFEST) continue
          const top = entry.fileName.split("/")[0] ?? ""
          if (!allowed.has(top)) throw new Error(`entry "${entry.fileName}" is not part of what ${MANIFEST} lists`)
          if (entry.fileName.endsWith("/")) {
            mkdirSync(NodePath.join(into, entry.fileName), { recursive: true, mode: 0o700 })
            continue
          }
          const target = NodePath.join(into, entry.fileName)
          mkdirSync(NodePath.dirname(target), { recursive: true, mode: 0o700 })
          await pipeline(await readStream(zip, entry), createWriteStream(target, { mode: 0o600, flags: "wx" }))
        }
        return manifest
      } finally {
        zip.close()
      }
    },
    catch: (cause) => new CliFailure({ message: `${archive} cannot be restored: ${describeFailure(cause)}` })
  })
