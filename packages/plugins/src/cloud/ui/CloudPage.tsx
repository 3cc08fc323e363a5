/**
 * The cloud link (admin): its state (disabled, connecting, connected,
 * backing off with the next attempt and the last error), enabling it with
 * the relay's link token and the role remote actions run with (a role
 * granting `admin` cannot be chosen), disabling it after a confirmation,
 * and every server with whether it is mirrored, its game status (what the
 * relay is sent) and connect, disconnect and reconnect.
 */
import { type ReactNode, useState } from "react"
import { api } from "@dashboard/api/client.js"
import { Link } from "@dashboard/app/router.js"
import { formatTime, Loaded, useResource } from "@dashboard/ui/data.js"
import { ActionButton, SubmitButton, useSubmit } from "@dashboard/ui/feedback.js"
import type { RoleView } from "../../accounts/contract/Api.js"
import type { CloudServer, CloudStatus, LinkState } from "../contract/Api.js"

const STATE_LABELS: Record<LinkState, string> = {
  disabled: "disabled",
  connecting: "connecting",
  connected: "connected",
  "backing-off": "backing off"
}

/** The badge's colour: the servers' status classes (running green, starting amber). */
const STATE_CLASSES: Record<LinkState, string> = {
  disabled: "",
  connecting: "status-starting",
  connected: "status-running",
  "backing-off": "status-starting"
}

/** What remote actions need (the cloud README's table). */
const REMOTE_PERMISSIONS = ["server.start", "server.stop", "server.restart", "players.kick", "chat.send"]

const grantsAdmin = (role: RoleView): boolean => role.permissions.some((grant) => grant === "admin")

/** The role's grants that remote actions use, in words. */
const roleBounds = (role: RoleView): string => {
  const used = role.permissions.flatMap((grant) =>
    typeof grant === "string"
      ? REMOTE_PERMISSIONS.includes(grant)
        ? [`${grant} on every server`]
        : []
      : REMOTE_PERMISSIONS.includes(grant.permission)
        ? [`${grant.permission} on ${grant.servers.length} server${grant.servers.length === 1 ? "" : "s"}`]
        : []
  )
  return used.length === 0 ? "no remote action (it grants none of their permissions): the relay only sees the mirrored servers" : used.join(", ")
}

const explanation = (status: CloudStatus): ReactNode => {
  if (!status.configured) {
    return (
      <>
        No relay is configured: set <code>CLOUD_RELAY_URL</code> on the controller and restart it to link it to the cloud. The servers to mirror can be
        chosen already.
      </>
    )
  }
  switch (status.state) {
    case "disabled":
      return (
        <>
          The link is off. Enable it with the link token the relay issued and a role: the controller then dials out to the relay, so nothing on this host
          has to accept connections from the internet.
        </>
      )
    case "connecting":
      return <>Connecting to the relay (attempt {status.attempt})…</>
    case "connected":
      return (
        <>
          Connected to the relay since <strong>{formatTime(status.since)}</strong>. The mirrored servers' status is sent to it, and it may ask the remote
          actions the role <strong>{status.role}</strong> allows.
        </>
      )
    case "backing-off":
      return (
        <>
          The relay could not be reached or ended the connection{status.lastError === null ? "" : <>: {status.lastError}</>}. The next attempt is at{" "}
          <strong>{formatTime(status.nextAttemptAt)}</strong> (attempt {status.attempt + 1}).
        </>
      )
  }
}

const LinkCard = ({ status, changed }: { readonly status: CloudStatus; readonly changed: (next: CloudStatus) => void }) => (
  <section className="card stack" aria-labelledby="link-state">
    <div className="row">
      <h2 id="link-state">
        Link <span className={`badge ${STATE_CLASSES[status.state]}`}>{STATE_LABELS[status.state]}</span>
      </h2>
      <div className="spacer" />
      {status.enabled && (
        <ActionButton
          className="danger"
          run={async () => changed(await api((c) => c.cloud.disable()))}
          confirm={{
            title: "Disable the cloud link?",
            body: (
              <p>
                The connection to the relay closes and the link token is forgotten: the relay can no longer see or act on any server. The mirrored servers
                are kept for the next time the link is enabled.
              </p>
            ),
            confirmLabel: "Disable",
            danger: true
          }}
          done="Cloud link disabled"
        >
          Disable link
        </ActionButton>
      )}
    </div>
    <p>{explanation(status)}</p>
    <dl className="kv">
      <dt>Relay</dt>
      <dd className="mono break-anywhere">{status.relay ?? "not configured"}</dd>
      <dt>Role</dt>
      <dd>{status.role ?? "—"}</dd>
      {status.enabledAt !== null && (
        <>
          <dt>Enabled</dt>
          <dd>{formatTime(status.enabledAt)}</dd>
        </>
      )}
      {status.since !== null && (
        <>
          <dt>State since</dt>
          <dd>{formatTime(status.since)}</dd>
        </>
      )}
      {status.nextAttemptAt !== null && (
        <>
          <dt>Next attempt</dt>
          <dd>{formatTime(status.nextAttemptAt)}</dd>
        </>
      )}
      <dt>Last connected</dt>
      <dd>{status.lastConnectedAt === null ? "never" : formatTime(status.lastConnectedAt)}</dd>
      {status.lastError !== null && (
        <>
          <dt>Last error</dt>
          <dd className="break-anywhere">{status.lastError}</dd>
        </>
      )}
    </dl>
  </section>
)

const EnableForm = ({ status, changed }: { readonly status: CloudStatus; readonly changed: (next: CloudStatus) => void }) => {
  const roles = useResource(() => api((c) => c.roles.list({ urlParams: { limit: 1000 } })), [])
  const eligible = (roles.data?.items ?? []).filter((role) => !grantsAdmin(role))
  const [token, setToken] = useState("")
  const [role, setRole] = useState(status.role ?? "")
  const chosen = eligible.find((r) => r.name === role)
  const enable = useSubmit(async () => {
    changed(await api((c) => c.cloud.enable({ payload: { token: token.trim(), role } })))
    setToken("")
  }, status.enabled ? "Cloud link updated" : "Cloud link enabled")
  return (
    <form className="card stack" onSubmit={enable.submit} aria-labelledby="enable-link">
      <h2 id="enable-link">{status.enabled ? "Change the token or role" : "Enable the link"}</h2>
      <p className="muted">
        The role bounds what the relay may do: remote start, stop and restart (<code>server.start</code>, <code>server.stop</code>,{" "}
        <code>server.restart</code>), kick (<code>players.kick</code>) and message (<code>chat.send</code>) run only where the role grants them, and the
        role is read again for every action. A role granting <code>admin</code> cannot be chosen; make one on the <Link to="/roles">Roles</Link> page.
      </p>
      <div className="grid">
        <label>
          Link token (from the relay)
          <input
            type="password"
            value={token}
            onChange={(e) => setToken(e.target.value)}
            autoComplete="off"
            spellCheck={false}
            minLength={16}
            maxLength={4096}
            required
          />
        </label>
        <label>
          Role
          <select value={role} onChange={(e) => setRole(e.target.value)} required aria-describedby="link-role-bounds">
            <option value="">Choose a role</option>
            {eligible.map((r) => (
              <option key={r.id} value={r.name}>
                {r.name}
              </option>
            ))}
          </select>
        </label>
      </div>
      <p id="link-role-bounds" className="muted">
        {roles.data === undefined
          ? "Reading the roles…"
          : eligible.length === 0
            ? "No role can be chosen: every role grants admin. Make one on the Roles page."
            : chosen === undefined
              ? "Choose the role remote actions run with."
              : `With ${chosen.name}, the relay may ask: ${roleBounds(chosen)}.`}
      </p>
      <div>
        <SubmitButton busy={enable.busy} busyLabel="Enabling">
          {status.enabled ? "Save and reconnect" : "Enable link"}
        </SubmitButton>
      </div>
    </form>
  )
}

interface Row {
  readonly id: string
  readonly name: string
  /** The game server's status as the servers API reports it (what the relay is sent); null for an entry that is gone. */
  readonly status: string | null
  readonly mirrored: CloudServer | undefined
}

const ServersSection = ({ status, changed }: { readonly status: CloudStatus; readonly changed: (next: CloudStatus) => void }) => {
  const servers = useResource(() => api((c) => c.servers.list({ urlParams: {} })), [], { pollMs: 5_000 })
  const mirroredById = new Map(status.servers.map((s) => [s.serverId, s]))
  const known = servers.data?.items ?? []
  const rows: ReadonlyArray<Row> = [
    ...known.map((s) => ({ id: s.id, name: s.name, status: s.status as string, mirrored: mirroredById.get(s.id) })),
    // Mirrored entries the list does not hold (deleted, unreadable).
    ...status.servers.filter((m) => !known.some((s) => s.id === m.serverId)).map((m) => ({ id: m.serverId, name: m.name ?? m.serverId, status: null, mirrored: m }))
  ]
  const run = (action: "connect" | "disconnect" | "reconnect", serverId: string) => async () =>
    changed(await api((c) => c.cloud[action]({ path: { serverId } })))
  return (
    <section className="stack" aria-labelledby="mirrored-servers">
      <h2 id="mirrored-servers">Servers</h2>
      <p className="muted">
        A mirrored server's status (running, stopped, players, map, version) is sent to the relay as it changes, and the relay may ask it the remote
        actions the link's role allows. The choice is kept while the link is off.
      </p>
      <Loaded resource={servers}>
        {() =>
          rows.length === 0 ? (
            <p className="notice">There are no servers yet.</p>
          ) : (
            <div className="table-wrap">
              <table>
                <caption className="sr-only">Servers and the cloud link</caption>
                <thead>
                  <tr>
                    <th scope="col">Server</th>
                    <th scope="col">Game status</th>
                    <th scope="col">Mirrored</th>
                    <th scope="col">
                      <span className="sr-only">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {rows.map((row) => (
                    <tr key={row.id}>
                      <td>
                        {row.name}
                        {row.status === null && <div className="muted">(entry gone)</div>}
                      </td>
                      <td>{row.status === null ? "—" : <span className={`badge status-${row.status}`}>{row.status}</span>}</td>
                      <td>
                        {row.mirrored === undefined
                          ? "no"
                          : status.state === "connected"
                            ? `mirrored since ${formatTime(row.mirrored.connectedAt)}`
                            : `chosen since ${formatTime(row.mirrored.connectedAt)}; sent when the link connects`}
                      </td>
                      <td>
                        <div className="row">
                          {row.mirrored === undefined ? (
                            row.status !== null && (
                              <ActionButton run={run("connect", row.id)} ariaLabel={`Connect ${row.name}`} done={`${row.name} connected to the cloud`}>
                                Connect
                              </ActionButton>
                            )
                          ) : (
                            <>
                              <ActionButton
                                run={run("reconnect", row.id)}
                                ariaLabel={`Reconnect ${row.name}`}
                                title="Announce the server to the relay again; while the link waits to reconnect, try now"
                                done={`${row.name} announced again`}
                              >
                                Reconnect
                              </ActionButton>
                              <ActionButton
                                run={run("disconnect", row.id)}
                                ariaLabel={`Disconnect ${row.name}`}
                                confirm={{
                                  title: `Disconnect ${row.name} from the cloud?`,
                                  body: <p>The relay stops receiving its status and can no longer act on it.</p>,
                                  confirmLabel: "Disconnect",
                                  danger: true
                                }}
                                done={`${row.name} disconnected from the cloud`}
                              >
                                Disconnect
                              </ActionButton>
                            </>
                          )}
                        </div>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )
        }
      </Loaded>
    </section>
  )
}

const CloudPage = () => {
  // Connecting and backing off move on their own: read the state every 3 s.
  const status = useResource(() => api((c) => c.cloud.status()), [], { pollMs: 3_000 })
  const changed = (next: CloudStatus) => status.set(() => next)
  return (
    <section className="stack">
      <h1>Cloud link</h1>
      <Loaded resource={status}>
        {(current) => (
          <>
            <LinkCard status={current} changed={changed} />
            {current.configured && <EnableForm status={current} changed={changed} />}
            <ServersSection status={current} changed={changed} />
          </>
        )}
      </Loaded>
    </section>
  )
}

export default CloudPage
