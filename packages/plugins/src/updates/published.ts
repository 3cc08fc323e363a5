/** The updates plugin's bus events as the outside sees them (webhooks, the cloud link). */
import { oneLine, published } from "@garrison/runtime"
import { ServerUpdated, ServerUpdateFailed } from "./events.js"

export const DONE = { update: "updated", rebuild: "rebuilt (files validated)", deploy: "installed" } as const

export const UPDATE_EVENTS = [
  published(ServerUpdated, {
    name: "server.updated",
    description:
      "SteamCMD updated, rebuilt (validated) or first installed (deploy) a server's game files; `buildId` is the Steam build now installed.",
    example: new ServerUpdated({ serverId: "a1b2c3", name: "Main", kind: "update", appId: "223350", buildId: "17428731", by: "alice" }),
    severity: "success",
    summary: (e) => `Server ${e.name} ${DONE[e.kind]}${e.buildId === null ? "" : ` (build ${e.buildId})`}`
  }),
  published(ServerUpdateFailed, {
    name: "server.update-failed",
    description: "A server's game update, rebuild or deploy through SteamCMD failed (or its pre-update backup did); `error` says why.",
    example: new ServerUpdateFailed({ serverId: "a1b2c3", name: "Main", kind: "update", error: "not enough disk space for the server's files" }),
    severity: "error",
    summary: (e) => `Server ${e.name}: the ${e.kind} failed: ${oneLine(e.error, 300)}`
  })
]
