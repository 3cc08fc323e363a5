/**
 * A server's entry: rename, ports, mods, launch arguments, RCON, agent,
 * watchdog; delete (when stopped). The form starts from the stored entry
 * (`GET /api/servers/:id`) and sends only what the user changed, so a field
 * left alone is never rewritten. Secrets come back masked: their inputs start
 * empty, and empty keeps the stored one. Where the server's RCON and agent
 * are is an admin's to change (the API refuses anyone else): those fields are
 * read-only for others, and say so.
 */
import { useState } from "react"
import { api } from "@dashboard/api/client.js"
import { allowed, useSession } from "@dashboard/app/session.js"
import { navigate } from "@dashboard/app/router.js"
import { Loaded, useResource } from "@dashboard/ui/data.js"
import { ActionButton, SubmitButton, useSubmit } from "@dashboard/ui/feedback.js"
import type { ServerView } from "../contract/fields.js"
import { ADMIN_ONLY } from "./shared.js"

/** The form's text, as the inputs hold it. */
interface FormValues {
  readonly name: string
  readonly gamePort: string
  readonly mods: string
  readonly serverMods: string
  readonly extraArgs: string
  readonly rconPort: string
  readonly agentUrl: string
  readonly watchdog: boolean
}

const listText = (items: ReadonlyArray<string>) => items.join(", ")
const listOf = (text: string) => text.split(",").map((m) => m.trim()).filter((m) => m !== "")
const argsOf = (text: string) => text.split(/\s+/).filter((a) => a !== "")

const valuesOf = (entry: ServerView): FormValues => ({
  name: entry.name,
  gamePort: String(entry.gamePort),
  mods: listText(entry.mods),
  serverMods: listText(entry.serverMods),
  extraArgs: entry.extraArgs.join(" "),
  rconPort: entry.rcon === null ? "" : String(entry.rcon.port),
  agentUrl: entry.agent?.url ?? "",
  watchdog: entry.watchdog
})

const sameList = (a: ReadonlyArray<string>, b: ReadonlyArray<string>) => a.length === b.length && a.every((item, i) => item === b[i])

/** The PATCH body: only the fields whose value differs from the stored entry (and secrets typed in). */
const changesOf = (entry: ServerView, form: FormValues, secrets: { readonly rconPassword: string; readonly agentKey: string; readonly removeAgent: boolean }) => {
  const before = valuesOf(entry)
  const rconPort = form.rconPort !== before.rconPort && form.rconPort !== "" ? { port: Number(form.rconPort) } : {}
  const rconPassword = secrets.rconPassword !== "" ? { password: secrets.rconPassword } : {}
  const agentChanged = form.agentUrl !== before.agentUrl || secrets.agentKey !== ""
  return {
    ...(form.name !== before.name ? { name: form.name } : {}),
    ...(form.gamePort !== before.gamePort ? { gamePort: Number(form.gamePort) } : {}),
    ...(!sameList(listOf(form.mods), entry.mods) ? { mods: listOf(form.mods) } : {}),
    ...(!sameList(listOf(form.serverMods), entry.serverMods) ? { serverMods: listOf(form.serverMods) } : {}),
    ...(!sameList(argsOf(form.extraArgs), entry.extraArgs) ? { extraArgs: argsOf(form.extraArgs) } : {}),
    ...(Object.keys(rconPort).length + Object.keys(rconPassword).length > 0 ? { rcon: { ...rconPort, ...rconPassword } } : {}),
    ...(secrets.removeAgent
      ? { agent: null }
      : agentChanged && form.agentUrl !== ""
        ? { agent: { url: form.agentUrl, ...(secrets.agentKey !== "" ? { apiKey: secrets.agentKey } : {}) } }
        : {}),
    ...(form.watchdog !== before.watchdog ? { watchdog: form.watchdog } : {})
  }
}

const EntryForm = ({ entry, saved }: { readonly entry: ServerView; readonly saved: (next: ServerView) => void }) => {
  const isAdmin = allowed(useSession().me, "admin")
  const [form, setForm] = useState<FormValues>(() => valuesOf(entry))
  const [rconPassword, setRconPassword] = useState("")
  const [agentKey, setAgentKey] = useState("")
  const [removeAgent, setRemoveAgent] = useState(false)
  const field = <K extends keyof FormValues>(key: K) => (value: FormValues[K]) => setForm((current) => ({ ...current, [key]: value }))
  const changes = changesOf(entry, form, { rconPassword, agentKey, removeAgent })
  const unchanged = Object.keys(changes).length === 0

  const save = useSubmit(async () => {
    const next = await api((c) => c.servers.update({ path: { id: entry.id }, payload: changes }))
    setRconPassword("")
    setAgentKey("")
    setRemoveAgent(false)
    saved(next)
  }, "Saved: applies at the next start")

  return (
    <form className="card stack" onSubmit={save.submit} aria-labelledby="settings-title">
      <h2 id="settings-title">Change the entry</h2>
      <p className="muted">Changes apply at the next start. Passwords and keys are never shown: leave them empty to keep the stored ones.</p>
      <div className="grid">
        <label>
          Name
          <input value={form.name} onChange={(e) => field("name")(e.target.value)} maxLength={100} required />
        </label>
        <label>
          Game port
          <input type="number" min={1} max={65535} value={form.gamePort} onChange={(e) => field("gamePort")(e.target.value)} required />
        </label>
        <label>
          Mods (comma-separated, in load order)
          <input value={form.mods} onChange={(e) => field("mods")(e.target.value)} />
        </label>
        <label>
          Server-side mods (comma-separated)
          <input value={form.serverMods} onChange={(e) => field("serverMods")(e.target.value)} />
        </label>
        <label>
          Extra arguments{isAdmin ? "" : " (values naming paths are an admin's)"}
          <input value={form.extraArgs} onChange={(e) => field("extraArgs")(e.target.value)} />
        </label>
        <label>
          RCON port{isAdmin ? "" : ` (${ADMIN_ONLY})`}
          <input type="number" min={1} max={65535} value={form.rconPort} onChange={(e) => field("rconPort")(e.target.value)} disabled={!isAdmin} />
        </label>
        <label>
          RCON password {entry.rcon?.password !== "" && entry.rcon !== null ? "(set; empty keeps it)" : "(not set)"}
          <input type="password" value={rconPassword} onChange={(e) => setRconPassword(e.target.value)} autoComplete="off" />
        </label>
        <label>
          Agent URL{isAdmin ? "" : ` (${ADMIN_ONLY})`}
          <input
            value={form.agentUrl}
            onChange={(e) => field("agentUrl")(e.target.value.trim())}
            placeholder="http://127.0.0.1:9100"
            disabled={!isAdmin || removeAgent}
          />
        </label>
        <label>
          Agent API key {entry.agent !== null && entry.agent.apiKey !== "" ? "(set; empty keeps it)" : "(not set)"}
          <input type="password" value={agentKey} onChange={(e) => setAgentKey(e.target.value)} autoComplete="off" disabled={removeAgent} />
        </label>
        {isAdmin && entry.agent !== null && (
          <label className="inline">
            <input type="checkbox" checked={removeAgent} onChange={(e) => setRemoveAgent(e.target.checked)} /> Remove the agent
          </label>
        )}
        <label className="inline">
          <input type="checkbox" checked={form.watchdog} onChange={(e) => field("watchdog")(e.target.checked)} /> Watchdog: restart after a crash
        </label>
      </div>
      <div className="row">
        <SubmitButton busy={save.busy} busyLabel="Saving" disabled={unchanged}>
          Save
        </SubmitButton>
        {!unchanged && (
          <button type="button" onClick={() => (setForm(valuesOf(entry)), setRconPassword(""), setAgentKey(""), setRemoveAgent(false))}>
            Undo changes
          </button>
        )}
      </div>
    </form>
  )
}

const SettingsTab = ({ serverId }: { readonly serverId: string }) => {
  const entry = useResource(() => api((c) => c.servers.get({ path: { id: serverId } })), [serverId])
  return (
    <div className="stack">
      <Loaded resource={entry}>{(e) => <EntryForm key={JSON.stringify(valuesOf(e))} entry={e} saved={(next) => entry.set(() => next)} />}</Loaded>
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
