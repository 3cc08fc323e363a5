/** The one busy rule for changing a server's files (`filesBusy`), and `processUp`. */
import { describe, expect, it } from "vitest"
import { filesBusy, initialState, processUp, type ServerState } from "../../src/servers/ServerState.js"

const state = (patch: Partial<ServerState>): ServerState => ({ ...initialState("s1"), ...patch })
const operation = (kind: "restart" | "mod-rollout") => ({ kind, startedAt: 0, progress: undefined, message: "" })

describe("filesBusy", () => {
  it("busy while the process is up or an update writes, and while a long operation holds the server, but for that operation's own work", () => {
    expect(filesBusy(state({ status: "stopped" }))).toBeUndefined()
    expect(filesBusy(state({ status: "crashed" }))).toBeUndefined()
    for (const status of ["starting", "running", "stopping", "updating"] as const) expect(filesBusy(state({ status }))).toBe(`it is ${status}`)
    expect(filesBusy(state({ status: "stopped", operation: operation("restart") }))).toBe("its restart is under way")
    expect(filesBusy(state({ status: "stopped", operation: operation("mod-rollout") }), "mod-rollout")).toBeUndefined()
    expect(filesBusy(state({ status: "stopped", operation: operation("restart") }), "mod-rollout")).toBe("its restart is under way")
    // A rollout's own work still waits for the process to be down.
    expect(filesBusy(state({ status: "running", operation: operation("mod-rollout") }), "mod-rollout")).toBe("it is running")
  })

  it("processUp: starting, running and stopping", () => {
    expect((["stopped", "starting", "running", "stopping", "crashed", "updating"] as const).filter((status) => processUp(state({ status })))).toEqual([
      "starting",
      "running",
      "stopping"
    ])
  })
})
