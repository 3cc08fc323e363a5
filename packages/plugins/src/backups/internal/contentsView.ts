/**
 * A backup's preview: the manifest's summary and a page of the zip's
 * entries with the checksums the manifest gives them, read from the zip's
 * directory (nothing unpacked but the manifest). A zip that would not
 * restore is still shown, with the reason in `problem`.
 */
import * as Effect from "effect/Effect"
import { BackupContents, ContentsEntry } from "../contract/Api.js"
import { checkArchive } from "./checkArchive.js"
import { entryName, MANIFEST_NAME } from "./manifest.js"
import type { OpenedZip } from "./zipRead.js"
import { BackupInputRefused } from "../errors.js"

export const contentsView = (filename: string, zip: OpenedZip, page: { readonly limit: number; readonly cursor?: string }) =>
  Effect.gen(function* () {
    const checked = yield* Effect.either(checkArchive(zip))
    const manifest = checked._tag === "Right" ? checked.right : undefined
    const sums = new Map((manifest?.files ?? []).map((f) => [entryName(f.root, f.path), f.sha256]))
    const entries = zip.entries.filter((e) => e.name !== MANIFEST_NAME)
    // The cursor is a position in the zip's directory, which never changes.
    const start = page.cursor === undefined ? 0 : Number.parseInt(page.cursor, 10)
    if (!Number.isInteger(start) || start < 0 || start > entries.length || (page.cursor !== undefined && String(start) !== page.cursor)) {
      return yield* Effect.fail(new BackupInputRefused({ field: "cursor", message: "cursor: not a position of this list (pass nextCursor back unchanged)" }))
    }
    const items = entries.slice(start, start + page.limit).map(
      (e) => new ContentsEntry({ name: e.name, kind: e.kind, size: e.size, compressedSize: e.compressedSize, modified: e.modified.toISOString(), sha256: sums.get(e.name) ?? null })
    )
    return new BackupContents({
      filename,
      manifest:
        manifest === undefined
          ? null
          : {
              server: manifest.server,
              type: manifest.type,
              createdAt: manifest.createdAt,
              running: manifest.running,
              paths: manifest.paths,
              excluded: manifest.excluded,
              fileCount: manifest.files.length,
              totalBytes: manifest.totalBytes,
              warnings: manifest.warnings
            },
      problem: checked._tag === "Left" ? checked.left.message : null,
      items,
      nextCursor: start + page.limit < entries.length ? String(start + page.limit) : null,
      total: entries.length
    })
  })
