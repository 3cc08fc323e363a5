/**
 * The catalogue other plugins read (`KNOWN_MAPS`, `knownMap`,
 * `mapOfMission`), the tile path reader on its own, and the tile source
 * setting: what it must hold, refused at start-up without echoing it.
 */
import { describe, expect, it } from "@effect/vitest"
import { testKernel } from "@garrison/testkit"
import { Cause, Effect, Either, Exit, Layer, Redacted } from "effect"
import { isMapStyle, KNOWN_MAPS, knownMap, MAP_STYLES, mapOfMission, MapsPlugin, parseTileSource, readTilePath } from "../../src/maps/index.js"

describe("the known maps", () => {
  it("ids are lower-case tile path ids, unique, each with a name, a world size and its templates", () => {
    const ids = KNOWN_MAPS.map((map) => map.id)
    expect(new Set(ids).size).toBe(ids.length)
    for (const map of KNOWN_MAPS) {
      expect(map.id).toMatch(/^[a-z][a-z0-9]*$/)
      expect(map.name.trim()).not.toBe("")
      expect(Number.isInteger(map.worldSize) && map.worldSize >= 2048 && map.worldSize <= 32768, map.id).toBe(true)
      expect(map.missions.length, map.id).toBeGreaterThan(0)
      for (const mission of map.missions) expect(mapOfMission(mission), mission).toBe(map)
    }
    expect(ids).toEqual(expect.arrayContaining(["chernarusplus", "enoch", "sakhal", "namalsk", "deerisle", "esseker", "takistanplus", "banov", "pripyat"]))
  })

  it("the official maps' sizes", () => {
    expect(knownMap("chernarusplus")).toMatchObject({ name: "Chernarus", worldSize: 15360 })
    expect(knownMap("enoch")).toMatchObject({ name: "Livonia", worldSize: 12800 })
    expect(knownMap("sakhal")).toMatchObject({ name: "Sakhal", worldSize: 15360 })
    expect(knownMap("deerisle")?.worldSize).toBe(16384)
  })

  it("knownMap takes the id exactly", () => {
    expect(knownMap("Enoch")).toBeUndefined()
    expect(knownMap("livonia")).toBeUndefined()
    expect(knownMap("")).toBeUndefined()
    expect(knownMap("__proto__")).toBeUndefined()
    expect(knownMap("constructor")).toBeUndefined()
  })

  it("mapOfMission reads the part after the last dot, in any case", () => {
    expect(mapOfMission("dayzOffline.chernarusplus")?.id).toBe("chernarusplus")
    expect(mapOfMission("dayzOffline.enoch")?.name).toBe("Livonia")
    expect(mapOfMission("DAYZOFFLINE.ENOCH")?.id).toBe("enoch")
    expect(mapOfMission("expansion.Enoch")?.id).toBe("enoch")
    expect(mapOfMission("regular.Namalsk")?.id).toBe("namalsk")
    expect(mapOfMission("hardcore.namalsk")?.id).toBe("namalsk")
    expect(mapOfMission("dayzOffline.TakistanPlus")?.id).toBe("takistanplus")
    expect(mapOfMission("Expansion.ChernarusPlusGloom")?.id).toBe("chernarusplus")
    expect(mapOfMission("my.server.copy.of.sakhal")?.id).toBe("sakhal")
    expect(mapOfMission("sakhal")?.id).toBe("sakhal")
    expect(mapOfMission("serverMission.Pripyat")?.worldSize).toBe(20480)
    expect(mapOfMission("dayzOffline.atlantis")).toBeUndefined()
    expect(mapOfMission("dayzOffline.")).toBeUndefined()
    expect(mapOfMission("")).toBeUndefined()
    expect(mapOfMission("enoch.atlantis")).toBeUndefined()
  })

  it("styles", () => {
    expect(MAP_STYLES).toEqual(["topographic", "satellite"])
    expect(isMapStyle("satellite")).toBe(true)
    expect(isMapStyle("Satellite")).toBe(false)
  })
})

describe("readTilePath", () => {
  it("reads a tile into the catalogue's map, a style and integers", () => {
    const read = readTilePath({ map: "enoch", style: "satellite", z: "10", x: "1023", y: "0.webp" })
    expect(Either.isRight(read)).toBe(true)
    if (Either.isRight(read)) {
      expect(read.right.map).toBe(knownMap("enoch"))
      expect([read.right.style, read.right.z, read.right.x, read.right.y]).toEqual(["satellite", 10, 1023, 0])
    }
  })

  it("refuses signs, fractions, exponents, other digits and huge numbers", () => {
    for (const z of ["+1", "-0", "1.0", "1e0", "0x1", " 1", "1 ", "١", "99999999999999999999", ""]) {
      const read = readTilePath({ map: "enoch", style: "satellite", z, x: "0", y: "0.webp" })
      expect(Either.isLeft(read), JSON.stringify(z)).toBe(true)
      if (Either.isLeft(read)) expect(read.left.problems.map((p) => p.field)).toEqual(["z"])
    }
  })
})

describe("the tile source setting", () => {
  const good = "https://tiles.example.org/dayz/{map}/{style}/{z}/{x}/{y}.webp"

  it("takes an http(s) template with every placeholder, and names its host only", () => {
    const parsed = parseTileSource(`  ${good}  `)
    expect(Either.isRight(parsed)).toBe(true)
    if (Either.isRight(parsed)) {
      expect(parsed.right.host).toBe("tiles.example.org")
      expect(Redacted.value(parsed.right.template)).toBe(good)
      expect(String(parsed.right.template)).not.toContain("example")
    }
    const withKey = parseTileSource("http://user:pw@127.0.0.1:8080/t/{z}/{x}/{y}/{map}-{style}.webp?key=abc")
    expect(Either.getOrThrow(withKey).host).toBe("127.0.0.1:8080")
  })

  it("refuses a template that cannot name every tile, or names the host by a placeholder", () => {
    const problem = (template: string) => Either.match(parseTileSource(template), { onLeft: (p) => p, onRight: () => "accepted" })
    expect(problem("https://tiles.example.org/{map}/{z}/{x}/{y}.webp")).toBe("must hold {style} (every tile needs its own URL)")
    expect(problem("https://tiles.example.org/{map}/{style}/{z}/{x}/{y}/{s}.webp")).toContain("{s}")
    expect(problem("ftp://tiles.example.org/{map}/{style}/{z}/{x}/{y}")).toBe("must be an http(s) URL")
    expect(problem("tiles.example.org/{map}/{style}/{z}/{x}/{y}")).toContain("absolute http(s) URL")
    expect(problem("https://{map}.example.org/{style}/{z}/{x}/{y}")).not.toBe("accepted")
  })

  it.scopedLive("a bad MAP_TILE_SOURCE_URL stops the start, naming the setting but not its value", () =>
    Effect.gen(function* () {
      const kernel = testKernel([MapsPlugin], { config: { MAP_TILE_SOURCE_URL: "https://tiles.example.org/SECRETKEY/{map}/{z}/{x}/{y}" } })
      const exit = yield* Effect.exit(Effect.scoped(Layer.build(kernel)))
      expect(Exit.isFailure(exit)).toBe(true)
      const text = Exit.isFailure(exit) ? Cause.pretty(exit.cause) : ""
      expect(text).toContain("MAP_TILE_SOURCE_URL must hold {style}")
      expect(text).not.toContain("SECRETKEY")
    }))
})
