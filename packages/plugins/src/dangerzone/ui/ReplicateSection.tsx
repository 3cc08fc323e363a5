/**
 * A replicate into this server: another server the user may act on as the
 * source, the parts to copy, a preview of what would change (files and
 * sizes per part, what is left out, what this server keeps, what blocks it
 * or is worth knowing), then, with this server's name typed back and a last
 * confirmation, the copy itself and its result with the backup taken first.
 */
import { useEffect, useState } from "react"
import { api } from "@dashboard/api/client.js"
import { Link } from "@dashboard/app/router.js"
import { useCan } from "@dashboard/app/session.js"
import { formatBytes, Loaded, useResource } from "@dashboard/ui/data.js"
import { Spinner, SubmitButton, useSubmit } from "@dashboard/ui/feedback.js"
import { REPLICATE_COMPONENTS, ReplicateInput, type ReplicatePreview, ReplicatePreviewInput, type ReplicateResult } from "../contract/Api.js"
import { dangerzoneApi } from "./client.js"
import { DANGERZONE_PERMISSION } from "./permission.js"
import { RefusedNotice, type ServerFacts, TypedName, useDangerAction } from "./shared.js"
import { ComponentTable, COMPONENT_WORDS, type Component, Notes } from "./replicateParts.js"

const Planned = ({ plan }: { readonly plan: ReplicatePreview }) => (
  <section className="stack" aria-labelledby="dz-preview-title">
    <h3 id="dz-preview-title">
      Preview: from {plan.source.name} into {plan.target.name}
    </h3>
    {plan.blockers.length > 0 && <Notes kind="error" lead="It cannot go ahead now:" lines={plan.blockers} />}
    {plan.warnings.length > 0 && <Notes kind="warn" lead="Worth knowing:" lines={plan.warnings} />}
    <ComponentTable caption={`What would be copied from ${plan.source.name}`} components={plan.components} />
    <Notes lead={`${plan.target.name} keeps:`} lines={plan.kept} />
  </section>
)

const Replicated = ({ result }: { readonly result: ReplicateResult }) => {
  const files = result.components.reduce((sum, c) => sum + c.files, 0)
  const bytes = result.components.reduce((sum, c) => sum + c.bytes, 0)
  return (
    <div className="notice stack" role="status" aria-label="Replicate result">
      <p>
        Copied {files} file{files === 1 ? "" : "s"} ({formatBytes(bytes)}) from {result.source.name} into {result.target.name}:{" "}
        {result.components.map((c) => COMPONENT_WORDS[c.component].name.toLowerCase()).join(", ")}.
      </p>
      <ComponentTable caption={`What was copied from ${result.source.name}`} components={result.components} />
      {result.warnings.length > 0 && <Notes lead="Worth knowing:" lines={result.warnings} />}
      <p>
        A backup of {result.target.name} was taken first: <span className="mono break-anywhere">{result.backup}</span>. To undo the replicate, restore it from the{" "}
        <Link to={`/servers/${encodeURIComponent(result.target.id)}/backups`}>Backups tab</Link>.
      </p>
    </div>
  )
}

export const ReplicateSection = ({ server }: { readonly server: ServerFacts }) => {
  const can = useCan()
  const servers = useResource(() => api((c) => c.servers.list({ urlParams: {} })), [])
  const [sourceId, setSourceId] = useState("")
  const [parts, setParts] = useState<ReadonlySet<Component>>(new Set())
  const [preview, setPreview] = useState<{ readonly key: string; readonly plan: ReplicatePreview } | undefined>()
  const [typed, setTyped] = useState("")
  const [result, setResult] = useState<ReplicateResult | undefined>()
  const action = useDangerAction()
  useEffect(() => {
    setSourceId("")
    setParts(new Set())
    setPreview(undefined)
    setTyped("")
    setResult(undefined)
    action.clearRefusal()
  }, [server.id])
  // A refusal speaks of the server as it was (running, busy): once its state changes, it no longer holds.
  useEffect(() => action.clearRefusal(), [server.status])

  const components = REPLICATE_COMPONENTS.filter((c) => parts.has(c))
  // A preview stands for the choice it was made for; another choice needs its own.
  const choice = `${sourceId}|${components.join(",")}`
  const plan = preview?.key === choice ? preview.plan : undefined
  const previewing = useSubmit(async () => {
    const made = await dangerzoneApi((c) =>
      c.dangerzone.replicatePreview({ path: { id: server.id }, payload: new ReplicatePreviewInput({ sourceServerId: sourceId, components }) })
    )
    setPreview({ key: choice, plan: made })
    setResult(undefined)
  })
  const toggle = (component: Component, on: boolean) =>
    setParts((current) => {
      const next = new Set(current)
      if (on) next.add(component)
      else next.delete(component)
      return next
    })
  const ready = plan !== undefined && plan.blockers.length === 0 && typed === server.name && !action.busy

  return (
    <section className="card stack" aria-labelledby="dz-replicate-title">
      <h2 id="dz-replicate-title">Replicate from another server</h2>
      <p className="muted">
        Copies another server's files into {server.name}, overwriting its own. {server.name} must be stopped; a backup of its config, missions and profiles is taken
        first. Its saved game state is never copied.
      </p>
      <Loaded resource={servers}>
        {(page) => {
          // The source must be a server the user may act on too.
          const sources = page.items.filter((s) => s.id !== server.id && can(DANGERZONE_PERMISSION, s.id))
          if (sources.length === 0) return <p className="notice">There is no other server you may copy from.</p>
          return (
            <form className="stack" aria-label="Replicate preview" onSubmit={(e) => void previewing.submit(e)}>
              <label>
                Copy from
                <select value={sourceId} onChange={(e) => setSourceId(e.target.value)}>
                  <option value="">Pick a server…</option>
                  {sources.map((s) => (
                    <option key={s.id} value={s.id}>
                      {s.name} ({s.status})
                    </option>
                  ))}
                </select>
              </label>
              <fieldset>
                <legend>What to copy</legend>
                <ul className="plain stack">
                  {REPLICATE_COMPONENTS.map((component) => (
                    <li key={component}>
                      <label className="inline">
                        <input type="checkbox" checked={parts.has(component)} onChange={(e) => toggle(component, e.target.checked)} />
                        <span>
                          <strong>{COMPONENT_WORDS[component].name}</strong>: {COMPONENT_WORDS[component].what}
                        </span>
                      </label>
                    </li>
                  ))}
                </ul>
              </fieldset>
              <div className="row">
                <SubmitButton busy={previewing.busy} busyLabel="Previewing" disabled={sourceId === "" || components.length === 0}>
                  Preview
                </SubmitButton>
                {(sourceId === "" || components.length === 0) && <span className="muted">Pick a server and at least one part first.</span>}
              </div>
            </form>
          )
        }}
      </Loaded>
      {plan !== undefined && (
        <>
          <Planned plan={plan} />
          <TypedName name={server.name} value={typed} onChange={setTyped} />
          <div className="row">
            <button
              type="button"
              className="danger"
              disabled={!ready}
              aria-busy={action.busy}
              onClick={() =>
                void action.run(
                  {
                    title: `Replicate ${plan.source.name} into ${server.name}?`,
                    body: (
                      <>
                        <p>
                          {server.name}'s {components.map((c) => COMPONENT_WORDS[c].name.toLowerCase()).join(", ")} are overwritten with {plan.source.name}'s:{" "}
                          {plan.components.reduce((sum, c) => sum + c.files, 0)} files, {formatBytes(plan.components.reduce((sum, c) => sum + c.bytes, 0))}.
                        </p>
                        <p>A backup of {server.name} is taken first; restore it to undo the replicate.</p>
                      </>
                    ),
                    confirmLabel: "Replicate",
                    danger: true
                  },
                  async () => {
                    const done = await dangerzoneApi((c) =>
                      c.dangerzone.replicate({ path: { id: server.id }, payload: new ReplicateInput({ sourceServerId: sourceId, components, confirmName: typed }) })
                    )
                    setResult(done)
                    setPreview(undefined)
                    setTyped("")
                    return `${plan.source.name} replicated into ${server.name}`
                  }
                )
              }
            >
              {action.busy && <Spinner label="Replicating" />}
              Replicate into {server.name}
            </button>
          </div>
        </>
      )}
      <RefusedNotice what="replicate" refusal={action.refusal} />
      {result !== undefined && <Replicated result={result} />}
    </section>
  )
}
