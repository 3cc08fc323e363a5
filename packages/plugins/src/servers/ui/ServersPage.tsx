/**
 * The fleet: every server with its live state (polled every few seconds),
 * a virtualised list so 1,000 entries scroll smoothly, batch start / stop /
 * restart of the selected, and a form to add an entry.
 */
import { useMemo, useState } from "react"
import { api } from "@dashboard/api/client.js"
import { Link } from "@dashboard/app/router.js"
import { allowed, allowedAnywhere, useSession } from "@dashboard/app/session.js"
import { Loaded, formatBytes, useResource } from "@dashboard/ui/data.js"
import { ActionButton, Spinner, SubmitButton, useFeedback, useSubmit } from "@dashboard/ui/feedback.js"
import { VirtualList } from "@dashboard/ui/VirtualList.js"
import type { ServerSummaryView } from "../contract/fields.js"
import { ADMIN_ONLY, percent, StatusBadge } from "./shared.js"

const POLL_MS = 3000

const splitList = (text: string): Array<string> =>
  text
    .split(/[\n,;]/)
    .map((s) => s.trim())
    .filter((s) => s !== "")

const CreateServer = ({ created }: { readonly created: () => Promise<void> }) => {
  const isAdmin = allowed(useSession().me, "admin")
  const [open, setOpen] = useState(false)
  const [name, setName] = useState("")
  const [installDir, setInstallDir] = useState("")
  const [gamePort, setGamePort] = useState("")
  const [mods, setMods] = useState("")
  const [serverMods, setServerMods] = useState("")
  const [extraArgs, setExtraArgs] = useState("")
  const [rconPort, setRconPort] = useState("")
  const [rconPassword, setRconPassword] = useState("")
  const [agentUrl, setAgentUrl] = useState("")
  const [agentKey, setAgentKey] = useState("")
  const [watchdog, setWatchdog] = useState(true)
  const feedback = useFeedback()
  const detect = useSubmit(async () => {
    const found = await api((c) => c.servers.detect({ payload: { installDir } }))
    if (name === "") setName(found.entry.name)
    setGamePort(String(found.entry.gamePort))
    setMods(found.entry.mods.join(", "))
    setServerMods(found.entry.serverMods.join(", "))
    if (found.entry.rcon !== null) setRconPort(String(found.entry.rcon.port))
    for (const warning of found.warnings) feedback.error(warning)
  }, "Install read: check the fields")
  const create = useSubmit(async () => {
    await api((c) =>
      c.servers.create({
        payload: {
          name,
          installDir,
          ...(gamePort !== "" ? { gamePort: Number(gamePort) } : {}),
          ...(mods !== "" ? { mods: splitList(mods) } : {}),
          ...(serverMods !== "" ? { serverMods: splitList(serverMods) } : {}),
          ...(extraArgs !== "" ? { extraArgs: extraArgs.split(/\s+/).filter((s) => s !== "") } : {}),
          ...(rconPort !== "" || rconPassword !== ""
            ? { rcon: { ...(rconPort !== "" ? { port: Number(rconPort) } : {}), ...(rconPassword !== "" ? { password: rconPassword } : {}) } }
            : {}),
          ...(agentUrl !== "" ? { agent: { url: agentUrl, ...(agentKey !== "" ? { apiKey: agentKey } : {}) } } : {}),
          watchdog
        }
      })
    )
    setName("")
    setInstallDir("")
    setOpen(false)
    await created()
  }, "Server added")
  if (!open) {
    return (
      <button type="button" className="primary" onClick={() => setOpen(true)}>
        Add server
      </button>
    )
  }
  return (
    <form className="card stack" onSubmit={create.submit} aria-labelledby="add-server">
      <h2 id="add-server">Add a server</h2>
      <div className="grid">
        <label>
          Name
          <input name="name" value={name} onChange={(e) => setName(e.target.value)} required maxLength={100} />
        </label>
        <label>
          Install folder (absolute; holds the server binary{isAdmin ? "" : "; inside the servers folder the admin set"})
          <input name="installDir" value={installDir} onChange={(e) => setInstallDir(e.target.value)} required />
        </label>
        <label>
          Game port
          <input name="gamePort" type="number" min={1} max={65535} value={gamePort} onChange={(e) => setGamePort(e.target.value)} placeholder="2302" />
        </label>
        <label>
          Mods (comma-separated)
          <input value={mods} onChange={(e) => setMods(e.target.value)} placeholder="@CF, @Community-Online-Tools" />
        </label>
        <label>
          Server mods
          <input value={serverMods} onChange={(e) => setServerMods(e.target.value)} />
        </label>
        <label>
          Extra arguments
          <input value={extraArgs} onChange={(e) => setExtraArgs(e.target.value)} placeholder="-doLogs -adminLog" />
        </label>
        <label>
          RCON port (default: from the BattlEye config{isAdmin ? "" : `; ${ADMIN_ONLY}`})
          <input type="number" min={1} max={65535} value={rconPort} onChange={(e) => setRconPort(e.target.value)} disabled={!isAdmin} />
        </label>
        <label>
          RCON password (default: from the BattlEye config)
          <input type="password" value={rconPassword} onChange={(e) => setRconPassword(e.target.value)} autoComplete="off" />
        </label>
        <label>
          Agent URL (optional{isAdmin ? "" : `; ${ADMIN_ONLY}`})
          <input value={agentUrl} onChange={(e) => setAgentUrl(e.target.value)} placeholder="http://127.0.0.1:9100" disabled={!isAdmin} />
        </label>
        <label>
          Agent API key
          <input type="password" value={agentKey} onChange={(e) => setAgentKey(e.target.value)} autoComplete="off" />
        </label>
      </div>
      <label className="inline">
        <input type="checkbox" checked={watchdog} onChange={(e) => setWatchdog(e.target.checked)} /> Watchdog: restart the server when it crashes
      </label>
      <div className="row">
        <SubmitButton busy={create.busy} busyLabel="Adding">Add server</SubmitButton>
        <button type="button" disabled={detect.busy || installDir === ""} onClick={() => void detect.submit()}>
          {detect.busy && <Spinner label="Reading" />}Read the install
        </button>
        <button type="button" onClick={() => setOpen(false)}>
          Cancel
        </button>
      </div>
    </form>
  )
}

const ServersPage = () => {
  const { me } = useSession()
  const servers = useResource(() => api((c) => c.servers.list({ urlParams: {} })), [], { pollMs: POLL_MS })
  const [filter, setFilter] = useState("")
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set())
  const feedback = useFeedback()
  const items = useMemo(() => {
    const all = servers.data?.items ?? []
    const needle = filter.trim().toLowerCase()
    return needle === "" ? all : all.filter((s) => s.name.toLowerCase().includes(needle) || s.status.includes(needle) || (s.map ?? "").toLowerCase().includes(needle))
  }, [servers.data, filter])
  const canDeploy = allowed(me, "server.deploy")

  const batch = async (action: "start" | "stop" | "restart") => {
    const ids = [...selected]
    const reply = await api((c) => c.servers.batch({ payload: { action, ids } }))
    const failed = reply.results.filter((r) => !r.ok)
    if (failed.length > 0) feedback.error(`${failed.length} of ${ids.length} failed: ${failed.map((f) => f.message ?? f.error ?? f.status).join("; ")}`)
    else feedback.ok(`${action}: ${ids.length} server${ids.length === 1 ? "" : "s"}`)
    await servers.reload()
  }

  const toggle = (id: string) =>
    setSelected((current) => {
      const next = new Set(current)
      if (next.has(id)) next.delete(id)
      else next.add(id)
      return next
    })

  return (
    <section className="stack">
      <div className="row">
        <h1>Servers</h1>
        <div className="spacer" />
        {canDeploy && <CreateServer created={servers.reload} />}
      </div>
      <div className="row">
        <label className="grow">
          <span className="sr-only">Filter servers</span>
          <input type="search" placeholder="Filter by name, state or map" value={filter} onChange={(e) => setFilter(e.target.value)} />
        </label>
        {canDeploy && (
          <>
            <span className="muted">{selected.size} selected</span>
            <ActionButton run={() => batch("start")} disabled={selected.size === 0}>
              Start
            </ActionButton>
            <ActionButton
              run={() => batch("stop")}
              disabled={selected.size === 0}
              confirm={{ title: `Stop ${selected.size} server(s)?`, body: "Players on them are disconnected.", confirmLabel: "Stop", danger: true }}
            >
              Stop
            </ActionButton>
            <ActionButton
              run={() => batch("restart")}
              disabled={selected.size === 0}
              confirm={{ title: `Restart ${selected.size} server(s)?`, body: "Players on them are disconnected.", confirmLabel: "Restart", danger: true }}
            >
              Restart
            </ActionButton>
          </>
        )}
      </div>
      <Loaded resource={servers}>
        {(page) =>
          page.total === 0 ? (
            <p className="notice">{allowedAnywhere(me, "server.deploy") ? "No servers yet: add one." : "No servers you may see."}</p>
          ) : (
            <div>
              <div className="server-row list-head">
                <span>
                  {canDeploy && (
                    <input
                      type="checkbox"
                      aria-label="Select all shown"
                      checked={items.length > 0 && items.every((s) => selected.has(s.id))}
                      onChange={(e) => setSelected(e.target.checked ? new Set(items.map((s) => s.id)) : new Set())}
                    />
                  )}
                </span>
                <span>Name</span>
                <span>State</span>
                <span>Players</span>
                <span className="wide">CPU</span>
                <span className="wide">Memory</span>
              </div>
              <VirtualList
                label={`Servers (${items.length} of ${page.total})`}
                items={items}
                rowHeight={44}
                height={`min(${items.length * 44 + 2}px, 65vh)`}
                rowKey={(s: ServerSummaryView) => s.id}
                renderRow={(server: ServerSummaryView) => (
                  <div className="server-row">
                    <span>
                      {canDeploy && <input type="checkbox" aria-label={`Select ${server.name}`} checked={selected.has(server.id)} onChange={() => toggle(server.id)} />}
                    </span>
                    <span className="name">
                      <Link to={`/servers/${server.id}`}>{server.name}</Link>
                      {server.locked && <span className="badge"> locked</span>}
                    </span>
                    <span title={server.operation?.message ?? server.lastError ?? undefined}>
                      <StatusBadge status={server.status} />
                    </span>
                    <span>{server.playerCount}</span>
                    <span className="wide">{percent(server.cpu)}</span>
                    <span className="wide">{formatBytes(server.ram)}</span>
                  </div>
                )}
              />
              <p className="muted">
                {items.length} of {page.total} servers · refreshed every {POLL_MS / 1000} s
              </p>
            </div>
          )
        }
      </Loaded>
    </section>
  )
}

export default ServersPage
