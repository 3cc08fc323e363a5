/**
 * A server's backups: the list (newest first, paged), "Back up now", the
 * running backup's or restore's progress (polled), and per backup download,
 * preview, restore and delete; below, the backup config. Everything but the
 * list and the config needs `server.restart` on the server.
 */
import { useEffect, useRef, useState } from "react"
import { api } from "@dashboard/api/client.js"
import { allowed, useSession } from "@dashboard/app/session.js"
import { formatBytes, formatTime, Loaded, useResource } from "@dashboard/ui/data.js"
import { ActionButton, Spinner, useFeedback } from "@dashboard/ui/feedback.js"
import { type BackupStatus, type BackupView, RESTORE_PERMISSION } from "../contract/Api.js"
import { BackupConfigPanel, PathList } from "./BackupConfigPanel.js"

const PAGE_SIZE = 50
const PREVIEW_ENTRIES = 100
/** The status is polled every 2 s while a backup or restore runs, every 15 s otherwise. */
const POLL_MS = 2000
const IDLE_POLL_MS = 15_000

const downloadHref = (serverId: string, filename: string) =>
  `/api/servers/${encodeURIComponent(serverId)}/backups/${encodeURIComponent(filename)}/download`

const operationLabel = (status: BackupStatus) =>
  status.operation === "restore" ? `Restore of ${status.filename ?? "a backup"}` : `Backup${status.type === null ? "" : ` (${status.type})`}`

/** What changes when a backup or restore starts or ends (not its progress). */
const statusKey = (status: BackupStatus) => [status.serverId, status.operation, status.state, status.filename, status.startedAt, status.endedAt].join("|")

const Progress = ({ status }: { readonly status: BackupStatus }) => {
  const label = operationLabel(status)
  if (status.state === "running") {
    return (
      <div className="notice" role="status">
        <p>
          {label} running since {formatTime(status.startedAt)}: {status.phase}, {Math.round(status.percent)}%
          {status.bytesTotal > 0 && ` (${formatBytes(status.bytesDone)} of ${formatBytes(status.bytesTotal)})`}
        </p>
        <progress value={status.percent} max={100} aria-label={`${label} progress`} />
      </div>
    )
  }
  if (status.state === "failed") {
    return (
      <p className="notice error">
        {label} failed {formatTime(status.endedAt)}: {status.error ?? "no reason given"}
      </p>
    )
  }
  return null
}

/** The manifest's summary and the first page of entries of one backup, read from the zip without unpacking it. */
const Preview = ({ serverId, backup, close }: { readonly serverId: string; readonly backup: BackupView; readonly close: () => void }) => {
  const contents = useResource(
    () => api((c) => c.backups.contents({ path: { id: serverId, filename: backup.filename }, urlParams: { type: backup.type, limit: PREVIEW_ENTRIES } })),
    [serverId, backup.filename]
  )
  return (
    <section id="backup-preview" className="card stack" aria-label={`Preview of ${backup.filename}`}>
      <div className="row">
        <h3 className="mono break-anywhere grow">{backup.filename}</h3>
        <button type="button" onClick={close}>
          Close preview
        </button>
      </div>
      <Loaded resource={contents}>
        {(c) => (
          <>
            {c.problem !== null && <p className="notice error">Cannot be restored as it is: {c.problem}</p>}
            {c.manifest === null ? (
              <p className="notice warn">No manifest: this zip was not made by Garrison.</p>
            ) : (
              <dl className="kv">
                <dt>Server</dt>
                <dd>{c.manifest.server.name}</dd>
                <dt>Files</dt>
                <dd>{c.manifest.fileCount}</dd>
                <dt>Total size</dt>
                <dd>{formatBytes(c.manifest.totalBytes)}</dd>
                <dt>Server was</dt>
                <dd>{c.manifest.running ? "running (databases copied through SQLite's online backup)" : "stopped"}</dd>
                <dt>Paths</dt>
                <dd>
                  <PathList paths={c.manifest.paths.map((p) => `${p.root}/${p.path}`)} />
                </dd>
                {c.manifest.warnings.length > 0 && (
                  <>
                    <dt>Warnings</dt>
                    <dd>
                      <ul className="plain">
                        {c.manifest.warnings.map((w, i) => (
                          <li key={i}>{w}</li>
                        ))}
                      </ul>
                    </dd>
                  </>
                )}
              </dl>
            )}
            <table>
              <caption className="sr-only">Entries of {backup.filename}</caption>
              <thead>
                <tr>
                  <th scope="col">Entry</th>
                  <th scope="col">Size</th>
                  <th scope="col" className="hide-narrow">
                    Modified
                  </th>
                </tr>
              </thead>
              <tbody>
                {c.items.map((entry) => (
                  <tr key={entry.name}>
                    <td className="mono break-anywhere">
                      {entry.name} {entry.kind !== "file" && entry.kind !== "folder" && <span className="badge">{entry.kind}</span>}
                    </td>
                    <td>{entry.kind === "folder" ? "folder" : formatBytes(entry.size)}</td>
                    <td className="hide-narrow">{formatTime(entry.modified)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <p className="muted">
              {c.items.length < c.total ? `The first ${c.items.length} of ${c.total} entries: download the zip for the rest.` : `${c.total} entries.`}
            </p>
          </>
        )}
      </Loaded>
    </section>
  )
}

const BackupsTab = ({ serverId }: { readonly serverId: string }) => {
  const { me } = useSession()
  const feedback = useFeedback()
  const canManage = allowed(me, RESTORE_PERMISSION, serverId)

  const [older, setOlder] = useState<ReadonlyArray<BackupView>>([])
  const [cursor, setCursor] = useState<string | null>(null)
  const [loadingMore, setLoadingMore] = useState(false)
  const [previewing, setPreviewing] = useState<BackupView | undefined>()
  useEffect(() => setPreviewing(undefined), [serverId])
  const list = useResource(async () => {
    const page = await api((c) => c.backups.list({ path: { id: serverId }, urlParams: { limit: PAGE_SIZE } }))
    setOlder([])
    setCursor(page.nextCursor)
    return page
  }, [serverId])
  const more = async () => {
    if (cursor === null) return
    setLoadingMore(true)
    try {
      const page = await api((c) => c.backups.list({ path: { id: serverId }, urlParams: { limit: PAGE_SIZE, cursor } }))
      setOlder((all) => [...all, ...page.items])
      setCursor(page.nextCursor)
    } catch (error) {
      feedback.error(error)
    } finally {
      setLoadingMore(false)
    }
  }

  const config = useResource(() => api((c) => c.backups.config({ path: { id: serverId } })), [serverId])

  // Polled every POLL_MS; while nothing runs, the last answer stands for IDLE_POLL_MS.
  const held = useRef<BackupStatus | undefined>(undefined)
  const fetchedAt = useRef(0)
  const status = useResource(
    async () => {
      const last = held.current
      if (last !== undefined && last.serverId === serverId && last.state !== "running" && Date.now() - fetchedAt.current < IDLE_POLL_MS) return last
      const next = await api((c) => c.backups.status({ path: { id: serverId } }))
      fetchedAt.current = Date.now()
      return next
    },
    [serverId],
    { pollMs: POLL_MS }
  )
  held.current = status.data
  const running = status.data?.state === "running"
  const started = (next: BackupStatus) => {
    fetchedAt.current = Date.now()
    status.set(() => next)
  }

  // A backup or restore that ended (or began and ended between two polls): the list and the next scheduled time changed.
  const seen = useRef<string | undefined>(undefined)
  useEffect(() => {
    const s = status.data
    if (s === undefined) return
    const key = statusKey(s)
    const before = seen.current
    seen.current = key
    if (before === undefined || before === key || !before.startsWith(`${s.serverId}|`) || s.state === "running") return
    void list.reload()
    void config.reload()
    if (s.state === "failed") feedback.error(`${operationLabel(s)} failed: ${s.error ?? "no reason given"}`)
    else if (s.state === "done") feedback.ok(`${operationLabel(s)} done`)
  }, [status.data])

  return (
    <div className="stack">
      {canManage && (
        <div className="row" role="toolbar" aria-label="Backup controls">
          <ActionButton
            className="primary"
            disabled={running}
            title={running ? "A backup or restore is running" : undefined}
            run={async () => started(await api((c) => c.backups.create({ path: { id: serverId } })))}
            done="Backup started"
          >
            Back up now
          </ActionButton>
        </div>
      )}
      {status.data !== undefined && <Progress status={status.data} />}
      <Loaded resource={list}>
        {(page) => {
          const rows = [...page.items, ...older]
          return rows.length === 0 ? (
            <p className="notice">No backups yet.</p>
          ) : (
            <>
              <div className="table-wrap">
                <table>
                  <caption className="sr-only">Backups, newest first</caption>
                  <thead>
                    <tr>
                      <th scope="col">Type</th>
                      <th scope="col">Created</th>
                      <th scope="col">Size</th>
                      <th scope="col" className="hide-narrow">
                        Retention tier
                      </th>
                      {canManage && (
                        <th scope="col">
                          <span className="sr-only">Actions</span>
                        </th>
                      )}
                    </tr>
                  </thead>
                  <tbody>
                    {rows.map((backup) => (
                      <tr key={backup.filename}>
                        <td>{backup.type}</td>
                        <td>
                          <time dateTime={backup.createdAt}>{formatTime(backup.createdAt)}</time>
                        </td>
                        <td>{formatBytes(backup.sizeBytes)}</td>
                        <td className="hide-narrow">{backup.tier ?? "—"}</td>
                        {canManage && (
                          <td>
                            <div className="row">
                              <a className="button" href={downloadHref(serverId, backup.filename)} download={backup.filename}>
                                Download<span className="sr-only"> {backup.filename}</span>
                              </a>
                              <button
                                type="button"
                                aria-expanded={previewing?.filename === backup.filename}
                                aria-controls={previewing?.filename === backup.filename ? "backup-preview" : undefined}
                                onClick={() => setPreviewing((p) => (p?.filename === backup.filename ? undefined : backup))}
                              >
                                Preview<span className="sr-only"> {backup.filename}</span>
                              </button>
                              <ActionButton
                                disabled={running}
                                run={async () => started(await api((c) => c.backups.restore({ path: { id: serverId, filename: backup.filename }, urlParams: { type: backup.type } })))}
                                confirm={{
                                  title: `Restore ${backup.filename}?`,
                                  body: (
                                    <>
                                      <p>The server must be stopped, and cannot be started until the restore ends.</p>
                                      <p>A pre-restore backup of the files it replaces is made first; then the server's files are replaced by this backup's.</p>
                                    </>
                                  ),
                                  confirmLabel: "Restore",
                                  danger: true
                                }}
                                done="Restore started"
                              >
                                Restore<span className="sr-only"> {backup.filename}</span>
                              </ActionButton>
                              <ActionButton
                                className="danger"
                                disabled={running && status.data?.filename === backup.filename}
                                run={async () => {
                                  await api((c) => c.backups.remove({ path: { id: serverId, filename: backup.filename }, urlParams: { type: backup.type } }))
                                  setPreviewing((p) => (p?.filename === backup.filename ? undefined : p))
                                  await list.reload()
                                }}
                                confirm={{ title: `Delete ${backup.filename}?`, body: "The zip is removed from the controller's disk.", confirmLabel: "Delete", danger: true }}
                                done="Backup deleted"
                              >
                                Delete<span className="sr-only"> {backup.filename}</span>
                              </ActionButton>
                            </div>
                          </td>
                        )}
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
              <div className="row">
                <span className="muted">
                  {rows.length} of {page.total} backups
                </span>
                {cursor !== null && (
                  <button type="button" onClick={() => void more()} disabled={loadingMore}>
                    {loadingMore && <Spinner label="Loading" />}Load more
                  </button>
                )}
              </div>
            </>
          )
        }}
      </Loaded>
      {canManage && previewing !== undefined && <Preview key={previewing.filename} serverId={serverId} backup={previewing} close={() => setPreviewing(undefined)} />}
      <BackupConfigPanel serverId={serverId} config={config} canEdit={canManage} />
    </div>
  )
}

export default BackupsTab
