/**
 * The pieces of the replicate section: each part's name and what it copies
 * in plain words, the per-part table of a preview or result, and a short
 * list of notes (blockers, warnings, what the target keeps).
 */
import { formatBytes } from "@dashboard/ui/data.js"
import type { ReplicateComponentPlan } from "../contract/Api.js"

export type Component = ReplicateComponentPlan["component"]

/** What each part is and copies (the contract's README, in a sentence each). */
export const COMPONENT_WORDS: Readonly<Record<Component, { readonly name: string; readonly what: string }>> = {
  config: { name: "Config", what: "the server config file; this server keeps its own hostname and instance id." },
  mpmissions: { name: "Missions", what: "the mpmissions folder (economy, types, init scripts), never the saved game state." },
  mods: { name: "Mods", what: "the source's mod and server-mod folders and its keys; this server then launches the same mods." },
  profiles: { name: "Profiles", what: "the profiles folder, without logs, BattlEye settings (RCon port and password) or ban and priority lists." }
}

/** How many left-out entries a part lists before "and N more". */
const SKIPPED_SHOWN = 20

const LeftOut = ({ skipped }: { readonly skipped: ReadonlyArray<string> }) =>
  skipped.length === 0 ? (
    <>nothing</>
  ) : (
    <details>
      <summary>{skipped.length} left out</summary>
      <ul className="plain">
        {skipped.slice(0, SKIPPED_SHOWN).map((line) => (
          <li key={line} className="break-anywhere">
            {line}
          </li>
        ))}
      </ul>
      {skipped.length > SKIPPED_SHOWN && <p className="muted">and {skipped.length - SKIPPED_SHOWN} more</p>}
    </details>
  )

export const ComponentTable = ({ caption, components }: { readonly caption: string; readonly components: ReadonlyArray<ReplicateComponentPlan> }) => (
  <div className="table-wrap">
    <table>
      <caption className="sr-only">{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Part</th>
          <th scope="col">Files</th>
          <th scope="col">Size</th>
          <th scope="col">Left out</th>
        </tr>
      </thead>
      <tbody>
        {components.map((c) => (
          <tr key={c.component}>
            <th scope="row">{COMPONENT_WORDS[c.component].name}</th>
            <td>{c.files}</td>
            <td>{formatBytes(c.bytes)}</td>
            <td>
              <LeftOut skipped={c.skipped} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  </div>
)

export const Notes = ({ lead, lines, kind }: { readonly lead: string; readonly lines: ReadonlyArray<string>; readonly kind?: "warn" | "error" }) => (
  <div className={kind === undefined ? undefined : `notice ${kind}`}>
    <p>{lead}</p>
    <ul>
      {lines.map((line) => (
        <li key={line}>{line}</li>
      ))}
    </ul>
  </div>
)
