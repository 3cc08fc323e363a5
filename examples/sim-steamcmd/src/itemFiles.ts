/**
 * A workshop item's folder as Steam delivers a DayZ mod:
 *
 * ```
 * meta.cpp                       protocol, publishedid, name (verbatim), timestamp
 * mod.cpp                        title, overview, version
 * keys/<key>                     one per catalogue key (e.g. CF.bikey)
 * addons/<pbo>                   padded so the folder totals sizeBytes
 * addons/<pbo>.<key stem>.bisign one per pbo and key
 * ```
 *
 * Contents are deterministic for an (id, version), and change with the
 * version, so a test can tell an update happened by reading any file.
 */
import { createHash } from "node:crypto"
import type { CatalogueItem } from "./catalogue.js"

/** What the simulated DayZ server looks for in a pbo to refuse to load the mod. */
export const CRASH_MARKER = "GARRISON-SIM-CRASH-ON-LOAD"

export interface ItemFile {
  /** Relative to the item folder, `/`-separated. */
  readonly path: string
  readonly content: Buffer
}

const digest = (...parts: ReadonlyArray<string | number>): Buffer => createHash("sha256").update(parts.join(":")).digest()

/** Steam's manifest id for an item version (a 63-bit decimal, as in appworkshop_221100.acf). */
export const itemManifestId = (id: string, version: number): string =>
  (digest("manifest", id, version).readBigUInt64BE(0) & 0x7fffffffffffffffn).toString()

/**
 * meta.cpp's `timestamp`: a Windows FILETIME (100 ns since 1601) of the
 * update time, plus the version so two publishes in one second differ.
 */
export const metaTimestamp = (item: CatalogueItem): bigint =>
  116444736000000000n + BigInt(item.timeUpdated) * 10_000_000n + BigInt(item.version)

/** `"` doubled, as in Bohemia's config files. */
const cppString = (s: string) => `"${s.replace(/"/g, '""')}"`

const stem = (fileName: string) => fileName.replace(/\.[^.]*$/, "")

const bytes = (head: string, length: number, seed: Buffer): Buffer => {
  const out = Buffer.alloc(Math.max(length, Buffer.byteLength(head)))
  out.write(head, 0)
  for (let at = Buffer.byteLength(head); at < out.length; at += seed.length) seed.copy(out, at, 0, Math.min(seed.length, out.length - at))
  return out
}

/** The item's files, the pbos padded so the total is `sizeBytes` (more only when that is too small to hold the rest). */
export const itemFiles = (id: string, item: CatalogueItem): ReadonlyArray<ItemFile> => {
  const meta: ItemFile = {
    path: "meta.cpp",
    // `name` verbatim, even `../../x` or a quote: sanitising it is the product's job.
    content: Buffer.from(`protocol = 1;\npublishedid = ${id};\nname = "${item.name}";\ntimestamp = ${metaTimestamp(item)};\n`)
  }
  const mod: ItemFile = {
    path: "mod.cpp",
    content: Buffer.from(
      [
        `name = ${cppString(item.title)};`,
        `picture = "";`,
        `logo = "";`,
        `logoSmall = "";`,
        `logoOver = "";`,
        `tooltip = ${cppString(item.title)};`,
        `overview = ${cppString(item.description)};`,
        `action = "https://steamcommunity.com/sharedfiles/filedetails/?id=${id}";`,
        `author = "Garrison simulated workshop";`,
        `version = "${item.version}";`,
        ""
      ].join("\n")
    )
  }
  // Looks like a .bikey: the key's name, NUL, then key bytes.
  const keys = item.keys.map((key): ItemFile => {
    const head = `${stem(key)}\0\x06\x02\0\0\0\x24\0\0RSA1 garrison-sim item ${id} v${item.version} `
    return { path: `keys/${key}`, content: bytes(head, 160, digest("key", id, key, item.version)) }
  })
  const signatures = item.pbos.flatMap((pbo) =>
    item.keys.map((key): ItemFile => {
      const head = `${stem(key)}\0garrison-sim signature ${pbo} item ${id} v${item.version} `
      return { path: `addons/${pbo}.${stem(key)}.bisign`, content: bytes(head, 200, digest("sign", id, pbo, key, item.version)) }
    })
  )
  const pboHead = (pbo: string) =>
    `\0sreV\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0prefix\0${stem(pbo)}\0\0` +
    `garrison-sim pbo ${pbo} publishedid=${id} version=${item.version}\n` +
    (item.crashOnLoad === true ? `${CRASH_MARKER}\n` : "")
  const fixed = [meta, mod, ...keys, ...signatures].reduce((sum, f) => sum + f.content.length, 0)
  const heads = item.pbos.map(pboHead)
  const spare = Math.max(0, item.sizeBytes - fixed - heads.reduce((sum, h) => sum + Buffer.byteLength(h), 0))
  const pbos = item.pbos.map((pbo, i): ItemFile => {
    const head = heads[i]!
    // The spare bytes shared out, the first pbo taking the remainder.
    const share = Math.floor(spare / item.pbos.length) + (i === 0 ? spare % item.pbos.length : 0)
    return { path: `addons/${pbo}`, content: bytes(head, Buffer.byteLength(head) + share, digest("pbo", id, pbo, item.version)) }
  })
  return [meta, mod, ...keys, ...pbos, ...signatures]
}

export const totalBytes = (files: ReadonlyArray<ItemFile>): number => files.reduce((sum, f) => sum + f.content.length, 0)
