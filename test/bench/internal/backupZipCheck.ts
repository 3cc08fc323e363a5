/**
 * The backups benchmark's check of the zip it produced, read with yauzl
 * against the folder it backed up: one entry per file and folder plus the
 * manifest, the manifest listing every file with its size and the folder's
 * total, and three files' SHA-256 (the largest and two random ones) the same
 * on disk, in the manifest and in the entry's inflated bytes.
 */
import { createHash } from "node:crypto"
import * as Fs from "node:fs"
import * as NodePath from "node:path"
import * as Yauzl from "yauzl"
import { type MadeFolder, pick, type Rand } from "./serverFolder.js"

interface ManifestFile {
  readonly root: string
  readonly path: string
  readonly size: number
  readonly sha256: string
}
interface Manifest {
  readonly files: ReadonlyArray<ManifestFile>
  readonly folders: ReadonlyArray<unknown>
  readonly totalBytes: number
  readonly warnings: ReadonlyArray<string>
}

const MANIFEST_NAME = "garrison-backup.json"

const openZip = (path: string) =>
  new Promise<Yauzl.ZipFile>((resolve, reject) =>
    Yauzl.open(path, { lazyEntries: true, autoClose: false }, (error, zip) => (error !== null || zip === undefined ? reject(error) : resolve(zip)))
  )

const entriesOf = (zip: Yauzl.ZipFile) =>
  new Promise<ReadonlyArray<Yauzl.Entry>>((resolve, reject) => {
    const entries: Array<Yauzl.Entry> = []
    zip.on("entry", (entry: Yauzl.Entry) => {
      entries.push(entry)
      zip.readEntry()
    })
    zip.on("end", () => resolve(entries))
    zip.on("error", reject)
    zip.readEntry()
  })

/** An entry's inflated bytes through `sink`, piece by piece. */
const readEntry = (zip: Yauzl.ZipFile, entry: Yauzl.Entry, sink: (piece: Buffer) => void) =>
  new Promise<void>((resolve, reject) =>
    zip.openReadStream(entry, (error, stream) => {
      if (error !== null || stream === undefined) return reject(error)
      stream.on("data", sink)
      stream.on("end", () => resolve())
      stream.on("error", reject)
    })
  )

const sha256Of = (path: string) =>
  new Promise<string>((resolve, reject) => {
    const hash = createHash("sha256")
    Fs.createReadStream(path)
      .on("data", (piece) => hash.update(piece))
      .on("end", () => resolve(hash.digest("hex")))
      .on("error", reject)
  })

export interface ZipCheck {
  readonly complete: boolean
  readonly problems: ReadonlyArray<string>
  readonly entries: number
  readonly manifestFiles: number
  readonly warnings: ReadonlyArray<string>
}

export const checkZip = async (path: string, folder: MadeFolder, rand: Rand): Promise<ZipCheck> => {
  const problems: Array<string> = []
  const zip = await openZip(path)
  try {
    const entries = await entriesOf(zip)
    const expectedEntries = folder.files.length + folder.folders.length + 1
    if (entries.length !== expectedEntries) {
      problems.push(`${entries.length} entries, expected ${expectedEntries} (${folder.files.length} files + ${folder.folders.length} folders + the manifest)`)
    }
    const manifestEntry = entries.find((e) => e.fileName === MANIFEST_NAME)
    if (manifestEntry === undefined) return { complete: false, problems: [...problems, `no ${MANIFEST_NAME}`], entries: entries.length, manifestFiles: 0, warnings: [] }
    const pieces: Array<Buffer> = []
    await readEntry(zip, manifestEntry, (piece) => pieces.push(piece))
    const manifest = JSON.parse(Buffer.concat(pieces).toString("utf8")) as Manifest
    if (manifest.files.length !== folder.files.length) problems.push(`the manifest lists ${manifest.files.length} files, expected ${folder.files.length}`)
    if (manifest.folders.length !== folder.folders.length) problems.push(`the manifest lists ${manifest.folders.length} folders, expected ${folder.folders.length}`)
    if (manifest.totalBytes !== folder.bytes) problems.push(`the manifest's totalBytes is ${manifest.totalBytes}, expected ${folder.bytes}`)
    const listed = new Map(manifest.files.map((f) => [f.path, f]))
    const missing = folder.files.filter((f) => listed.get(f.path)?.size !== f.size)
    if (missing.length > 0) problems.push(`${missing.length} files missing or of another size in the manifest, e.g. ${missing.slice(0, 3).map((f) => f.path).join(", ")}`)

    // Three files whole: the largest and two random ones, against the folder and the entry's inflated bytes.
    const largest = folder.files.reduce((a, b) => (b.size > a.size ? b : a))
    const sampled = [largest, pick(rand, folder.files), pick(rand, folder.files)]
    const byName = new Map(entries.map((e) => [e.fileName, e]))
    for (const file of sampled) {
      const listedFile = listed.get(file.path)
      const entry = byName.get(`install/${file.path}`)
      if (listedFile === undefined || entry === undefined) {
        problems.push(`install/${file.path} is not in the zip`)
        continue
      }
      const onDisk = await sha256Of(NodePath.join(folder.root, file.path))
      const hash = createHash("sha256")
      await readEntry(zip, entry, (piece) => hash.update(piece))
      const inZip = hash.digest("hex")
      if (onDisk !== listedFile.sha256 || inZip !== onDisk) problems.push(`${file.path}: SHA-256 on disk ${onDisk.slice(0, 12)}, manifest ${listedFile.sha256.slice(0, 12)}, zip ${inZip.slice(0, 12)}`)
    }
    return { complete: problems.length === 0, problems, entries: entries.length, manifestFiles: manifest.files.length, warnings: manifest.warnings }
  } finally {
    zip.close()
  }
}
