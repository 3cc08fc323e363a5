/** Log files of a server (RPT, ADM, ...): pick one, read its last lines, search them, read older lines. */
import { useMemo, useState } from "react"
import { api } from "@dashboard/api/client.js"
import { formatBytes, formatTime, Loaded, useResource } from "@dashboard/ui/data.js"
import { ActionButton } from "@dashboard/ui/feedback.js"

const TAIL_STEPS = [500, 2000, 5000]

const highlight = (line: string, needle: string) => {
  if (needle === "") return line
  const at = line.toLowerCase().indexOf(needle.toLowerCase())
  if (at < 0) return line
  return (
    <>
      {line.slice(0, at)}
      <mark>{line.slice(at, at + needle.length)}</mark>
      {line.slice(at + needle.length)}
    </>
  )
}

const LogsTab = ({ serverId }: { readonly serverId: string }) => {
  const files = useResource(() => api((c) => c.logs.logs({ path: { id: serverId }, urlParams: {} })), [serverId])
  const [file, setFile] = useState<string | undefined>()
  const [tail, setTail] = useState(TAIL_STEPS[0]!)
  const [search, setSearch] = useState("")
  const [follow, setFollow] = useState(false)
  const content = useResource(
    () =>
      file === undefined
        ? Promise.resolve(undefined)
        : api((c) => c.logs.logs({ path: { id: serverId }, urlParams: { file, tail } })).then((reply) => ("lines" in reply ? reply : undefined)),
    [serverId, file, tail, follow],
    follow ? { pollMs: 3000 } : {}
  )
  const lines = useMemo(() => {
    const all = content.data?.lines ?? []
    const needle = search.trim().toLowerCase()
    return needle === "" ? all : all.filter((line) => line.toLowerCase().includes(needle))
  }, [content.data, search])

  return (
    <div className="stack">
      <Loaded resource={files}>
        {(page) =>
          "items" in page && page.items.length > 0 ? (
            <div className="row">
              <label>
                Log file
                <select value={file ?? ""} onChange={(e) => (setFile(e.target.value === "" ? undefined : e.target.value), setTail(TAIL_STEPS[0]!))}>
                  <option value="">Choose a file…</option>
                  {page.items.map((f) => (
                    <option key={f.name} value={f.name}>
                      {f.name} ({f.kind}, {formatBytes(f.size)}, {formatTime(f.modified)})
                    </option>
                  ))}
                </select>
              </label>
              <label className="grow">
                Search
                <input type="search" value={search} onChange={(e) => setSearch(e.target.value)} placeholder="Text in the lines shown" />
              </label>
              <label className="inline">
                <input type="checkbox" checked={follow} onChange={(e) => setFollow(e.target.checked)} /> Follow
              </label>
              <ActionButton run={() => files.reload()}>Refresh list</ActionButton>
            </div>
          ) : (
            <p className="notice">No log files yet.</p>
          )
        }
      </Loaded>
      {file !== undefined && (
        <Loaded resource={content}>
          {(tailed) =>
            tailed === undefined ? null : (
              <>
                <p className="muted" role="status">
                  {search.trim() === "" ? `Last ${tailed.lines.length} lines` : `${lines.length} of the last ${tailed.lines.length} lines match`} of {tailed.file} ({formatBytes(tailed.size)})
                  {tailed.truncated ? " · the scan stopped at its byte limit" : ""}
                </p>
                <pre className="log-view" tabIndex={0} aria-label={`Lines of ${tailed.file}`}>
                  {lines.map((line, i) => (
                    <div key={i}>{highlight(line, search.trim())}</div>
                  ))}
                </pre>
                {tail < TAIL_STEPS[TAIL_STEPS.length - 1]! && tailed.lines.length >= tail && (
                  <button type="button" onClick={() => setTail(TAIL_STEPS[TAIL_STEPS.indexOf(tail) + 1]!)}>
                    Load older lines
                  </button>
                )}
              </>
            )
          }
        </Loaded>
      )}
    </div>
  )
}

export default LogsTab
