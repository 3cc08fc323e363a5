/**
 * One installed mod as a row of the load order: its names, workshop id,
 * type, version and size, what holds it back (disabled, pinned, an update
 * waiting, a rolled-back version), and for `mods.install` its controls.
 */
import { useState } from "react"
import { formatBytes, formatTime } from "@dashboard/ui/data.js"
import { ActionButton, useFeedback } from "@dashboard/ui/feedback.js"
import { type Mod, ModPatch, type ModJob, type ModType, TypeInput } from "../contract/Api.js"
import { modsApi } from "./client.js"
import { modLabel, TYPE_WORDS, versionText, workshopUrl } from "./words.js"

export interface RowActions {
  readonly serverId: string
  readonly canInstall: boolean
  /** The server is not stopped: updates and uninstalls wait (or go through a rollout). */
  readonly locked: boolean
  /** Another move runs: the order is being saved. */
  readonly moving: boolean
  readonly move: (mod: Mod, by: -1 | 1) => void
  /** The API's answer for this mod after a change. */
  readonly changed: (mod: Mod) => void
  readonly reload: () => Promise<void>
  readonly updating: (job: ModJob) => void
}

const LOCKED_TITLE = "The server is not stopped: stop it first, or roll the change out below"

const States = ({ mod }: { readonly mod: Mod }) => (
  <ul className="plain mod-states">
    {!mod.enabled && (
      <li>
        <span className="badge">disabled</span>
      </li>
    )}
    {mod.pinned && (
      <li>
        <span className="badge">pinned: keeps this version</span>
      </li>
    )}
    {mod.pendingUpdate !== null && (
      <li>
        <span className="badge status-updating">update available</span>{" "}
        <span className="muted">published {formatTime(mod.pendingUpdate.workshopUpdatedAt)}</span>
      </li>
    )}
    {mod.heldUpdate !== null && (
      <li>
        <span className="badge status-crashed">held back</span>{" "}
        <span className="muted">the version published {formatTime(mod.heldUpdate)} was rolled back; it is skipped until a newer one comes</span>
      </li>
    )}
    {mod.enabled && !mod.pinned && mod.pendingUpdate === null && mod.heldUpdate === null && <li className="muted">up to date</li>}
  </ul>
)

const TypeSelect = ({ mod, actions }: { readonly mod: Mod; readonly actions: RowActions }) => {
  const feedback = useFeedback()
  const [saving, setSaving] = useState(false)
  const change = async (type: ModType) => {
    setSaving(true)
    try {
      actions.changed(await modsApi((c) => c.mods.setType({ path: { id: actions.serverId, modName: mod.workshopId }, payload: new TypeInput({ type }) })))
      feedback.ok(`${modLabel(mod)} loads as a ${type} mod from the next start`)
    } catch (error) {
      feedback.error(error)
    } finally {
      setSaving(false)
    }
  }
  return (
    <select aria-label={`Type of ${modLabel(mod)}`} value={mod.type} disabled={saving} onChange={(e) => void change(e.target.value as ModType)}>
      {/* Short words: the column is narrow on a phone (the launch parameters below say which flag each makes). */}
      <option value="client">Client</option>
      <option value="server">Server</option>
    </select>
  )
}

const Controls = ({ mod, first, last, actions }: { readonly mod: Mod; readonly first: boolean; readonly last: boolean; readonly actions: RowActions }) => {
  const label = modLabel(mod)
  const patch = (payload: ModPatch) => async () =>
    actions.changed(await modsApi((c) => c.mods.update({ path: { id: actions.serverId, workshopId: mod.workshopId }, payload })))
  return (
    <div className="row mod-controls" role="group" aria-label={`Controls for ${label}`}>
      <button type="button" id={`mod-${mod.workshopId}-up`} disabled={first || actions.moving} onClick={() => actions.move(mod, -1)}>
        ↑ Up<span className="sr-only"> {label}</span>
      </button>
      <button type="button" id={`mod-${mod.workshopId}-down`} disabled={last || actions.moving} onClick={() => actions.move(mod, 1)}>
        ↓ Down<span className="sr-only"> {label}</span>
      </button>
      {mod.pendingUpdate !== null && !mod.pinned && (
        <ActionButton
          disabled={actions.locked}
          title={actions.locked ? LOCKED_TITLE : undefined}
          run={async () => actions.updating(await modsApi((c) => c.mods.updateOne({ path: { id: actions.serverId, workshopId: mod.workshopId } })))}
          done={`Update of ${label} started`}
        >
          Update<span className="sr-only"> {label}</span>
        </ActionButton>
      )}
      {mod.pendingUpdate !== null && (
        <ActionButton
          run={async () => {
            await modsApi((c) => c.mods.clearPending({ path: { id: actions.serverId, workshopId: mod.workshopId } }))
            await actions.reload()
          }}
          done={`The update of ${label} is forgotten until the next check`}
        >
          Forget update<span className="sr-only"> of {label}</span>
        </ActionButton>
      )}
      <ActionButton run={patch(new ModPatch({ enabled: !mod.enabled }))} done={`${label} ${mod.enabled ? "disabled" : "enabled"} from the next start`}>
        {mod.enabled ? "Disable" : "Enable"}
        <span className="sr-only"> {label}</span>
      </ActionButton>
      <ActionButton run={patch(new ModPatch({ pinned: !mod.pinned }))} done={mod.pinned ? `${label} is updated again` : `${label} keeps this version`}>
        {mod.pinned ? "Unpin" : "Pin"}
        <span className="sr-only"> {label}</span>
      </ActionButton>
      <ActionButton
        className="danger"
        disabled={actions.locked}
        title={actions.locked ? LOCKED_TITLE : undefined}
        run={async () => {
          await modsApi((c) => c.mods.uninstall({ path: { id: actions.serverId, workshopId: mod.workshopId } }))
          await actions.reload()
        }}
        confirm={{
          title: `Uninstall ${label}?`,
          body: (
            <>
              <p>
                The folder <span className="mono">{mod.name}</span> is removed from the server, with the keys no other mod of it uses.
              </p>
              <p>Players who still have it loaded cannot join until it is gone from their launcher too.</p>
            </>
          ),
          confirmLabel: "Uninstall",
          danger: true
        }}
        done={`${label} uninstalled`}
      >
        Uninstall<span className="sr-only"> {label}</span>
      </ActionButton>
    </div>
  )
}

export const ModRow = ({ mod, first, last, actions }: { readonly mod: Mod; readonly first: boolean; readonly last: boolean; readonly actions: RowActions }) => (
  <tr>
    <td>{mod.loadOrder}</td>
    <td>
      <strong>{modLabel(mod)}</strong>
      <div className="mono break-anywhere">{mod.name}</div>
      <div className="muted">
        Workshop id{" "}
        <a href={workshopUrl(mod.workshopId)} target="_blank" rel="noreferrer" className="mono">
          {mod.workshopId}
        </a>
      </div>
    </td>
    <td>{actions.canInstall ? <TypeSelect mod={mod} actions={actions} /> : TYPE_WORDS[mod.type]}</td>
    <td className="hide-narrow">
      <div>{versionText(mod)}</div>
      <div className="muted">
        {formatBytes(mod.sizeBytes)}, downloaded {formatTime(mod.downloadedAt)}
      </div>
    </td>
    <td>
      <States mod={mod} />
    </td>
    {actions.canInstall && (
      <td>
        <Controls mod={mod} first={first} last={last} actions={actions} />
      </td>
    )}
  </tr>
)
