/**
 * A server's entry: rename, ports, mods, launch arguments, watchdog; delete
 * (when stopped). Where the server's RCON and agent are is an admin's to
 * change (the API refuses anyone else): those fields are read-only for
 * others, and say so.
 */
import { useState } from "react"
import { api } from "@dashboard/api/client.js"
import { allowed, useSession } from "@dashboard/app/session.js"
import { ADMIN_ONLY } from "./shared.js"
import { navigate } from "@dashboard/app/router.js"
import { ActionButton, SubmitButton, useSubmit } from "@dashboard/ui/feedback.js"

const SettingsTab = ({ serverId }: { readonly serverId: string }) => {
  const isAdmin = allowed(useSession().me, "admin")
  const [name, setName] = useState("")
  const [gamePort, setGamePort] = useState("")
  const [mods, setMods] = useState("")
  const [extraArgs, setExtraArgs] = useState("")
  const [rconPort, setRconPort] = useState("")
  const [rconPassword, setRconPassword] = useState("")
  const [agentUrl, setAgentUrl] = useState("")
  const [agentKey, setAgentKey] = useState("")
  const [watchdog, setWatchdog] = useState<"" | "on" | "off">("")
  const save = useSubmit(async () => {
    await api((c) =>
      c.servers.update({
        path: { id: serverId },
        payload: {
          ...(name !== "" ? { name } : {}),
          ...(gamePort !== "" ? { gamePort: Number(gamePort) } : {}),
          ...(mods !== "" ? { mods: mods.split(",").map((m) => m.trim()).filter((m) => m !== "") } : {}),
          ...(extraArgs !== "" ? { extraArgs: extraArgs.split(/\s+/).filter((a) => a !== "") } : {}),
          ...(rconPort !== "" || rconPassword !== ""
            ? { rcon: { ...(rconPort !== "" ? { port: Number(rconPort) } : {}), ...(rconPassword !== "" ? { password: rconPassword } : {}) } }
            : {}),
          ...(agentUrl === "-" ? { agent: null } : agentUrl !== "" ? { agent: { url: agentUrl, ...(agentKey !== "" ? { apiKey: agentKey } : {}) } } : {}),
          ...(watchdog === "" ? {} : { watchdog: watchdog === "on" })
        }
      })
    )
  }, "Saved: applies at the next start")
  return (
    <div className="stack">
      <form className="card stack" onSubmit={save.submit} aria-labelledby="settings-title">
        <h2 id="settings-title">Change the entry</h2>
        <p className="muted">Only the fields you fill in change; changes apply at the next start.</p>
        <div className="grid">
          <label>
            Name
            <input value={name} onChange={(e) => setName(e.target.value)} maxLength={100} />
          </label>
          <label>
            Game port
            <input type="number" min={1} max={65535} value={gamePort} onChange={(e) => setGamePort(e.target.value)} />
          </label>
          <label>
            Mods (comma-separated, replaces the list)
            <input value={mods} onChange={(e) => setMods(e.target.value)} />
          </label>
          <label>
            Extra arguments (replaces the list{isAdmin ? "" : "; values naming paths are an admin's"})
            <input value={extraArgs} onChange={(e) => setExtraArgs(e.target.value)} />
          </label>
          <label>
            RCON port{isAdmin ? "" : ` (${ADMIN_ONLY})`}
            <input type="number" min={1} max={65535} value={rconPort} onChange={(e) => setRconPort(e.target.value)} disabled={!isAdmin} />
          </label>
          <label>
            RCON password
            <input type="password" value={rconPassword} onChange={(e) => setRconPassword(e.target.value)} autoComplete="off" />
          </label>
          <label>
            Agent URL (- removes the agent){isAdmin ? "" : ` (${ADMIN_ONLY})`}
            <input value={agentUrl} onChange={(e) => setAgentUrl(e.target.value.trim())} placeholder="http://127.0.0.1:9100" disabled={!isAdmin} />
          </label>
          <label>
            Agent API key
            <input type="password" value={agentKey} onChange={(e) => setAgentKey(e.target.value)} autoComplete="off" />
          </label>
          <label>
            Watchdog
            <select value={watchdog} onChange={(e) => setWatchdog(e.target.value as "" | "on" | "off")}>
              <option value="">Unchanged</option>
              <option value="on">On: restart after a crash</option>
              <option value="off">Off</option>
            </select>
          </label>
        </div>
        <div>
          <SubmitButton busy={save.busy} busyLabel="Saving">Save</SubmitButton>
        </div>
      </form>
      <section className="card stack" aria-labelledby="delete-title">
        <h2 id="delete-title">Delete this server entry</h2>
        <p>The server must be stopped. Its files stay on disk.</p>
        <div>
          <ActionButton
            className="danger"
            run={async () => {
              await api((c) => c.servers.remove({ path: { id: serverId } }))
              navigate("/servers")
            }}
            confirm={{ title: "Delete this server entry?", body: "The entry is removed; the install folder is kept.", confirmLabel: "Delete", danger: true }}
            done="Server entry deleted"
          >
            Delete entry
          </ActionButton>
        </div>
      </section>
    </div>
  )
}

export default SettingsTab
