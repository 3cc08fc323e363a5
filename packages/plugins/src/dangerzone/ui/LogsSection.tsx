/**
 * The server's log files by category (engine, admin, script, crash,
 * BattlEye) with their counts and sizes, each category's files on demand,
 * and the selected categories cleared after a confirmation, with what was
 * freed and which files a running server kept.
 */
import { useEffect, useState } from "react"
import { formatBytes, formatTime, Loaded, useResource } from "@dashboard/ui/data.js"
import { ActionButton, useFeedback } from "@dashboard/ui/feedback.js"
import { ClearLogsInput, type LogCategory, type LogsCleared } from "../contract/Api.js"
import { dangerzoneApi } from "./client.js"
import { isUp, type ServerFacts } from "./shared.js"

type CategoryId = LogCategory["id"]

/** How many of a category's files its list shows (the newest); the counts and sizes cover them all. */
const FILES_SHOWN = 50

const plural = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`

const Files = ({ category }: { readonly category: LogCategory }) => (
  <details>
    <summary>
      {category.name}: {plural(category.fileCount, "file")}
    </summary>
    <ul className="plain stack dz-files">
      {category.files.slice(0, FILES_SHOWN).map((file) => (
        <li key={file.path}>
          <span className="mono break-anywhere">{file.path}</span>{" "}
          <span className="muted">
            {formatBytes(file.size)}, written {formatTime(file.modified)}
          </span>
        </li>
      ))}
    </ul>
    {category.fileCount > FILES_SHOWN && <p className="muted">The newest {FILES_SHOWN} of {category.fileCount} files.</p>}
  </details>
)

const Cleared = ({ result }: { readonly result: LogsCleared }) => (
  <div className="notice" role="status" aria-label="Logs cleared">
    <p>
      Removed {plural(result.removedFiles, "file")}, freed {formatBytes(result.freedBytes)}.
    </p>
    {result.kept.length > 0 && (
      <>
        <p>Kept {plural(result.kept.length, "file")} the running server is writing now:</p>
        <ul>
          {result.kept.map((path) => (
            <li key={path} className="mono break-anywhere">
              {path}
            </li>
          ))}
        </ul>
      </>
    )}
  </div>
)

export const LogsSection = ({ server }: { readonly server: ServerFacts }) => {
  const feedback = useFeedback()
  const scan = useResource(() => dangerzoneApi((c) => c.dangerzone.logsScan({ path: { id: server.id } })), [server.id])
  const [selected, setSelected] = useState<ReadonlySet<CategoryId>>(new Set())
  const [cleared, setCleared] = useState<LogsCleared | undefined>()
  useEffect(() => {
    setSelected(new Set())
    setCleared(undefined)
  }, [server.id])

  const toggle = (id: CategoryId, on: boolean) =>
    setSelected((current) => {
      const next = new Set(current)
      if (on) next.add(id)
      else next.delete(id)
      return next
    })

  return (
    <section className="card stack" aria-labelledby="dz-logs-title">
      <h2 id="dz-logs-title">Log files</h2>
      <p className="muted">The logs the server leaves in its profiles folder. Clearing them frees disk space; they cannot be brought back.</p>
      <Loaded resource={scan}>
        {(found) => {
          const chosen = found.categories.filter((c) => selected.has(c.id) && c.fileCount > 0)
          const chosenFiles = chosen.reduce((sum, c) => sum + c.fileCount, 0)
          const chosenBytes = chosen.reduce((sum, c) => sum + c.sizeBytes, 0)
          return (
            <>
              <div className="table-wrap">
                <table>
                  <caption className="sr-only">Log files by category</caption>
                  <thead>
                    <tr>
                      <th scope="col">
                        <span className="sr-only">Select</span>
                      </th>
                      <th scope="col">Category</th>
                      <th scope="col">Files</th>
                      <th scope="col">Size</th>
                      <th scope="col" className="hide-narrow">
                        Newest
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {found.categories.map((category) => (
                      <tr key={category.id}>
                        <td>
                          <input
                            type="checkbox"
                            aria-label={`Select ${category.name}`}
                            checked={selected.has(category.id)}
                            disabled={category.fileCount === 0}
                            onChange={(e) => toggle(category.id, e.target.checked)}
                          />
                        </td>
                        <th scope="row">{category.name}</th>
                        <td>{category.fileCount}</td>
                        <td>{formatBytes(category.sizeBytes)}</td>
                        <td className="hide-narrow">{category.files[0] === undefined ? "—" : formatTime(category.files[0].modified)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
              <p>
                In all: {plural(found.totalFiles, "file")}, {formatBytes(found.totalBytes)}.
              </p>
              {found.categories.some((c) => c.fileCount > 0) && (
                <div className="stack">
                  {found.categories
                    .filter((c) => c.fileCount > 0)
                    .map((category) => (
                      <Files key={category.id} category={category} />
                    ))}
                </div>
              )}
              <div className="row" role="toolbar" aria-label="Log file controls">
                <ActionButton run={() => scan.reload()}>Scan again</ActionButton>
                <ActionButton
                  className="danger"
                  disabled={chosen.length === 0}
                  title={chosen.length === 0 ? "Select the categories to clear first" : undefined}
                  confirm={{
                    title: `Delete ${plural(chosenFiles, "log file")} of ${server.name}?`,
                    body: (
                      <>
                        <p>
                          {chosen.map((c) => c.name).join(", ")}: {formatBytes(chosenBytes)}. They are deleted for good.
                        </p>
                        {isUp(server.status) && <p>The server is {server.status}: the files it is writing now are kept.</p>}
                      </>
                    ),
                    confirmLabel: "Delete",
                    danger: true
                  }}
                  run={async () => {
                    const result = await dangerzoneApi((c) => c.dangerzone.clearLogs({ path: { id: server.id }, payload: new ClearLogsInput({ categories: chosen.map((c) => c.id) }) }))
                    setCleared(result)
                    setSelected(new Set())
                    feedback.ok(`Freed ${formatBytes(result.freedBytes)}`)
                    await scan.reload()
                  }}
                >
                  Clear selected logs
                </ActionButton>
              </div>
              {cleared !== undefined && <Cleared result={cleared} />}
            </>
          )
        }}
      </Loaded>
    </section>
  )
}
