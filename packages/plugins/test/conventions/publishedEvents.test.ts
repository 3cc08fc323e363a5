/**
 * The published-event catalogue of the default plugins (what webhooks and
 * `GET /api/webhooks/events` offer): the plan accepts it, the names the
 * field conventions promise are there, every declaration's example makes a
 * payload that survives JSON and a one-line summary, and every bus event
 * class the plugins and the server actors define is either published or
 * listed below as internal, with why. So a new event class fails here until
 * someone decides.
 */
import { describe, expect, it } from "vitest"
import { type AnyPublishedEvent, planPlugins, PUBLISHED_EVENT_NAME } from "@garrison/runtime"
import * as Either from "effect/Either"
import * as Fs from "node:fs"
import * as NodePath from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { defaultPlugins } from "../../src/index.js"

const SRC = fileURLToPath(new URL("../../src", import.meta.url))
const RUNTIME_SERVER_EVENTS = fileURLToPath(new URL("../../../runtime/src/servers/events.ts", import.meta.url))

/** The names `field-conventions.md` (Webhooks) lists as in use. */
const CONVENTION_NAMES = [
  "server.started",
  "server.stopped",
  "server.restarted",
  "server.crashed",
  "player.joined",
  "player.kick",
  "player.ban",
  "player.unban",
  "scheduler.job",
  "backup.created",
  "backup.failed"
]

/**
 * Bus event classes that are not offered outside, each with why. (The
 * runtime's `Rcon*` classes in `game/ServerMessages.ts` are parsed RCON
 * lines, never put on the bus: the actor turns them into the events above.)
 */
const INTERNAL_ONLY: Readonly<Record<string, string>> = {
  // Every line a server pushes over RCON, for the console view: far too chatty for a webhook, and a line may
  // carry what an admin typed (a password in a command). Chat arrives as ChatMessage (`player.chat`).
  ConsoleLine: "every RCON line",
  // The game log's joins as the watchlist reads them; webhooks have player.joined (RCON) and watchlist.joined.
  GamePlayerJoined: "every connect line of every admin log",
  // A signal to the live map's streams that positions moved: no content of its own.
  GamePositionsChanged: "the live map's refresh signal"
}

const plan = planPlugins(defaultPlugins)
const catalogue: ReadonlyArray<AnyPublishedEvent & { readonly owner: string }> = Either.isRight(plan) ? plan.right.publishedEvents : []

/** `plugin/events.ts` for every plugin folder that has one, and the runtime's server events. */
const eventModules = (): ReadonlyArray<string> => [
  ...Fs.readdirSync(SRC, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && Fs.existsSync(NodePath.join(SRC, entry.name, "events.ts")))
    .map((entry) => NodePath.join(SRC, entry.name, "events.ts")),
  RUNTIME_SERVER_EVENTS
]

/** The event classes a module exports: classes with a static string `_tag` (`Schema.TaggedClass`). */
const eventClassesOf = async (file: string): Promise<ReadonlyArray<{ readonly tag: string; readonly file: string }>> => {
  const module = (await import(pathToFileURL(file).href)) as Record<string, unknown>
  return Object.values(module).flatMap((value) => {
    const tag = typeof value === "function" ? (value as { readonly _tag?: unknown })._tag : undefined
    return typeof tag === "string" ? [{ tag, file: NodePath.relative(NodePath.join(SRC, "../.."), file) }] : []
  })
}

describe("published events of the default plugins", () => {
  it("the plan accepts them: names well formed, each name and each class declared once", () => {
    if (Either.isLeft(plan)) throw new Error(plan.left.message)
    expect(catalogue.length).toBeGreaterThan(CONVENTION_NAMES.length)
    for (const event of catalogue) expect(event.name, event.tag).toMatch(PUBLISHED_EVENT_NAME)
  })

  it("every name the field conventions list is published", () => {
    const names = new Set(catalogue.map((event) => event.name))
    expect(CONVENTION_NAMES.filter((name) => !names.has(name))).toEqual([])
  })

  it("every example is of its class, makes a payload that survives JSON, and a one-line summary", () => {
    for (const event of catalogue) {
      const at = `${event.name} (${event.owner})`
      expect(event.example._tag, at).toBe(event.tag)
      expect(event.description.trim(), at).not.toBe("")
      expect(event.description, at).not.toMatch(/[\r\n]/)
      const data = event.data(event.example)
      expect(data, at).not.toHaveProperty("_tag")
      expect(JSON.parse(JSON.stringify(data)), at).toEqual(data)
      const summary = event.summary(event.example)
      expect(summary.trim(), at).not.toBe("")
      expect(summary, at).not.toMatch(/[\r\n]/)
      expect(["info", "success", "warning", "error"], at).toContain(event.severity(event.example))
      // What the event-type list says it can be holds the example's.
      expect(event.severities, at).toContain(event.severity(event.example))
      const serverId = event.serverId(event.example)
      expect(serverId === undefined || (typeof serverId === "string" && serverId !== ""), at).toBe(true)
      // An event about one server says which, so a subscription limited to servers can take it.
      if (typeof (event.example as { readonly serverId?: unknown }).serverId === "string") expect(serverId, at).toBeDefined()
    }
  })

  it("no published payload carries a secret or a player's IP address", () => {
    for (const event of catalogue) {
      const keys = Object.keys(event.data(event.example))
      expect(keys.filter((key) => /password|token|secret|apikey|api_key|^ip$|address/i.test(key)), event.name).toEqual([])
    }
  })

  it("every bus event class is published or listed as internal, and the internal list names only real classes", async () => {
    const classes = (await Promise.all(eventModules().map(eventClassesOf))).flat()
    expect(classes.length).toBeGreaterThan(20)
    const published = new Set(catalogue.map((event) => event.tag))
    const undecided = classes.filter(({ tag }) => !published.has(tag) && INTERNAL_ONLY[tag] === undefined).map(({ tag, file }) => `${tag} (${file})`)
    expect(undecided, "publish these (a published.ts beside them) or list them in INTERNAL_ONLY, saying why").toEqual([])
    const tags = new Set(classes.map(({ tag }) => tag))
    expect(Object.keys(INTERNAL_ONLY).filter((tag) => !tags.has(tag) || published.has(tag))).toEqual([])
  })
})
