/**
 * The types editor's refusals as clients see them: the service fails with
 * its own errors (`errors.ts`), the server folder's `ConfinedFileError` and
 * the runtime's `InvalidCursor`, and the routes answer each with one status,
 * message and `details` shape (`typesHttpError`; a file is named `file`).
 * The file list shows a file it cannot count as its `problem`, in the same
 * words.
 */
import { describe, expect, it } from "@effect/vitest"
import { callWithText as call, fakeFleet, fakeInstall, testController } from "@garrison/testkit"
import { Effect, LogLevel } from "effect"
import * as Fs from "node:fs"
import * as NodePath from "node:path"
import { TypesPlugin } from "../../src/types/index.js"

const ADMIN = "root:admin"
const EDITOR = "eda:server.config"
const MISSION = "mpmissions/dayzOffline.chernarusplus"
const TYPES_XML = `${MISSION}/db/types.xml`
const CUSTOM_XML = `${MISSION}/garrison_ce/types_custom.xml`
const BROKEN_XML = `${MISSION}/garrison_ce/types_broken.xml`

const MISSION_CONFIG = 'hostname = "T";\nclass Missions\n{\n    class DayZ\n    {\n        template = "dayzOffline.chernarusplus";\n    };\n};\n'
const TYPES = `<types>
    <type name="Apple">
        <nominal>20</nominal>
        <min>10</min>
        <category name="food"/>
    </type>
</types>
`
/** Registers a file that is not there and one that is not XML. */
const CORE = `<economycore>
    <ce folder="garrison_ce">
        <file name="types_custom.xml" type="types" />
        <file name="types_broken.xml" type="types" />
    </ce>
</economycore>
`

const server = (config = MISSION_CONFIG) =>
  Effect.gen(function* () {
    const dir = fakeInstall()
    Fs.writeFileSync(NodePath.join(dir, "serverDZ.cfg"), config)
    Fs.mkdirSync(NodePath.join(dir, MISSION, "db"), { recursive: true })
    Fs.mkdirSync(NodePath.join(dir, MISSION, "garrison_ce"))
    Fs.writeFileSync(NodePath.join(dir, TYPES_XML), TYPES)
    Fs.writeFileSync(NodePath.join(dir, BROKEN_XML), "<types><type name=")
    Fs.writeFileSync(NodePath.join(dir, MISSION, "cfgeconomycore.xml"), CORE)
    const created = yield* call("POST", "/api/servers", { as: ADMIN, json: { name: `Main ${dir.slice(-6)}`, installDir: dir } })
    return { id: String((created.body as { id: string }).id), dir }
  })

const layer = () => testController([fakeFleet().plugin, TypesPlugin], { dataPrefix: "garrison-types-refusals-", logLevel: LogLevel.Error, config: { RATE_LIMIT_API: "off" } })

describe("the types editor's refusals", () => {
  it.scoped("each is one status with its message and details; the file list names each file's problem", () =>
    Effect.gen(function* () {
      yield* Effect.gen(function* () {
        const { id, dir } = yield* server()

        // A registered file that is not there, or not XML, is listed with its problem; the rest still count.
        const files = (yield* call("GET", `/api/servers/${id}/types/files`, { as: EDITOR })).body as {
          items: ReadonlyArray<{ path: string; items: number; problem: string | null }>
        }
        expect(files.items.map((f) => [f.path, f.items])).toEqual([
          [TYPES_XML, 1],
          [CUSTOM_XML, 0],
          [BROKEN_XML, 0]
        ])
        expect(files.items[0]!.problem).toBeNull()
        expect(files.items[1]!.problem).toBe(`file: ${JSON.stringify(CUSTOM_XML)} does not exist`)
        expect(files.items[2]!.problem).toMatch(new RegExp(`^${BROKEN_XML} \\S`))
        // A file not there has no items; one that is not XML stops the list that reads it.
        const items = yield* call("GET", `/api/servers/${id}/types/items`, { as: EDITOR })
        expect(items.status).toBe(409)
        expect(items.body).toMatchObject({ error: "conflict", message: files.items[2]!.problem })
        Fs.rmSync(NodePath.join(dir, BROKEN_XML))
        expect((yield* call("GET", `/api/servers/${id}/types/items`, { as: EDITOR })).body).toMatchObject({ total: 1 })

        const cursor = yield* call("GET", `/api/servers/${id}/types/items?cursor=bogus`, { as: EDITOR })
        expect(cursor.status).toBe(400)
        expect(cursor.body).toMatchObject({ error: "invalid-request", details: [{ path: "cursor", message: "is not one this list returned" }] })

        const notTypes = yield* call("GET", `/api/servers/${id}/types/items?file=${encodeURIComponent("serverDZ.cfg")}`, { as: EDITOR })
        expect(notTypes.status).toBe(400)
        expect(notTypes.body).toMatchObject({
          error: "invalid-request",
          message: `file: "serverDZ.cfg" is not a types file of this mission (${TYPES_XML}, ${CUSTOM_XML}, ${BROKEN_XML})`,
          details: [{ path: "file", message: "not a types file" }]
        })

        const badItem = yield* call("PUT", `/api/servers/${id}/types/save`, { as: EDITOR, json: { items: [{ name: "Apple", nominal: 2, min: 5 }] } })
        expect(badItem.status).toBe(400)
        const bad = badItem.body as { error: string; message: string; details: ReadonlyArray<{ path: string; message: string }> }
        expect(bad.error).toBe("invalid-request")
        expect(bad.details).toEqual([{ path: "items", message: expect.stringContaining("must not exceed nominal") }])
        expect(bad.message).toBe(`item "Apple": ${bad.details[0]!.message}`)

        const unknown = yield* call("PUT", `/api/servers/${id}/types/save`, { as: EDITOR, json: { items: [{ name: "Pear" }] } })
        expect(unknown.status).toBe(404)
        expect(unknown.body).toMatchObject({ error: "not-found", message: `${TYPES_XML} has no item "Pear": add it instead` })
        const gone = yield* call("DELETE", `/api/servers/${id}/types/item?name=Pear`, { as: EDITOR })
        expect(gone.status).toBe(404)
        expect(gone.body).toMatchObject({ error: "not-found", message: `${TYPES_XML} has no item "Pear"` })

        const twice = yield* call("POST", `/api/servers/${id}/types/add`, { as: EDITOR, json: { item: { name: "Apple" } } })
        expect(twice.status).toBe(409)
        expect(twice.body).toMatchObject({ error: "conflict", message: `${TYPES_XML} has an item "Apple" already: save it instead` })

        // A types file that is not there is the server folder's 404, naming `file`.
        const missing = yield* call("POST", `/api/servers/${id}/types/add`, { as: EDITOR, json: { file: CUSTOM_XML, item: { name: "Pear" } } })
        expect(missing.status).toBe(404)
        expect(missing.body).toMatchObject({ error: "not-found", message: `file: ${JSON.stringify(CUSTOM_XML)} does not exist` })

        // A configuration that names no mission.
        const other = yield* server('hostname = "T";\n')
        const noMission = yield* call("GET", `/api/servers/${other.id}/types/files`, { as: EDITOR })
        expect(noMission.status).toBe(409)
        expect(noMission.body).toMatchObject({ error: "conflict", message: 'serverDZ.cfg names no mission (class Missions { class DayZ { template = "..."; }; })' })
      }).pipe(Effect.provide(layer()))
    }))
})
