/**
 * One server: its live status (polled), start / stop / restart / lock /
 * unlock, and tabs the plugins add (players, console, logs, scheduler, ...).
 */
import { Suspense } from "react"
import { api } from "@dashboard/api/client.js"
import { useServerTabs } from "@dashboard/app/extensions.js"
import { Link } from "@dashboard/app/router.js"
import { allowed, useSession } from "@dashboard/app/session.js"
import { Loaded, formatBytes, formatTime, formatUptime, useResource } from "@dashboard/ui/data.js"
import { ActionButton, Spinner } from "@dashboard/ui/feedback.js"
import { CopyField } from "@dashboard/ui/CopyField.js"
import type { ServerStatusView, ServerView } from "../contract/fields.js"
import { percent, StatusBadge } from "./shared.js"

const modList = (mods: ReadonlyArray<string>) => (mods.length === 0 ? "none" : mods.join(", "))

/**
 * Where the server is and what it runs (for those who may change the entry:
 * it names host folders). The connect address is this dashboard's host name
 * with the game port: what players type when the game server shares the host.
 */
const EntryFacts = ({ entry }: { readonly entry: ServerView }) => (
  <section className="card stack" aria-labelledby="entry-title">
    <h2 id="entry-title">Entry</h2>
    <CopyField label="Connect address" value={`${window.location.hostname}:${entry.gamePort}`} copiedMessage="Connect address copied" />
    <dl className="kv">
      <dt>Game port</dt>
      <dd>{entry.gamePort}</dd>
      <dt>RCON</dt>
      <dd>{entry.rcon === null ? "not set" : `${entry.rcon.protocol === "battleye" ? "BattlEye" : "Source"} on ${entry.rcon.host}:${entry.rcon.port}`}</dd>
      <dt>Install folder</dt>
      <dd className="mono">{entry.installDir}</dd>
      <dt>Config file</dt>
      <dd className="mono">{entry.configFile}</dd>
      <dt>Mods</dt>
      <dd>{modList(entry.mods)}</dd>
      <dt>Server mods</dt>
      <dd>{modList(entry.serverMods)}</dd>
      <dt>Agent</dt>
      <dd className={entry.agent === null ? undefined : "mono"}>{entry.agent?.url ?? "none: in-game actions are off"}</dd>
      <dt>Watchdog</dt>
      <dd>{entry.watchdog ? "on: restarts after a crash" : "off"}</dd>
    </dl>
  </section>
)

const Overview = ({ status, serverId, canReadEntry }: { readonly status: ServerStatusView; readonly serverId: string; readonly canReadEntry: boolean }) => (
  <div className="stack">
    <StatusFacts status={status} />
    {canReadEntry && <EntryOf serverId={serverId} />}
  </div>
)

const EntryOf = ({ serverId }: { readonly serverId: string }) => {
  const entry = useResource(() => api((c) => c.servers.get({ path: { id: serverId } })), [serverId])
  return <Loaded resource={entry}>{(e) => <EntryFacts entry={e} />}</Loaded>
}

const StatusFacts = ({ status }: { readonly status: ServerStatusView }) => (
  <dl className="kv card">
    <dt>State</dt>
    <dd>
      <StatusBadge status={status.status} /> {status.locked && <span className="badge">locked</span>}
    </dd>
    <dt>Players</dt>
    <dd>{status.playerCount}</dd>
    <dt>Uptime</dt>
    <dd>{formatUptime(status.uptime)}</dd>
    <dt>CPU</dt>
    <dd>{percent(status.cpu)}</dd>
    <dt>Memory</dt>
    <dd>{formatBytes(status.ram)}</dd>
    <dt>Map</dt>
    <dd>{status.map ?? "—"}</dd>
    <dt>Version</dt>
    <dd>{status.version ?? "—"}</dd>
    <dt>RCON</dt>
    <dd>{status.rconStatus ?? "—"}</dd>
    <dt>PID</dt>
    <dd>{status.pid ?? "—"}</dd>
    {status.consecutiveCrashes > 0 && (
      <>
        <dt>Crashes in a row</dt>
        <dd>{status.consecutiveCrashes}</dd>
      </>
    )}
    {status.lastError !== null && (
      <>
        <dt>Last error</dt>
        <dd className="mono">{status.lastError}</dd>
      </>
    )}
  </dl>
)

const ServerPage = ({ params }: { readonly params: Readonly<Record<string, string>> }) => {
  const id = params["id"]!
  const tabId = params["tab"] ?? "overview"
  const { me } = useSession()
  const can = (permission: string) => allowed(me, permission, id)
  const status = useResource(() => api((c) => c.servers.status({ path: { id } })), [id], { pollMs: 3000 })
  const tabs = useServerTabs().filter((tab) => tab.anyOf === undefined || tab.anyOf.some(can))
  const tab = tabs.find((t) => t.id === tabId)
  const act = (verb: "start" | "stop" | "restart" | "lock" | "unlock") => async () => {
    const next = await api((c) => c.servers[verb]({ path: { id } }))
    status.set(() => next)
  }

  return (
    <section>
      <p>
        <Link to="/servers">← Servers</Link>
      </p>
      <Loaded resource={status}>
        {(s) => (
          <>
            <div className="row">
              <h1>{s.name}</h1>
              <StatusBadge status={s.status} />
            </div>
            {s.operation !== null && (
              <div className="notice" role="status">
                <p>
                  {s.operation.kind} since {formatTime(s.operation.startedAt)}: {s.operation.message}
                </p>
                {s.operation.progress === null ? <Spinner label={s.operation.kind} /> : <progress value={s.operation.progress} max={1} aria-label={`${s.operation.kind} progress`} />}
              </div>
            )}
            <div className="row" role="toolbar" aria-label="Server controls">
              {can("server.start") && (
                <ActionButton className="primary" run={act("start")} disabled={s.status !== "stopped" && s.status !== "crashed"} done="Server started">
                  Start
                </ActionButton>
              )}
              {can("server.stop") && (
                <ActionButton
                  run={act("stop")}
                  disabled={s.status === "stopped"}
                  confirm={{ title: `Stop ${s.name}?`, body: `${s.playerCount} player(s) will be disconnected.`, confirmLabel: "Stop", danger: true }}
                  done="Server stopped"
                >
                  Stop
                </ActionButton>
              )}
              {can("server.restart") && (
                <ActionButton
                  run={act("restart")}
                  confirm={{ title: `Restart ${s.name}?`, body: `${s.playerCount} player(s) will be disconnected.`, confirmLabel: "Restart", danger: true }}
                  done="Server restarted"
                >
                  Restart
                </ActionButton>
              )}
              {can("server.rcon") &&
                (s.locked ? (
                  <ActionButton run={act("unlock")} disabled={s.status !== "running"} done="Server unlocked">
                    Unlock
                  </ActionButton>
                ) : (
                  <ActionButton run={act("lock")} disabled={s.status !== "running"} done="Server locked to new players">
                    Lock
                  </ActionButton>
                ))}
            </div>
            <nav className="tabs" aria-label="Server sections">
              <Link to={`/servers/${id}`} aria-current={tabId === "overview" ? "page" : undefined}>
                Overview
              </Link>
              {tabs.map((t) => (
                <Link key={t.id} to={`/servers/${id}/${t.id}`} aria-current={tabId === t.id ? "page" : undefined}>
                  {t.label}
                </Link>
              ))}
            </nav>
            {tabId === "overview" ? (
              <Overview status={s} serverId={id} canReadEntry={can("server.deploy")} />
            ) : tab === undefined ? (
              <p className="notice">No such section, or you may not open it.</p>
            ) : (
              <Suspense
                fallback={
                  <div className="loading">
                    <Spinner /> Loading…
                  </div>
                }
              >
                <tab.component serverId={id} />
              </Suspense>
            )}
          </>
        )}
      </Loaded>
    </section>
  )
}

export default ServerPage
