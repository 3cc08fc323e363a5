/**
 * The types editor keeps every byte it does not change (issue 36): on a
 * community-style types.xml (mixed indentation, comments everywhere, `<x />`
 * beside `<x/>`, both quotes) and its CRLF twin registered through
 * cfgeconomycore.xml, a save changes only the characters of the values it
 * changes, an added item follows the file's own layout and line endings,
 * and a removed item takes only its own lines. Each expectation is the
 * original file with exactly the intended characters changed.
 */
import { describe, expect, it } from "@effect/vitest"
import { callWithText as call, fakeFleet, fakeInstall, testController } from "@garrison/testkit"
import { Effect, LogLevel } from "effect"
import * as Fs from "node:fs"
import * as NodePath from "node:path"
import { TypesPlugin } from "../../src/types/index.js"
import { addItem, removeItem, saveItems } from "../../src/types/internal/typesEdits.js"
import { findType, itemOf, parseTypes, type TypeItem, typeNodes } from "../../src/types/internal/typesXml.js"

const fixture = (name: string) => Fs.readFileSync(NodePath.join(import.meta.dirname, "fixtures", name), "latin1")
const LF = fixture("community_types.xml")
const CRLF = fixture("community_types_crlf.xml")
const CORE = fixture("cfgeconomycore.xml")

/** `text` with `from` (which must occur once) replaced by `to`. */
const replacedOnce = (text: string, from: string, to: string) => {
  expect(text.split(from).length - 1, `${JSON.stringify(from)} occurs once`).toBe(1)
  return text.replace(from, () => to)
}

const itemsOf = (text: string) => typeNodes(parseTypes(text)).map(itemOf)
const item = (text: string, name: string): TypeItem => itemOf(findType(parseTypes(text), name)!)
const save = (text: string, items: ReadonlyArray<TypeItem>) => saveItems(text, parseTypes(text).root, items)

describe("types edits splice the file's text", () => {
  it("the fixtures are what they claim: mixed indentation, comments, both self-closing spellings, CRLF", () => {
    expect(LF).toMatch(/\n\t<type/)
    expect(LF).toMatch(/\n {4}<type/)
    expect(LF).toMatch(/\n {2}<type/)
    expect(LF.match(/<!--/g)?.length).toBeGreaterThanOrEqual(10)
    expect(LF).toContain('" />')
    expect(LF).toContain('"/>')
    expect(CRLF).toBe(LF.replace(/\n/g, "\r\n"))
    expect(CORE).toContain("\r\n")
  })

  it("saving every item as it reads changes no byte", () => {
    for (const text of [LF, CRLF]) expect(save(text, itemsOf(text))).toBe(text)
  })

  it("saving two changed values changes only those characters", () => {
    for (const text of [LF, CRLF]) {
      const akm = { ...item(text, "AKM"), nominal: 20 }
      const apple = { ...item(text, "Apple"), lifetime: 7200 }
      const saved = save(text, [akm, apple])
      expect(saved).toBe(replacedOnce(replacedOnce(text, "<nominal>12</nominal>", "<nominal>20</nominal>"), "\t  <lifetime>3600</lifetime>", "\t  <lifetime>7200</lifetime>"))
      // Read back, the items are what was saved.
      expect(item(saved, "AKM")).toEqual(akm)
      expect(item(saved, "Apple")).toEqual(apple)
    }
  })

  it("a flag changes its value in place, in either quoting; a dropped flag takes its own space", () => {
    const m4 = item(LF, "M4A1")
    const changed = save(LF, [{ ...m4, flags: { ...m4.flags, count_in_player: 1 } }])
    expect(changed).toBe(replacedOnce(LF, "count_in_player='0' crafted='0' deloot='0'/>", "count_in_player='1' crafted='0' deloot='0'/>"))
    const { deloot: _, ...without } = item(LF, "AKM").flags
    expect(save(LF, [{ ...item(LF, "AKM"), flags: without }])).toBe(replacedOnce(LF, '\t\t<flags count_in_cargo="0" count_in_hoarder="0" count_in_map="1" count_in_player="0" crafted="0" deloot="0" />', '\t\t<flags count_in_cargo="0" count_in_hoarder="0" count_in_map="1" count_in_player="0" crafted="0" />'))
    expect(save(LF, [{ ...item(LF, "Pear"), flags: { count_in_map: 1, crafted: 1 } }])).toBe(replacedOnce(LF, '<flags count_in_map="1" />', '<flags count_in_map="1" crafted="1" />'))
  })

  it("a list entry that goes takes its line; one that comes copies its sibling's line break, indentation and spelling", () => {
    for (const [text, eol] of [[LF, "\n"], [CRLF, "\r\n"]] as const) {
      const apple = item(text, "Apple")
      expect(save(text, [{ ...apple, usage: ["Farm"] }])).toBe(replacedOnce(text, `      <usage name="Village"/>${eol}      <custom`, "      <custom"))
      // After the child's own comment, on a line of its own, indented like it.
      expect(save(text, [{ ...apple, usage: ["Farm", "Village", "Town"] }])).toBe(
        replacedOnce(text, `<usage name="Village"/>${eol}`, `<usage name="Village"/>${eol}      <usage name="Town"/>${eol}`)
      )
      const tuna = item(text, "TunaCan")
      expect(save(text, [{ ...tuna, value: ["Tier1"] }])).toBe(replacedOnce(text, `\t    <usage name="Village" />${eol}\t</type>`, `\t    <usage name="Village" />${eol}\t    <value name="Tier1" />${eol}\t</type>`))
      const m4 = item(text, "M4A1")
      expect(save(text, [{ ...m4, restock: null, value: ["Tier3"] }])).toBe(
        replacedOnce(replacedOnce(text, `        <restock>3600</restock>${eol}`, ""), "<value name='Tier4'/>", "<value name='Tier3'/>")
      )
      // The comment inside the item stays where it was.
      expect(save(text, [{ ...m4, restock: null }])).toContain(`<!-- was 1800 before the 1.21 wipe -->${eol}        <min>2</min>`)
    }
  })

  it("whatever is saved reads back as saved, and the other items stay as they were", () => {
    // A fixed pseudo-random walk over every kind of change: numbers set and dropped, flags, lists grown and shrunk.
    let seed = 36
    const next = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2147483648), Math.floor(seed / 65536) % n)
    const pick = <A>(xs: ReadonlyArray<A>) => xs.filter(() => next(2) === 0)
    for (const text of [LF, CRLF]) {
      let current = text
      for (let round = 0; round < 60; round++) {
        const before = itemsOf(current)
        const target = before[next(before.length)]!
        const changed: TypeItem = {
          ...target,
          nominal: next(3) === 0 ? null : next(50),
          min: next(3) === 0 ? null : 0,
          restock: next(3) === 0 ? null : next(9000),
          flags: Object.fromEntries(pick(["count_in_cargo", "count_in_map", "crafted", "deloot"]).map((f) => [f, next(2)])),
          category: next(4) === 0 ? null : "tools",
          usage: pick(["Farm", "Town", "Military"]),
          value: pick(["Tier1", "Tier2"]),
          tag: pick(["floor", "shelves"])
        }
        current = save(current, [changed])
        const after = itemsOf(current)
        expect(after.map((i) => i.name)).toEqual(before.map((i) => i.name))
        for (const [i, read] of after.entries()) expect(read, `round ${round}`).toEqual(before[i]!.name === target.name ? changed : before[i])
        if (text === CRLF) expect(current).not.toMatch(/[^\r]\n/)
      }
      // Comments and the element Garrison does not know are all still there.
      expect(current.match(/<!--[\s\S]*?-->/g)).toEqual(text.match(/<!--[\s\S]*?-->/g))
      expect(current).toContain('<custom note="kept">x</custom>')
    }
  })

  it("a one-line item stays on one line", () => {
    const pear = item(LF, "Pear")
    expect(save(LF, [{ ...pear, nominal: 31, restock: 0, usage: ["Farm", "Town"] }])).toBe(
      replacedOnce(LF, '<nominal>30</nominal><lifetime>3600</lifetime><min>15</min><flags count_in_map="1" /><category name="food" /><usage name="Farm" /></type>', '<nominal>31</nominal><lifetime>3600</lifetime><restock>0</restock><min>15</min><flags count_in_map="1" /><category name="food" /><usage name="Farm" /><usage name="Town" /></type>')
    )
  })

  it("an added item follows the last item's indentation, line endings and spelling", () => {
    for (const [text, eol] of [[LF, "\n"], [CRLF, "\r\n"]] as const) {
      const lantern: TypeItem = { name: "Lantern", nominal: 4, lifetime: null, restock: null, min: 2, quantmin: null, quantmax: null, cost: null, flags: { count_in_map: 1 }, category: "tools", usage: ["Town"], value: [], tag: [] }
      const added = addItem(text, parseTypes(text).root, lantern)
      const block = [`<type name="Lantern">`, `    <nominal>4</nominal>`, `    <min>2</min>`, `    <flags count_in_map="1"/>`, `    <category name="tools"/>`, `    <usage name="Town"/>`, `</type>`].join(eol)
      expect(added).toBe(replacedOnce(text, `    <!-- no tier on purpose -->${eol}</type>${eol}`, `    <!-- no tier on purpose -->${eol}</type>${eol}${block}${eol}`))
      expect(item(added, "Lantern")).toEqual(lantern)
    }
  })

  it("an item added after a one-line item is one line; into a file with no items, it is indented by four spaces", () => {
    const crate: TypeItem = { name: "Crate", nominal: 1, lifetime: null, restock: null, min: null, quantmin: null, quantmax: null, cost: null, flags: {}, category: null, usage: ["Town"], value: [], tag: [] }
    const oneLine = "<types>\r\n  <type name='A'><nominal>2</nominal><usage name='Farm' /></type>\r\n</types>"
    expect(addItem(oneLine, parseTypes(oneLine).root, crate)).toBe("<types>\r\n  <type name='A'><nominal>2</nominal><usage name='Farm' /></type>\r\n  <type name='Crate'><nominal>1</nominal><usage name='Town' /></type>\r\n</types>")
    const empty = "<types>\r\n</types>\r\n"
    expect(addItem(empty, parseTypes(empty).root, crate)).toBe('<types>\r\n    <type name="Crate">\r\n        <nominal>1</nominal>\r\n        <usage name="Town"/>\r\n    </type>\r\n</types>\r\n')
    const closed = "<?xml version='1.0'?>\n<types />\n"
    expect(item(addItem(closed, parseTypes(closed).root, crate), "Crate")).toEqual(crate)
  })

  it("a removed item takes only its own lines", () => {
    for (const [text, eol] of [[LF, "\n"], [CRLF, "\r\n"]] as const) {
      const tuna = text.slice(text.indexOf('\t<type name="TunaCan">'), text.indexOf(`\t</type>${eol}${eol}<!-- TOOLS -->`) + `\t</type>${eol}`.length)
      expect(removeItem(text, parseTypes(text).root, "tunacan")).toBe(replacedOnce(text, tuna, ""))
      const pearLine = text.slice(text.indexOf('\t<type name="Pear">'), text.indexOf("</type>", text.indexOf('"Pear"')) + `</type>${eol}`.length)
      expect(removeItem(text, parseTypes(text).root, "Pear")).toBe(replacedOnce(text, pearLine, ""))
    }
  })
})

const ADMIN = "root:admin"
const EDITOR = "eda:server.config"
const MISSION = "mpmissions/dayzOffline.chernarusplus"
const layer = () => testController([fakeFleet().plugin, TypesPlugin], { dataPrefix: "garrison-types-bytes-", logLevel: LogLevel.Error })

describe("the types editor over the API", () => {
  it.scoped("saves two values of the mission's file and of a CRLF file cfgeconomycore.xml registers, changing only those bytes", () =>
    Effect.gen(function* () {
      yield* Effect.gen(function* () {
        const dir = fakeInstall()
        Fs.writeFileSync(NodePath.join(dir, "serverDZ.cfg"), 'class Missions\r\n{\r\n\tclass DayZ\r\n\t{\r\n\t\ttemplate = "dayzOffline.chernarusplus";\r\n\t};\r\n};\r\n')
        Fs.mkdirSync(NodePath.join(dir, MISSION, "db"), { recursive: true })
        Fs.mkdirSync(NodePath.join(dir, MISSION, "community_ce"))
        const types = NodePath.join(dir, MISSION, "db", "types.xml")
        const community = NodePath.join(dir, MISSION, "community_ce", "types_community.xml")
        Fs.writeFileSync(types, LF, "latin1")
        Fs.writeFileSync(community, CRLF, "latin1")
        Fs.writeFileSync(NodePath.join(dir, MISSION, "cfgeconomycore.xml"), CORE, "latin1")
        const created = yield* call("POST", "/api/servers", { as: ADMIN, json: { name: "Main", installDir: dir } })
        const id = String((created.body as { id: string }).id)

        const files = (yield* call("GET", `/api/servers/${id}/types/files`, { as: EDITOR })).body
        expect(files).toMatchObject({ items: [{ items: 7, problem: null }, { path: `${MISSION}/community_ce/types_community.xml`, items: 7, registered: true, problem: null }] })

        for (const [path, file, original] of [[`${MISSION}/db/types.xml`, types, LF], [`${MISSION}/community_ce/types_community.xml`, community, CRLF]] as const) {
          const read = (yield* call("GET", `/api/servers/${id}/types/items?file=${encodeURIComponent(path)}&limit=1000`, { as: EDITOR })).body as { items: ReadonlyArray<TypeItem & { file: string }> }
          const strip = ({ file: _, ...rest }: TypeItem & { file: string }) => rest
          const akm = strip(read.items.find((i) => i.name === "AKM")!)
          const hammer = strip(read.items.find((i) => i.name === "Hammer")!)
          const saved = yield* call("PUT", `/api/servers/${id}/types/save`, { as: EDITOR, json: { file: path, items: [{ ...akm, min: 7 }, { ...hammer, nominal: 16 }] } })
          expect(saved.status, saved.text).toBe(200)
          expect(Fs.readFileSync(file, "latin1")).toBe(replacedOnce(replacedOnce(original, "<min>6</min>", "<min>7</min>"), "<nominal>15</nominal>", "<nominal>16</nominal>"))
          expect(Fs.readFileSync(NodePath.join(dir, (saved.body as { backup: string }).backup), "latin1")).toBe(original)
        }
        // CRLF stays CRLF: not one bare line feed.
        expect(Fs.readFileSync(community, "latin1")).not.toMatch(/[^\r]\n/)
      }).pipe(Effect.provide(layer()))
    }))

  it.scoped("keeps bytes that are not UTF-8 and a byte order mark", () =>
    Effect.gen(function* () {
      yield* Effect.gen(function* () {
        const dir = fakeInstall()
        Fs.writeFileSync(NodePath.join(dir, "serverDZ.cfg"), 'class Missions { class DayZ { template = "dayzOffline.chernarusplus"; }; };\n')
        Fs.mkdirSync(NodePath.join(dir, MISSION, "db"), { recursive: true })
        const types = NodePath.join(dir, MISSION, "db", "types.xml")
        // A BOM, and a comment saved by an editor in Windows-1252 ("Löwe" with 0xF6).
        const original = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(LF.replace("<!-- RIFLES -->", "<!-- RIFLES (L\xf6we) -->"), "latin1")])
        Fs.writeFileSync(types, original)
        const created = yield* call("POST", "/api/servers", { as: ADMIN, json: { name: "Main", installDir: dir } })
        const id = String((created.body as { id: string }).id)
        const saved = yield* call("PUT", `/api/servers/${id}/types/save`, { as: EDITOR, json: { items: [{ ...item(LF, "Shovel"), nominal: 9 }] } })
        expect(saved.status, saved.text).toBe(200)
        expect(Fs.readFileSync(types)).toEqual(Buffer.from(original.toString("latin1").replace("<nominal>8</nominal>", "<nominal>9</nominal>"), "latin1"))
      }).pipe(Effect.provide(layer()))
    }))
})
