/**
 * A server's Files tab (`server.config` on that server): the install
 * folder's files, folders first, browsed through links and breadcrumbs,
 * filtered by name; a text file opens in the code editor and is saved with
 * the version it was read at (`FileEditorPanel`). Where the tab is lives in
 * the address (`?path=&file=`). Leaving a file with unsaved text asks first.
 */
import { type MouseEvent, type ReactNode, useEffect, useRef, useState } from "react"
import { useCan } from "@dashboard/app/session.js"
import { formatBytes, formatTime, Loaded, useResource } from "@dashboard/ui/data.js"
import { useFeedback } from "@dashboard/ui/feedback.js"
import { type FileEntry, FILES_PERMISSION, MAX_EDIT_BYTES } from "../contract/Api.js"
import { baseName, crumbsOf, filesApi, folderOf } from "./client.js"
import { FileEditorPanel } from "./FileEditorPanel.js"
import { addressOf, type FilesLocation, useFilesLocation } from "./useFilesLocation.js"

/** A link to a place in the tab: a real address (a new browser tab works), followed here without reloading. */
const PlaceLink = ({ place, go, children, current }: { readonly place: FilesLocation; readonly go: (place: FilesLocation) => void; readonly children: ReactNode; readonly current?: boolean }) => (
  <a
    href={addressOf(place)}
    aria-current={current === true ? "location" : undefined}
    onClick={(event: MouseEvent<HTMLAnchorElement>) => {
      if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return
      event.preventDefault()
      go(place)
    }}
  >
    {children}
  </a>
)

const Breadcrumbs = ({ place, go }: { readonly place: FilesLocation; readonly go: (place: FilesLocation) => void }) => {
  const crumbs = crumbsOf(place.folder)
  return (
    <nav aria-label="Folder path">
      <ol className="crumbs">
        {crumbs.map((crumb, i) => {
          const here = place.file === undefined && i === crumbs.length - 1
          return (
            <li key={crumb.path}>
              {here ? (
                <span aria-current="location">{crumb.name}</span>
              ) : (
                <PlaceLink place={{ folder: crumb.path, file: undefined }} go={go}>
                  {crumb.name}
                </PlaceLink>
              )}
            </li>
          )
        })}
        {place.file !== undefined && (
          <li>
            <span aria-current="location">{baseName(place.file)}</span>
          </li>
        )}
      </ol>
    </nav>
  )
}

const KIND_NOTES: Readonly<Record<FileEntry["kind"], string | undefined>> = {
  file: undefined,
  folder: undefined,
  symlink: "link, not followed",
  other: "not a regular file"
}

const EntryRow = ({ entry, folder, go }: { readonly entry: FileEntry; readonly folder: string; readonly go: (place: FilesLocation) => void }) => {
  const note = KIND_NOTES[entry.kind]
  return (
    <tr>
      <td className="mono break-anywhere">
        {entry.kind === "folder" ? (
          <PlaceLink place={{ folder: entry.path, file: undefined }} go={go}>
            {entry.name}/
          </PlaceLink>
        ) : entry.kind === "file" ? (
          <PlaceLink place={{ folder, file: entry.path }} go={go}>
            {entry.name}
          </PlaceLink>
        ) : (
          entry.name
        )}{" "}
        {note !== undefined && <span className="badge">{note}</span>}
        {entry.kind === "file" && entry.size > MAX_EDIT_BYTES && <span className="badge">too large to edit</span>}
      </td>
      <td>{entry.kind === "folder" ? "folder" : formatBytes(entry.size)}</td>
      <td className="hide-narrow">{formatTime(entry.modified)}</td>
    </tr>
  )
}

const Listing = ({ serverId, folder, go }: { readonly serverId: string; readonly folder: string; readonly go: (place: FilesLocation) => void }) => {
  const [filter, setFilter] = useState("")
  useEffect(() => {
    setFilter("")
  }, [serverId, folder])
  const listing = useResource(() => filesApi((c) => c.files.list({ path: { id: serverId }, urlParams: { path: folder } })), [serverId, folder])
  const wanted = filter.trim().toLowerCase()
  return (
    <div className="stack">
      <label className="files-filter">
        Filter by name
        <input type="search" value={filter} onChange={(e) => setFilter(e.target.value)} autoComplete="off" spellCheck={false} />
      </label>
      <Loaded resource={listing}>
        {(list) => {
          const shown = wanted === "" ? list.items : list.items.filter((entry) => entry.name.toLowerCase().includes(wanted))
          if (list.items.length === 0) return <p className="notice">This folder is empty.</p>
          return (
            <>
              {shown.length === 0 ? (
                <p className="notice">No name here contains “{filter.trim()}”.</p>
              ) : (
                <div className="table-wrap">
                  <table>
                    <caption className="sr-only">Files in {folder === "" ? "the install folder" : folder}</caption>
                    <thead>
                      <tr>
                        <th scope="col">Name</th>
                        <th scope="col">Size</th>
                        <th scope="col" className="hide-narrow">
                          Changed
                        </th>
                      </tr>
                    </thead>
                    <tbody>
                      {shown.map((entry) => (
                        <EntryRow key={entry.path} entry={entry} folder={folder} go={go} />
                      ))}
                    </tbody>
                  </table>
                </div>
              )}
              <p className="muted" role="status">
                {wanted === "" ? `${list.items.length} entries` : `${shown.length} of ${list.items.length} entries`}
              </p>
            </>
          )
        }}
      </Loaded>
    </div>
  )
}

const FilesTab = ({ serverId }: { readonly serverId: string }) => {
  const can = useCan()
  const feedback = useFeedback()
  const canWrite = can(FILES_PERMISSION, serverId)
  const [place, go] = useFilesLocation(serverId)
  const dirty = useRef(false)

  // Closing or reloading the browser tab with unsaved text: the browser asks first.
  useEffect(() => {
    const warn = (event: Event) => {
      if (dirty.current) event.preventDefault()
    }
    window.addEventListener("beforeunload", warn)
    return () => window.removeEventListener("beforeunload", warn)
  }, [])

  /** Goes elsewhere in the tab; with unsaved text, only after the user agrees to drop it. */
  const goSafely = async (next: FilesLocation) => {
    if (dirty.current && place.file !== undefined && next.file !== place.file) {
      const leave = await feedback.confirm({
        title: `Leave ${baseName(place.file)} without saving?`,
        body: "Your changes to it are not saved and will be lost.",
        confirmLabel: "Leave without saving",
        danger: true
      })
      if (!leave) return
    }
    dirty.current = false
    go(next)
  }
  const goTo = (next: FilesLocation) => void goSafely(next)

  return (
    <div className="stack">
      <Breadcrumbs place={place} go={goTo} />
      {place.file === undefined ? (
        <Listing serverId={serverId} folder={place.folder} go={goTo} />
      ) : (
        <>
          <p>
            <PlaceLink place={{ folder: folderOf(place.file), file: undefined }} go={goTo}>
              ← Back to the folder
            </PlaceLink>
          </p>
          <FileEditorPanel key={place.file} serverId={serverId} path={place.file} canWrite={canWrite} onDirty={(now) => {
              dirty.current = now
            }} />
        </>
      )}
    </div>
  )
}

export default FilesTab
