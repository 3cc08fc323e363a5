/**
 * A wipe of the server's persistence: the presets the API lists (what each
 * deletes, its paths and size), one picked, the server's name typed back
 * before the button is enabled, a last confirmation, then what was removed
 * and the pre-wipe backup that undoes it. A refusal (the server runs, the
 * backup failed) shows the API's message beside the button.
 */
import { useEffect, useState } from "react"
import { Link } from "@dashboard/app/router.js"
import { formatBytes, Loaded, useResource } from "@dashboard/ui/data.js"
import { Spinner } from "@dashboard/ui/feedback.js"
import { WipeInput, type WipePreset, type WipeResult } from "../contract/Api.js"
import { dangerzoneApi } from "./client.js"
import { isUp, RefusedNotice, type ServerFacts, TypedName, useDangerAction } from "./shared.js"

type PresetId = WipePreset["id"]

/** A path as the section shows it: inside the persistence folder, which the section names once. */
const inStorage = (path: string, storage: string) => (path === storage ? "everything in the folder" : path.startsWith(`${storage}/`) ? path.slice(storage.length + 1) : path)

const PresetPaths = ({ preset, storage }: { readonly preset: WipePreset; readonly storage: string }) => (
  <ul className="plain dz-paths">
    {preset.paths.map((p) => (
      <li key={p.path}>
        <span className="mono break-anywhere">{inStorage(p.path, storage)}</span>{" "}
        <span className="muted">{p.exists ? formatBytes(p.sizeBytes) : "not there"}</span>
      </li>
    ))}
  </ul>
)

const Wiped = ({ result, preset, server }: { readonly result: WipeResult; readonly preset: string; readonly server: ServerFacts }) => (
  <div className="notice" role="status" aria-label="Wipe result">
    <p>
      {preset} wiped on {server.name}:{" "}
      {result.removed.length === 0
        ? "there was nothing to remove."
        : `removed ${result.removed.length} item${result.removed.length === 1 ? "" : "s"} from ${result.storage}, freed ${formatBytes(result.freedBytes)}.`}
    </p>
    {result.removed.length > 0 && (
      <ul aria-label={`Removed from ${result.storage}`}>
        {result.removed.map((r) => (
          <li key={r.path}>
            <span className="mono break-anywhere">{inStorage(r.path, result.storage)}</span> <span className="muted">{formatBytes(r.sizeBytes)}</span>
          </li>
        ))}
      </ul>
    )}
    <p>
      A backup was taken first: <span className="mono break-anywhere">{result.backup}</span>. To undo the wipe, restore it from the{" "}
      <Link to={`/servers/${encodeURIComponent(server.id)}/backups`}>Backups tab</Link> (with the server stopped).
    </p>
  </div>
)

export const WipeSection = ({ server }: { readonly server: ServerFacts }) => {
  const presets = useResource(() => dangerzoneApi((c) => c.dangerzone.wipePresets({ path: { id: server.id } })), [server.id])
  const [picked, setPicked] = useState<PresetId | undefined>()
  const [typed, setTyped] = useState("")
  const [result, setResult] = useState<{ readonly wipe: WipeResult; readonly preset: string } | undefined>()
  const action = useDangerAction()
  useEffect(() => {
    setPicked(undefined)
    setTyped("")
    setResult(undefined)
    action.clearRefusal()
  }, [server.id])
  // A refusal speaks of the server as it was (running, busy): once its state changes, it no longer holds.
  useEffect(() => action.clearRefusal(), [server.status])

  return (
    <section className="card stack" aria-labelledby="dz-wipe-title">
      <h2 id="dz-wipe-title">Wipe</h2>
      <p className="muted">
        Deletes the server's saved game state for a fresh start. The server must be stopped; a pre-wipe backup of its files is taken first, and a failed backup stops the
        wipe with nothing deleted.
      </p>
      {isUp(server.status) && (
        <p className="notice warn">
          {server.name} is {server.status}. Stop it first: a wipe of a server whose files are open is refused.
        </p>
      )}
      <Loaded resource={presets}>
        {(list) => {
          const preset = list.presets.find((p) => p.id === picked)
          const ready = preset !== undefined && typed === server.name && !action.busy
          return (
            <>
              <p>
                Saved in <span className="mono break-anywhere">{list.storage}</span>
              </p>
              <fieldset className="dz-choice">
                <legend>What to wipe</legend>
                <ul className="plain stack">
                  {list.presets.map((p) => (
                    <li key={p.id} className="stack">
                      <label className="inline">
                        <input type="radio" name={`wipe-preset-${server.id}`} value={p.id} checked={picked === p.id} disabled={!p.available} onChange={() => setPicked(p.id)} />
                        <span>
                          <strong>{p.name}</strong>: {p.description}. <span className="muted">{p.available ? `${formatBytes(p.sizeBytes)} to delete` : "Nothing to delete."}</span>
                        </span>
                      </label>
                      <PresetPaths preset={p} storage={list.storage} />
                    </li>
                  ))}
                </ul>
              </fieldset>
              <TypedName name={server.name} value={typed} onChange={setTyped} />
              <div className="row">
                <button
                  type="button"
                  className="danger"
                  disabled={!ready}
                  aria-busy={action.busy}
                  onClick={() => {
                    if (preset === undefined) return
                    void action.run(
                      {
                        title: `Wipe ${preset.name.toLowerCase()} on ${server.name}?`,
                        body: (
                          <>
                            <p>
                              {preset.description}: {formatBytes(preset.sizeBytes)} deleted.
                            </p>
                            <p>A pre-wipe backup is taken first; restore it to undo the wipe.</p>
                          </>
                        ),
                        confirmLabel: "Wipe",
                        danger: true
                      },
                      async () => {
                        const wipe = await dangerzoneApi((c) => c.dangerzone.wipe({ path: { id: server.id }, payload: new WipeInput({ preset: preset.id, confirmName: typed }) }))
                        setResult({ wipe, preset: preset.name })
                        setTyped("")
                        setPicked(undefined)
                        await presets.reload()
                        return `${preset.name} wiped: ${formatBytes(wipe.freedBytes)} freed`
                      }
                    )
                  }}
                >
                  {action.busy && <Spinner label="Wiping" />}
                  {preset === undefined ? "Wipe" : `Wipe ${preset.name.toLowerCase()}`}
                </button>
                {preset === undefined && <span className="muted">Pick what to wipe first.</span>}
              </div>
              <RefusedNotice what="wipe" refusal={action.refusal} />
              {result !== undefined && <Wiped result={result.wipe} preset={result.preset} server={server} />}
            </>
          )
        }}
      </Loaded>
    </section>
  )
}
