/**
 * The types editor over the real servers plugin and real files: the
 * mission's types.xml and a registered extra file read as items, filtered
 * and totalled; saves, adds and deletes that keep comments, unknown
 * attributes and elements, back up the file as it was, and refuse what
 * DayZ's economy would choke on.
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

const TYPES = `<?xml version="1.0" encoding="UTF-8" standalone="yes" ?>
<types>
    <!-- optics -->
    <type name="ACOGOptic_6x">
        <nominal>5</nominal>
        <lifetime>14400</lifetime>
        <restock>1800</restock>
        <min>2</min>
        <quantmin>-1</quantmin>
        <quantmax>-1</quantmax>
        <cost>100</cost>
        <flags count_in_cargo="0" count_in_hoarder="0" count_in_map="1" count_in_player="0" crafted="0" deloot="0"/>
        <category name="weapons"/>
        <usage name="Military"/>
        <usage name="Police"/>
        <value name="Tier3"/>
        <custom note="kept">x</custom>
    </type>
    <type name="Apple" modded="yes">
        <nominal>20</nominal>
        <lifetime>3600</lifetime>
        <min>10</min>
        <category name="food"/>
        <usage name="Farm"/>
    </type>
</types>
`
const CUSTOM = `<?xml version="1.0" encoding="UTF-8"?>
<types>
    <type name="GarrisonFlag">
        <nominal>2</nominal>
        <min>1</min>
        <category name="tools"/>
        <usage name="Military"/>
        <value name="Tier4"/>
    </type>
</types>
`
const CORE = `<?xml version="1.0" encoding="UTF-8" standalone="yes" ?>
<economycore>
    <ce folder="garrison_ce">
        <file name="types_custom.xml" type="types" />
        <file name="spawnable_custom.xml" type="spawnabletypes" />
    </ce>
</economycore>
`

const server = Effect.gen(function* () {
  const dir = fakeInstall()
  Fs.writeFileSync(NodePath.join(dir, "serverDZ.cfg"), 'hostname = "T";\nclass Missions\n{\n    class DayZ\n    {\n        template = "dayzOffline.chernarusplus";\n    };\n};\n')
  Fs.mkdirSync(NodePath.join(dir, MISSION, "db"), { recursive: true })
  Fs.mkdirSync(NodePath.join(dir, MISSION, "garrison_ce"))
  Fs.writeFileSync(NodePath.join(dir, MISSION, "db", "types.xml"), TYPES)
  Fs.writeFileSync(NodePath.join(dir, MISSION, "garrison_ce", "types_custom.xml"), CUSTOM)
  Fs.writeFileSync(NodePath.join(dir, MISSION, "cfgeconomycore.xml"), CORE)
  const created = yield* call("POST", "/api/servers", { as: ADMIN, json: { name: "Main", installDir: dir } })
  return { id: String((created.body as { id: string }).id), dir }
})

const layer = () => testController([fakeFleet().plugin, TypesPlugin], { dataPrefix: "garrison-types-", logLevel: LogLevel.Error })

interface Item {
  readonly name: string
  readonly nominal: number | null
  readonly min: number | null
  readonly category: string | null
  readonly usage: ReadonlyArray<string>
  readonly file: string
}

describe("the types editor", () => {
  it.scoped("reads every types file of the mission as items, filtered and paged; limits per category; the item list", () =>
    Effect.gen(function* () {
      yield* Effect.gen(function* () {
        const { id } = yield* server
        const files = (yield* call("GET", `/api/servers/${id}/types/files`, { as: EDITOR })).body
        expect(files).toMatchObject({
          mission: MISSION,
          items: [
            { path: `${MISSION}/db/types.xml`, items: 2, registered: false, problem: null },
            { path: `${MISSION}/garrison_ce/types_custom.xml`, items: 1, registered: true }
          ]
        })
        const all = (yield* call("GET", `/api/servers/${id}/types/items`, { as: EDITOR })).body as { items: ReadonlyArray<Item>; total: number }
        expect(all.total).toBe(3)
        expect(all.items[0]).toMatchObject({ name: "ACOGOptic_6x", nominal: 5, min: 2, category: "weapons", usage: ["Military", "Police"], value: ["Tier3"] })
        const military = (yield* call("GET", `/api/servers/${id}/types/items?usage=military`, { as: EDITOR })).body as { items: ReadonlyArray<Item> }
        expect(military.items.map((i) => i.name)).toEqual(["ACOGOptic_6x", "GarrisonFlag"])
        expect(((yield* call("GET", `/api/servers/${id}/types/items?name=app`, { as: EDITOR })).body as { items: ReadonlyArray<Item> }).items.map((i) => i.name)).toEqual(["Apple"])
        const first = (yield* call("GET", `/api/servers/${id}/types/items?limit=2`, { as: EDITOR })).body as { items: ReadonlyArray<Item>; nextCursor: string }
        const second = (yield* call("GET", `/api/servers/${id}/types/items?limit=2&cursor=${first.nextCursor}`, { as: EDITOR })).body as { items: ReadonlyArray<Item>; nextCursor: null }
        expect([...first.items, ...second.items].map((i) => i.name)).toEqual(["ACOGOptic_6x", "Apple", "GarrisonFlag"])
        expect(second.nextCursor).toBeNull()
        expect((yield* call("GET", `/api/servers/${id}/types/items?cursor=bogus`, { as: EDITOR })).status).toBe(400)
        expect((yield* call("GET", `/api/servers/${id}/types/limits`, { as: EDITOR })).body).toMatchObject({
          items: [
            { category: "food", items: 1, nominal: 20, min: 10 },
            { category: "tools", items: 1, nominal: 2, min: 1 },
            { category: "weapons", items: 1, nominal: 5, min: 2 }
          ]
        })
        expect((yield* call("GET", `/api/servers/${id}/items`, { as: EDITOR })).body).toMatchObject({ total: 3, items: [{ name: "ACOGOptic_6x", category: "weapons" }, { name: "Apple" }, { name: "GarrisonFlag" }] })
      }).pipe(Effect.provide(layer()))
    }))

  it.scoped("save, add and delete keep comments, unknown attributes and elements, and back the file up; bad items are 400, unknown ones 404", () =>
    Effect.gen(function* () {
      yield* Effect.gen(function* () {
        const { id, dir } = yield* server
        const file = NodePath.join(dir, MISSION, "db", "types.xml")
        const saved = yield* call("PUT", `/api/servers/${id}/types/save`, {
          as: EDITOR,
          json: { items: [{ name: "ACOGOptic_6x", nominal: 8, min: 3, lifetime: 14400, restock: 1800, quantmin: -1, quantmax: -1, cost: 100, flags: { count_in_map: 1 }, category: "weapons", usage: ["Military"], value: ["Tier3", "Tier4"] }] }
        })
        expect(saved.status, saved.text).toBe(200)
        const text = Fs.readFileSync(file, "utf8")
        expect(text).toContain("<!-- optics -->")
        expect(text).toContain('<custom note="kept">x</custom>')
        expect(text).toContain('<type name="Apple" modded="yes">')
        expect(text).toContain("<nominal>8</nominal>")
        expect(text).not.toContain('<usage name="Police"/>')
        expect(text).toContain('<value name="Tier4"/>')
        const backup = (saved.body as { backup: string }).backup
        expect(Fs.readFileSync(NodePath.join(dir, backup), "utf8")).toBe(TYPES)

        const added = yield* call("POST", `/api/servers/${id}/types/add`, { as: EDITOR, json: { file: `${MISSION}/garrison_ce/types_custom.xml`, item: { name: "GarrisonLantern", nominal: 4, min: 2, category: "tools", usage: ["Town"] } } })
        expect(added.status).toBe(201)
        expect(Fs.readFileSync(NodePath.join(dir, MISSION, "garrison_ce", "types_custom.xml"), "utf8")).toContain('<type name="GarrisonLantern">')
        expect((yield* call("POST", `/api/servers/${id}/types/add`, { as: EDITOR, json: { item: { name: "Apple" } } })).status).toBe(409)

        const refused: ReadonlyArray<readonly [unknown, string]> = [
          [{ name: "Apple", nominal: 2, min: 5 }, "must not exceed nominal"],
          [{ name: "Apple", lifetime: -5 }, "lifetime"],
          [{ name: "Apple", flags: { count_in_space: 1 } }, "count_in_space"],
          [{ name: "Apple", quantmax: 101 }, "quantmax"],
          [{ name: "Bad Name!" }, "class name"]
        ]
        for (const [item, says] of refused) {
          const reply = yield* call("PUT", `/api/servers/${id}/types/save`, { as: EDITOR, json: { items: [item] } })
          expect(reply.status, JSON.stringify(item)).toBe(400)
          expect(reply.text).toContain(says)
        }
        expect((yield* call("PUT", `/api/servers/${id}/types/save`, { as: EDITOR, json: { items: [{ name: "NoSuchItem" }] } })).status).toBe(404)
        expect((yield* call("PUT", `/api/servers/${id}/types/save`, { as: EDITOR, json: { file: "../../etc/passwd", items: [{ name: "Apple" }] } })).status).toBe(400)

        expect((yield* call("DELETE", `/api/servers/${id}/types/item?name=Apple`, { as: EDITOR })).status).toBe(200)
        expect(Fs.readFileSync(file, "utf8")).not.toContain("Apple")
        expect((yield* call("DELETE", `/api/servers/${id}/types/item?name=Apple`, { as: EDITOR })).status).toBe(404)

        // A file that is not XML is refused, and stays as it was.
        Fs.writeFileSync(file, "<types><type name=")
        expect((yield* call("PUT", `/api/servers/${id}/types/save`, { as: EDITOR, json: { items: [{ name: "ACOGOptic_6x" }] } })).status).toBe(409)
        expect(Fs.readFileSync(file, "utf8")).toBe("<types><type name=")
      }).pipe(Effect.provide(layer()))
    }))
})
