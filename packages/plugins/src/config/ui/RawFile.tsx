/**
 * The file as its text (the passwords' values hidden, as the API answers
 * it), read-only: the settings are changed through the form, which rewrites
 * only their values. A plain text area: focusable and scrollable by
 * keyboard when read-only (the shared code editor's read-only mode is not),
 * and it keeps CodeMirror out of this tab. Below it, the settings Garrison
 * does not know, which it keeps as they are. The text itself (comments,
 * those other settings) is edited in the Files tab's editor, linked here.
 */
import { Link } from "@dashboard/app/router.js"
import type { ServerConfig } from "../contract/Api.js"

/** The Files tab with `file` (relative to the install folder) open in its editor. */
const filesTabAddress = (serverId: string, file: string) => {
  const slash = file.lastIndexOf("/")
  const query = new URLSearchParams({ ...(slash > 0 ? { path: file.slice(0, slash) } : {}), file })
  return `/servers/${encodeURIComponent(serverId)}/files?${query.toString()}`
}

export const RawFile = ({ config, serverId }: { readonly config: ServerConfig; readonly serverId: string }) => (
  <section className="stack" aria-labelledby="config-raw-title">
    <h2 id="config-raw-title">The file</h2>
    <p className="muted">
      Read-only here: the settings change through the form above, which rewrites only their values. To edit the text itself (comments, the
      settings below), <Link to={filesTabAddress(serverId, config.file)}>open {config.file} in the Files tab&apos;s editor</Link>.
    </p>
    <label htmlFor="config-raw-text">{config.file} as it is on the server (passwords hidden)</label>
    <textarea
      id="config-raw-text"
      className="config-raw"
      value={config.text}
      readOnly
      spellCheck={false}
      wrap="off"
      rows={Math.min(24, config.text.split("\n").length + 1)}
    />
    {config.unknown.length > 0 && (
      <div className="table-wrap">
        <table>
          <caption className="config-caption">Other settings in the file, kept as they are</caption>
          <thead>
            <tr>
              <th scope="col">Setting</th>
              <th scope="col">Value</th>
              <th scope="col">Line</th>
            </tr>
          </thead>
          <tbody>
            {config.unknown.map((setting) => (
              <tr key={`${setting.key}:${setting.line}`}>
                <td className="mono break-anywhere">{setting.key}</td>
                <td className="mono break-anywhere">{setting.value}</td>
                <td>{setting.line}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    )}
  </section>
)
