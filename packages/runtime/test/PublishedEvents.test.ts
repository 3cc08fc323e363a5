/**
 * The published-event catalogue: how a declaration reads an event (data
 * encoded without `_tag`, the server's id, severity), patterns, and the
 * plan's start-up checks (names well formed, one owner each, one public
 * name per bus event class).
 */
import { describe, expect, it } from "@effect/vitest"
import { Either, Schema } from "effect"
import { eventPatternMatches, isEventPattern, published, PublishedEvents } from "../src/events/PublishedEvents.js"
import * as Plugin from "../src/kernel/Plugin.js"
import { planPlugins } from "../src/kernel/PluginPlan.js"

class Started extends Schema.TaggedClass<Started>()("TestStarted", { serverId: Schema.String, at: Schema.Date, pid: Schema.Int }) {}
class Imported extends Schema.TaggedClass<Imported>()("TestImported", { count: Schema.Int, level: Schema.Literal("low", "high") }) {}

const startedExample = new Started({ serverId: "s1", at: new Date("2026-01-02T03:04:05.000Z"), pid: 42 })
const started = published(Started, { name: "server.started", description: "A server started.", example: startedExample, summary: (e) => `started ${e.serverId}` })
const imported = published(Imported, {
  name: "bans.imported",
  description: "Bans were imported.",
  example: new Imported({ count: 3, level: "low" }),
  severity: (e) => (e.level === "high" ? "warning" : "info"),
  summary: (e) => `${e.count} imported`
})

describe("published events", () => {
  it("reads an event: data encoded without its tag, the server's id from its field, severity fixed or computed, and which it can be", () => {
    expect(started.tag).toBe("TestStarted")
    expect(started.data(startedExample)).toEqual({ serverId: "s1", at: "2026-01-02T03:04:05.000Z", pid: 42 })
    expect(started.serverId(startedExample)).toBe("s1")
    expect(started.severity(startedExample)).toBe("info")
    const high = new Imported({ count: 9, level: "high" })
    expect(imported.serverId(high)).toBeUndefined()
    expect(imported.severity(high)).toBe("warning")
    expect(imported.summary(high)).toBe("9 imported")
    // The severities it can have: the fixed one, what a computed one's declaration states (mildest first), or any.
    expect(started.severities).toEqual(["info"])
    expect(published(Started, { ...started, severity: "error" }).severities).toEqual(["error"])
    expect(imported.severities).toEqual(["info", "success", "warning", "error"])
    expect(published(Imported, { ...imported, severities: ["warning", "info"] }).severities).toEqual(["info", "warning"])
    // A summary is one line, however the plugin wrote it.
    const noisy = published(Imported, { ...imported, example: high, summary: (e) => `${e.count}\nimported\u0000${"x".repeat(600)}` })
    expect(noisy.summary(high)).toMatch(/^9 imported x+$/)
    expect(noisy.summary(high)).toHaveLength(500)
  })

  it("patterns: a name, everything, or a prefix of whole words", () => {
    expect(eventPatternMatches("server.started", "server.started")).toBe(true)
    expect(eventPatternMatches("*", "player.ban")).toBe(true)
    expect(eventPatternMatches("server.*", "server.started")).toBe(true)
    expect(eventPatternMatches("server.*", "server.update.failed")).toBe(true)
    expect(eventPatternMatches("server.*", "servers.started")).toBe(false)
    expect(eventPatternMatches("server.*", "server")).toBe(false)
    expect(eventPatternMatches("server.started", "server.stopped")).toBe(false)
    for (const good of ["*", "server.*", "server.started", "mod.job-failed", "a.b.*"]) expect(isEventPattern(good), good).toBe(true)
    for (const bad of ["", "server", "Server.started", "server.", "*.started", "server.**", "server.*.x", "../x", "server started", "server.\u0000"]) {
      expect(isEventPattern(bad), JSON.stringify(bad)).toBe(false)
    }
    const catalogue = PublishedEvents.make([{ ...started, owner: "a" }, { ...imported, owner: "b" }])
    expect(catalogue.namesMatching("server.*")).toEqual(["server.started"])
    expect(catalogue.namesMatching("*")).toEqual(["server.started", "bans.imported"])
    expect(catalogue.byTag("TestImported")?.owner).toBe("b")
    expect(catalogue.byName("nope.nope")).toBeUndefined()
  })

  it("the plan collects each plugin's events with their owner, in load order", () => {
    const result = planPlugins([Plugin.make({ id: "b", dependsOn: ["a"], publishes: [imported] }), Plugin.make({ id: "a", publishes: [started] })])
    if (Either.isLeft(result)) throw new Error(result.left.message)
    expect(result.right.publishedEvents.map((e) => `${e.name}:${e.owner}`)).toEqual(["server.started:a", "bans.imported:b"])
  })

  it("the plan refuses a name published twice, a class under two names, and a badly formed name, naming who", () => {
    const twice = planPlugins([Plugin.make({ id: "a", publishes: [started] }), Plugin.make({ id: "b", dependsOn: ["a"], publishes: [{ ...imported, name: "server.started" }] })])
    expect(Either.isLeft(twice) && twice.left).toMatchObject({
      reason: "duplicate-published-event",
      message: 'plugin "b" publishes event "server.started", already published by plugin "a"'
    })
    const renamed = planPlugins([Plugin.make({ id: "a", publishes: [started, { ...started, name: "server.up" }] })])
    expect(Either.isLeft(renamed) && renamed.left.message).toBe('plugin "a" publishes bus event TestStarted as "server.up", already published as "server.started" by plugin "a"')
    const badName = planPlugins([Plugin.make({ id: "a", publishes: [{ ...started, name: "ServerStarted" }] })])
    expect(Either.isLeft(badName) && badName.left).toMatchObject({ reason: "invalid-plugin" })
  })
})
