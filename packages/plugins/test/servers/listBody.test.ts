/**
 * The cached body of `GET /api/servers`: served again byte for byte while
 * nothing it shows has changed, rebuilt as soon as something has.
 */
import { describe, expect, it } from "@effect/vitest"
import { initialState, makeServerEntry, type ServerState } from "@garrison/runtime"
import { makeServerListBody } from "../../src/servers/internal/listBody.js"

const entry = (id: string, name: string) => makeServerEntry({ id, name, installDir: `/srv/${id}` })

const running = (serverId: string, startedAt: number): ServerState => ({
  ...initialState(serverId),
  status: "running",
  pid: 4242,
  startedAt
})

const decode = (body: Uint8Array) =>
  (JSON.parse(new TextDecoder().decode(body)) as { servers: Array<Record<string, unknown>> }).servers

describe("server list body", () => {
  it("serves the same bytes while entries, states and the second are unchanged", () => {
    const list = makeServerListBody()
    const entries = [entry("a", "Alpha"), entry("b", "Bravo")]
    const states = [running("b", 10_000)]
    const first = list.render(entries, states, 70_100)
    expect(list.render(entries, states, 70_900)).toBe(first)
    expect(decode(first)).toEqual([
      expect.objectContaining({ id: "a", name: "Alpha", status: "stopped", pid: null, uptime: 0 }),
      expect.objectContaining({ id: "b", name: "Bravo", status: "running", pid: 4242, uptime: 60 })
    ])
  })

  it("rebuilds when a second passes, a state changes or the entries change", () => {
    const list = makeServerListBody()
    const entries = [entry("a", "Alpha"), entry("b", "Bravo")]
    const states = [running("b", 10_000)]
    const first = list.render(entries, states, 70_100)

    const nextSecond = list.render(entries, states, 71_000)
    expect(nextSecond).not.toBe(first)
    expect(decode(nextSecond)[1]?.uptime).toBe(61)

    const stopped = list.render(entries, [initialState("b")], 71_000)
    expect(decode(stopped)[1]).toMatchObject({ status: "stopped", pid: null, uptime: 0 })

    const renamed = list.render([entry("a", "Alpha renamed"), entries[1]!], [initialState("b")], 71_000)
    expect(decode(renamed).map((row) => row.name)).toEqual(["Alpha renamed", "Bravo"])

    expect(decode(list.render([entries[1]!], [initialState("b")], 71_000)).map((row) => row.id)).toEqual(["b"])
  })
})
