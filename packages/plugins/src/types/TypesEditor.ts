/**
 * `TypesEditor`: the mission's economy files of a server. The mission is
 * the one the server's configuration names (`class Missions { class DayZ {
 * template = "..."; }; };`, read with the runtime's `ServerConfigFile`);
 * its files are `db/types.xml` and those `cfgeconomycore.xml` registers.
 * Everything goes through the server's confined files. A save keeps the
 * file as it was under `.garrison/types-backups/` (the newest ten per file)
 * and writes the new one atomically; saves of one server wait for each
 * other. A change splices the file's text (`internal/typesEdits`): the
 * bytes it does not change stay as they were.
 */
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import {
  type ConfinedFileError,
  cursorCodec,
  decodeCursor,
  effectiveLimit,
  etagOf,
  type InvalidCursor,
  missionOf,
  parseServerConfig,
  relativeSegments,
  type ServerFiles,
  type ServerNotFound,
  type ServerUnreadable,
  showPath
} from "@garrison/runtime"
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import { Servers } from "../servers/index.js"
import {
  CategoryLimits,
  ItemName,
  TypeItem,
  type TypeItemInput,
  TYPES_PAGE,
  TypesFile,
  TypesSaved
} from "./contract/Api.js"
import { addItem, findTypeSpan, removeItem, saveItems } from "./internal/typesEdits.js"
import { itemOf, itemProblem, parseTypes, registeredTypesFiles, type TypesDocument, typeNodes, XmlProblem } from "./internal/typesXml.js"
import { TypesConflict, type TypesError, TypesInputRefused, TypesItemNotFound } from "./errors.js"

type Lookup = ServerNotFound | ServerUnreadable
/**
 * What a read of the mission's files can meet: no mission named, an
 * economy file that does not parse, and `ConfinedFileError` (the server's
 * folder refused a file; the routes answer it naming `file`).
 */
type ReadRefused = Lookup | TypesConflict | ConfinedFileError
/** What a change can meet besides: a wrong file or item, an item not there (or there already). */
type ChangeRefused = ReadRefused | TypesError

/** Largest economy file read (vanilla types.xml is about 1 MB). */
export const MAX_TYPES_BYTES = 32 * 1024 * 1024
const BACKUPS = ".garrison/types-backups"
/** Parsed types files kept (each a few MB of objects at most). */
const MAX_PARSED_FILES = 16
const KEEP_BACKUPS = 10

export interface ItemFilter {
  readonly file?: string | undefined
  readonly name?: string | undefined
  readonly category?: string | undefined
  readonly usage?: string | undefined
  readonly value?: string | undefined
  readonly limit?: number | undefined
  readonly cursor?: string | undefined
}

export interface TypesEditorShape {
  readonly files: (serverId: string) => Effect.Effect<{ readonly mission: string; readonly files: ReadonlyArray<TypesFile> }, ReadRefused>
  /** `TypesInputRefused`: `filter.file` is not a types file; `InvalidCursor`: a cursor this list did not issue. */
  readonly items: (
    serverId: string,
    filter: ItemFilter
  ) => Effect.Effect<{ readonly items: ReadonlyArray<TypeItem>; readonly nextCursor: string | null; readonly total: number }, ReadRefused | TypesInputRefused | InvalidCursor>
  readonly limits: (serverId: string) => Effect.Effect<ReadonlyArray<CategoryLimits>, ReadRefused>
  readonly save: (serverId: string, file: string | undefined, items: ReadonlyArray<TypeItemInput>) => Effect.Effect<TypesSaved, ChangeRefused>
  readonly add: (serverId: string, file: string | undefined, item: TypeItemInput) => Effect.Effect<TypesSaved, ChangeRefused>
  readonly remove: (serverId: string, file: string | undefined, name: string) => Effect.Effect<TypesSaved, ChangeRefused>
  readonly names: (serverId: string) => Effect.Effect<ReadonlyArray<ItemName>, ReadRefused>
}

const offsets = cursorCodec("types-items", Schema.Int.pipe(Schema.greaterThan(0)))
/** A file that is not there: an economy file not written yet (no `cfgeconomycore.xml`, a registered file missing). */
const isMissing = (error: ConfinedFileError | TypesConflict) => error._tag === "ConfinedFileError" && error.problem === "not-found"

/**
 * Why a types file's items cannot be counted, as the file list shows it
 * (`file: "<path>" does not exist`, or the parser's words). An I/O fault is not
 * the file's problem: it fails the call.
 */
const problemOf = (error: ConfinedFileError | TypesConflict): Effect.Effect<string, ConfinedFileError> =>
  error._tag === "TypesConflict"
    ? Effect.succeed(error.message)
    : error.problem === "io"
      ? Effect.fail(error)
      : Effect.succeed(`file: ${showPath(error.path)} ${error.message}`)

const decoder = new TextDecoder()

const asItem = (input: TypeItemInput) => ({ ...input, flags: { ...input.flags } })

export class TypesEditor extends Context.Tag("@garrison/plugins/TypesEditor")<TypesEditor, TypesEditorShape>() {
  static readonly layer: Layer.Layer<TypesEditor, never, Servers> = Layer.effect(
    TypesEditor,
    Effect.gen(function* () {
      const servers = yield* Servers
      const saves = yield* Effect.makeSemaphore(1)

      const readText = (files: ServerFiles.ServerFiles, path: string) =>
        Effect.map(files.read(path, { maxBytes: MAX_TYPES_BYTES }), (bytes) => decoder.decode(bytes))

      /** The server's files and mission folder (`mpmissions/<template>`). */
      const mission = (serverId: string) =>
        Effect.gen(function* () {
          const handle = yield* servers.get(serverId)
          const entry = yield* handle.entry
          const mission = missionOf(parseServerConfig(yield* readText(handle.files, entry.configFile)))
          if (mission === undefined) {
            return yield* new TypesConflict({ message: `${entry.configFile} names no mission (class Missions { class DayZ { template = "..."; }; })` })
          }
          return { files: handle.files, folder: mission.folder }
        })

      /** Every types file: the mission's db/types.xml, then the registered ones. */
      const typesPaths = (files: ServerFiles.ServerFiles, folder: string) =>
        Effect.gen(function* () {
          const core = yield* readText(files, `${folder}/cfgeconomycore.xml`).pipe(Effect.catchIf(isMissing, () => Effect.succeed("")))
          const registered = core === "" ? [] : yield* Effect.try({ try: () => registeredTypesFiles(core), catch: (e) => new TypesConflict({ message: (e as Error).message }) })
          return [{ path: `${folder}/db/types.xml`, registered: false }, ...registered.map((p) => ({ path: `${folder}/${p}`, registered: true }))]
        })

      /** The file a request names (relative to the install folder), which must be one of the types files; default: db/types.xml. */
      const pick = (serverId: string, file: string | undefined) =>
        Effect.gen(function* () {
          const { files, folder } = yield* mission(serverId)
          const known = (yield* typesPaths(files, folder)).map((f) => f.path)
          if (file === undefined) return { files, path: known[0]! }
          const segments = relativeSegments(file)
          const path = Either.isRight(segments) ? segments.right.join("/") : undefined
          if (path === undefined || !known.includes(path)) {
            return yield* new TypesInputRefused({
              field: "file",
              message: `file: ${JSON.stringify(file.slice(0, 200))} is not a types file of this mission (${known.join(", ")})`,
              reason: "not a types file"
            })
          }
          return { files, path }
        })

      // The items of a file's bytes, by their hash: paging through a large types.xml parses it once, and any
      // change to the file (ours or not) is a new hash. A few files per server; the oldest go first.
      const parsedItems = new Map<string, ReadonlyArray<TypeItem>>()
      const itemsOfFile = (files: ServerFiles.ServerFiles, path: string) =>
        Effect.gen(function* () {
          const bytes = yield* files.read(path, { maxBytes: MAX_TYPES_BYTES })
          const key = `${files.root}\0${path}\0${etagOf(bytes)}`
          const kept = parsedItems.get(key)
          if (kept !== undefined) return kept
          const doc = yield* Effect.try({ try: () => parseTypes(decoder.decode(bytes)), catch: (e) => new TypesConflict({ message: `${path} ${e instanceof XmlProblem ? e.message : String(e)}` }) })
          const items = typeNodes(doc).map((node) => new TypeItem({ ...itemOf(node), file: path }))
          parsedItems.set(key, items)
          if (parsedItems.size > MAX_PARSED_FILES) parsedItems.delete(parsedItems.keys().next().value!)
          return items
        })

      const allItems = (serverId: string) =>
        Effect.gen(function* () {
          const { files, folder } = yield* mission(serverId)
          const found: Array<TypeItem> = []
          for (const { path } of yield* typesPaths(files, folder)) {
            found.push(...(yield* itemsOfFile(files, path).pipe(Effect.catchIf(isMissing, () => Effect.succeed([])))))
          }
          return found
        })

      /** Changes one file: `edit` gives the file's new text and how many items it saved. */
      const change = (
        serverId: string,
        file: string | undefined,
        edit: (doc: TypesDocument, path: string) => Effect.Effect<{ readonly saved: number; readonly text: string }, TypesError>
      ) =>
        saves.withPermits(1)(
          Effect.gen(function* () {
            const { files, path } = yield* pick(serverId, file)
            const before = yield* files.read(path, { maxBytes: MAX_TYPES_BYTES })
            // Byte by byte (latin1): a splice then keeps every byte it does not change, whatever the file's encoding or BOM.
            const doc = yield* Effect.try({
              try: () => parseTypes(Buffer.from(before).toString("latin1")),
              catch: (e) => new TypesConflict({ message: `${path} ${e instanceof XmlProblem ? e.message : String(e)}: fix it in the file editor first` })
            })
            const { saved, text } = yield* edit(doc, path)
            const stamp = new Date(yield* Clock.currentTimeMillis).toISOString().replace(/[:.]/g, "-")
            const base = path.split("/").join("__")
            const backup = `${BACKUPS}/${stamp}-${base}`
            yield* files.makeFolder(BACKUPS)
            yield* files.write(backup, before)
            // The newest ten backups of this file are kept.
            const old = (yield* files.list(BACKUPS))
              .filter((e) => e.name.endsWith(`-${base}`))
              .sort((a, b) => b.name.localeCompare(a.name))
              .slice(KEEP_BACKUPS)
            yield* Effect.forEach(old, (e) => Effect.ignore(files.remove(`${BACKUPS}/${e.name}`)), { discard: true })
            yield* files.write(path, Buffer.from(text, "latin1"))
            return new TypesSaved({ file: path, saved, backup })
          })
        )

      const checked = (input: TypeItemInput) => {
        const problem = itemProblem(asItem(input))
        return problem === undefined
          ? Effect.succeed(asItem(input))
          : Effect.fail(new TypesInputRefused({ field: "items", message: `item ${JSON.stringify(input.name)}: ${problem}`, reason: problem }))
      }

      return TypesEditor.of({
        files: (serverId) =>
          Effect.gen(function* () {
            const { files, folder } = yield* mission(serverId)
            const result: Array<TypesFile> = []
            for (const { path, registered } of yield* typesPaths(files, folder)) {
              const info = yield* Effect.either(files.stat(path))
              const items = yield* itemsOfFile(files, path).pipe(
                Effect.map((found) => ({ count: found.length, problem: null as string | null })),
                Effect.catchAll((error) => Effect.map(problemOf(error), (problem) => ({ count: 0, problem })))
              )
              result.push(
                new TypesFile({
                  path,
                  registered,
                  size: info._tag === "Right" ? info.right.size : 0,
                  items: items.count,
                  problem: items.problem
                })
              )
            }
            return { mission: folder, files: result }
          }),
        items: (serverId, filter) =>
          Effect.gen(function* () {
            const start = (yield* decodeCursor(offsets, filter.cursor)) ?? 0
            const limit = effectiveLimit(filter.limit, TYPES_PAGE)
            const path = filter.file === undefined ? undefined : (yield* pick(serverId, filter.file)).path
            const name = filter.name?.toLowerCase()
            const same = (a: string | null, b: string | undefined) => b === undefined || (a ?? "").toLowerCase() === b.toLowerCase()
            const matching = (yield* allItems(serverId)).filter(
              (item) =>
                (path === undefined || item.file === path) &&
                (name === undefined || item.name.toLowerCase().includes(name)) &&
                same(item.category, filter.category) &&
                (filter.usage === undefined || item.usage.some((u) => same(u, filter.usage))) &&
                (filter.value === undefined || item.value.some((v) => same(v, filter.value)))
            )
            const items = matching.slice(start, start + limit)
            return { items, total: matching.length, nextCursor: start + limit < matching.length ? offsets.encode(start + limit) : null }
          }),
        limits: (serverId) =>
          Effect.map(allItems(serverId), (items) => {
            const totals = new Map<string, { items: number; nominal: number; min: number }>()
            for (const item of items) {
              const key = item.category ?? "(none)"
              const t = totals.get(key) ?? { items: 0, nominal: 0, min: 0 }
              totals.set(key, { items: t.items + 1, nominal: t.nominal + (item.nominal ?? 0), min: t.min + (item.min ?? 0) })
            }
            return [...totals].sort(([a], [b]) => a.localeCompare(b)).map(([category, t]) => new CategoryLimits({ category, ...t }))
          }),
        save: (serverId, file, inputs) =>
          change(serverId, file, (doc, path) =>
            Effect.gen(function* () {
              const items = []
              for (const input of inputs) {
                const item = yield* checked(input)
                if (findTypeSpan(doc.text, doc.root, item.name) === undefined) return yield* new TypesItemNotFound({ message: `${path} has no item ${JSON.stringify(item.name)}: add it instead` })
                items.push(item)
              }
              return { saved: inputs.length, text: saveItems(doc.text, doc.root, items) }
            })
          ),
        add: (serverId, file, input) =>
          change(serverId, file, (doc, path) =>
            Effect.gen(function* () {
              const item = yield* checked(input)
              if (findTypeSpan(doc.text, doc.root, item.name) !== undefined) return yield* new TypesConflict({ message: `${path} has an item ${JSON.stringify(item.name)} already: save it instead` })
              return { saved: 1, text: addItem(doc.text, doc.root, item) }
            })
          ),
        remove: (serverId, file, name) =>
          change(serverId, file, (doc, path) =>
            Effect.gen(function* () {
              if (findTypeSpan(doc.text, doc.root, name) === undefined) return yield* new TypesItemNotFound({ message: `${path} has no item ${JSON.stringify(name.slice(0, 128))}` })
              return { saved: 1, text: removeItem(doc.text, doc.root, name) }
            })
          ),
        names: (serverId) => Effect.map(allItems(serverId), (items) => items.map((item) => new ItemName({ name: item.name, category: item.category })))
      })
    })
  )
}
