/**
 * A server's Updates tab: what SteamCMD installed (app and build), the
 * last update's outcome, and the running one's progress, live. With
 * `server.deploy` on the server: "Update game files", "Rebuild" (every file
 * checked again; after a confirmation) and, while one runs, "Cancel"
 * (after a confirmation). Others see the status only.
 */
import { useEffect } from "react"
import { api } from "@dashboard/api/client.js"
import { allowed, useSession } from "@dashboard/app/session.js"
import { formatTime, useResource } from "@dashboard/ui/data.js"
import { ActionButton, messageOf, Spinner } from "@dashboard/ui/feedback.js"
import { DEPLOY_PERMISSION } from "../contract/Api.js"
import { updatesApi, type UpdateStatusView } from "./client.js"
import { UpdateProgress } from "./UpdateProgress.js"
import { useUpdateFollow } from "./useUpdateFollow.js"
import { appLabel } from "./words.js"

/** The server's state matters here only for whether SteamCMD may write its files (it must be stopped). */
const SERVER_POLL_MS = 3_000
const STOPPED = new Set(["stopped", "crashed"])

/** Why SteamCMD may not write the server's files now (undefined: it may). */
const whyBlocked = (serverState: string | undefined): string | undefined => {
  if (serverState === undefined) return "Reading the server's state"
  if (STOPPED.has(serverState)) return undefined
  if (serverState === "updating") return "The server is busy with another operation: wait until it ends"
  return "Stop the server first: SteamCMD cannot replace the files of a running server"
}

const Installed = ({ status }: { readonly status: UpdateStatusView }) => (
  <dl className="kv card">
    <dt>Installed</dt>
    <dd>{appLabel(status.appId)}</dd>
    <dt>Build</dt>
    <dd>{status.buildId ?? "—"}</dd>
    <dt>Last update</dt>
    <dd>
      {status.state === "idle"
        ? "none since the controller started"
        : status.state === "running"
          ? `running since ${formatTime(status.startedAt)}`
          : `${status.state === "done" ? "finished" : status.state} ${formatTime(status.endedAt)}`}
    </dd>
  </dl>
)

const Controls = ({
  serverId,
  serverName,
  serverState,
  status,
  accept
}: {
  readonly serverId: string
  readonly serverName: string
  readonly serverState: string | undefined
  readonly status: UpdateStatusView
  readonly accept: (status: UpdateStatusView) => void
}) => {
  const running = status.state === "running"
  const blocked = running ? "An update is running" : whyBlocked(serverState)
  const start = (kind: "update" | "rebuild") => async () =>
    accept(await updatesApi((c) => (kind === "update" ? c.serverUpdates.update({ path: { id: serverId } }) : c.serverUpdates.rebuild({ path: { id: serverId } }))))
  return (
    <div className="stack">
      <div className="row" role="toolbar" aria-label="Update controls">
        <ActionButton className="primary" run={start("update")} disabled={blocked !== undefined} title={blocked} done="Update started">
          Update game files
        </ActionButton>
        <ActionButton
          run={start("rebuild")}
          disabled={blocked !== undefined}
          title={blocked}
          done="Rebuild started"
          confirm={{
            title: `Rebuild ${serverName}?`,
            body: (
              <>
                <p>
                  SteamCMD checks every file of the game server against Steam&apos;s copy and downloads again whatever is missing or changed. It takes
                  longer than an update: every file is read.
                </p>
                <p>
                  Game files changed by hand, such as serverDZ.cfg or the mission&apos;s files edited in place, are put back as Steam ships them. Files Steam does
                  not ship (mods, profiles, logs) are left alone.
                </p>
                <p>The server cannot start until the rebuild ends.</p>
              </>
            ),
            confirmLabel: "Rebuild",
            danger: true
          }}
        >
          Rebuild…
        </ActionButton>
        {running && (
          <ActionButton
            className="danger"
            run={async () => accept(await updatesApi((c) => c.serverUpdates.cancel({ path: { id: serverId } })))}
            done="Update cancelled"
            confirm={{
              title: `Cancel the ${status.kind ?? "update"} of ${serverName}?`,
              body: "SteamCMD is stopped and the server stays stopped. What it downloaded so far is kept: the next update continues from there.",
              confirmLabel: "Cancel it",
              danger: true
            }}
          >
            Cancel
          </ActionButton>
        )}
      </div>
      {blocked !== undefined && !running && serverState !== undefined && <p className="muted">{blocked}.</p>}
    </div>
  )
}

const UpdatesTab = ({ serverId }: { readonly serverId: string }) => {
  const { me } = useSession()
  const canUpdate = allowed(me, DEPLOY_PERMISSION, serverId)
  const server = useResource(() => api((c) => c.servers.status({ path: { id: serverId } })), [serverId], { pollMs: SERVER_POLL_MS })
  const { status, error, log, stream, accept } = useUpdateFollow(serverId)
  // An update holds the server (`updating`) while it runs: its state is read again when the update starts or ends.
  useEffect(() => {
    if (status !== undefined) void server.reload()
  }, [status?.state])

  if (status === undefined) {
    return error === undefined ? (
      <div className="loading">
        <Spinner /> Loading…
      </div>
    ) : (
      <p className="notice error" role="alert">
        {messageOf(error)}
      </p>
    )
  }
  return (
    <div className="stack">
      {error !== undefined && (
        <p className="notice warn" role="alert">
          {messageOf(error)}
        </p>
      )}
      <Installed status={status} />
      {canUpdate && (
        <Controls serverId={serverId} serverName={server.data?.name ?? "this server"} serverState={server.data?.status} status={status} accept={accept} />
      )}
      {status.state !== "idle" && <UpdateProgress status={status} log={log} stream={stream} />}
      <p className="muted">
        Updates and rebuilds download through SteamCMD with the Steam account set on the SteamCMD page. A rollout updates a running server safely (it stops and
        starts it around the update).
      </p>
    </div>
  )
}

export default UpdatesTab
