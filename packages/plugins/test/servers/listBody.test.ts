/**
 * The cached body of `GET /api/servers`: served again byte for byte while
 * nothing it shows has changed, rebuilt as soon as something has.
 */
import { describe, expect, it } from "@effect/vitest"
import { initialState, makeServerEntry, type ServerState } from "@garrison/runtime"
import { Option } from "effect"
import { makeServerListBody, serverCursor, type ServerListPage } from "../../src/servers/internal/listBody.js"

const entry = (id: string, name: string) => makeServerEntry({ id, name, installDir: `/srv/${id}` })

const running = (serverId: string, startedAt: number): ServerState => ({
  ...initialState(serverId),
  status: "running",
  pid: 4242,
  startedAt
})

interface Envelope {
  readonly items: Array<Record<string, unknown>>
  readonly nextCursor: string | null
  readonly total: number
}

const envelope = (body: Uint8Array) => JSON.parse(new TextDecoder().decode(body)) as Envelope
const decode = (body: Uint8Array) => envelope(body).items

/** The first page with the route's default limit. */
const ALL: ServerListPage = { after: undefined, limit: 10_000 }

/** The page after `cursor` (a `nextCursor` of an earlier page). */
const after = (cursor: string | null, limit: number): ServerListPage => ({
  after: Option.getOrThrow(serverCursor.decode(cursor ?? "")),
  limit
})

describe("server list body", () => {
  it("serves the same bytes while entries, states and the second are unchanged", () => {
    const list = makeServerListBody()
    const entries = [entry("a", "Alpha"), entry("b", "Bravo")]
    const states = [running("b", 10_000)]
    const first = list.render(entries, states, 70_100, ALL)
    expect(list.render(entries, states, 70_900, ALL)).toBe(first)
    expect(decode(first)).toEqual([
      expect.objectContaining({ id: "a", name: "Alpha", status: "stopped", pid: null, uptime: 0 }),
      expect.objectContaining({ id: "b", name: "Bravo", status: "running", pid: 4242, uptime: 60 })
    ])
  })

  it("rebuilds when a second passes, a state changes or the entries change", () => {
    const list = makeServerListBody()
    const entries = [entry("a", "Alpha"), entry("b", "Bravo")]
    const states = [running("b", 10_000)]
    const first = list.render(entries, states, 70_100, ALL)

    const nextSecond = list.render(entries, states, 71_000, ALL)
    expect(nextSecond).not.toBe(first)
    expect(decode(nextSecond)[1]?.uptime).toBe(61)

    const stopped = list.render(entries, [initialState("b")], 71_000, ALL)
    expect(decode(stopped)[1]).toMatchObject({ status: "stopped", pid: null, uptime: 0 })

    const renamed = list.render([entry("a", "Alpha renamed"), entries[1]!], [initialState("b")], 71_000, ALL)
    expect(decode(renamed).map((row) => row.name)).toEqual(["Alpha renamed", "Bravo"])

    expect(decode(list.render([entries[1]!], [initialState("b")], 71_000, ALL)).map((row) => row.id)).toEqual(["b"])
  })

  it("answers the one list envelope: every entry on the first page, no cursor, the total", () => {
    const body = envelope(makeServerListBody().render([entry("a", "Alpha"), entry("b", "Bravo")], [], 1_000, ALL))
    expect(body.items.map((row) => row.id)).toEqual(["a", "b"])
    expect(body.nextCursor).toBeNull()
    expect(body.total).toBe(2)
  })

  it("pages with limit and cursor in creation order, and resumes where a deleted entry stood", () => {
    const list = makeServerListBody()
    const entries = ["a", "b", "c", "d", "e"].map((id) => entry(id, id.toUpperCase()))
    const first = envelope(list.render(entries, [], 1_000, { after: undefined, limit: 2 }))
    expect(first.items.map((row) => row.id)).toEqual(["a", "b"])
    expect(first.total).toBe(5)
    const second = envelope(list.render(entries, [], 1_000, after(first.nextCursor, 2)))
    expect(second.items.map((row) => row.id)).toEqual(["c", "d"])
    const last = envelope(list.render(entries, [], 1_000, after(second.nextCursor, 2)))
    expect(last.items.map((row) => row.id)).toEqual(["e"])
    expect(last.nextCursor).toBeNull()

    // "b" ends the first page and is deleted before the next request: nothing is skipped or repeated.
    const withoutB = entries.filter((e) => e.id !== "b")
    expect(decode(list.render(withoutB, [], 1_000, after(first.nextCursor, 2))).map((row) => row.id)).toEqual(["c", "d"])
    // An entry added in between comes at the end, on a later page.
    const withF = [...entries, entry("f", "F")]
    expect(decode(list.render(withF, [], 1_000, after(second.nextCursor, 5))).map((row) => row.id)).toEqual(["e", "f"])
  })

  it("refuses cursors it did not issue", () => {
    expect(Option.isNone(serverCursor.decode("garbage"))).toBe(true)
    expect(Option.isNone(serverCursor.decode(Buffer.from('bans:{"id":"a","index":0}').toString("base64url")))).toBe(true)
    expect(Option.isNone(serverCursor.decode(Buffer.from('servers:{"id":"a","index":-1}').toString("base64url")))).toBe(true)
  })
})
