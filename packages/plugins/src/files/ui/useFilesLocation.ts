/**
 * Where the Files tab is: the folder shown and the file open, kept in the
 * address (`?path=<folder>&file=<file>`) so a reload, a shared link or the
 * browser's back button returns to the same place.
 */
import { useEffect, useState } from "react"

export interface FilesLocation {
  /** Relative to the install folder; "" is the install folder. */
  readonly folder: string
  /** The file open in the editor, if any. */
  readonly file: string | undefined
}

const fromAddress = (): FilesLocation => {
  const query = new URLSearchParams(window.location.search)
  return { folder: query.get("path") ?? "", file: query.get("file") ?? undefined }
}

/** The address of a place in the tab (the current page's path, the place as its query). */
export const addressOf = (place: FilesLocation): string => {
  const query = new URLSearchParams()
  if (place.folder !== "") query.set("path", place.folder)
  if (place.file !== undefined) query.set("file", place.file)
  const search = query.toString()
  return window.location.pathname + (search === "" ? "" : `?${search}`)
}

/** The place in the address, and `go(place)`, which puts a new one in the history. */
export const useFilesLocation = (serverId: string): readonly [FilesLocation, (place: FilesLocation) => void] => {
  const [place, setPlace] = useState(fromAddress)
  useEffect(() => {
    setPlace(fromAddress())
    const update = () => setPlace(fromAddress())
    window.addEventListener("popstate", update)
    return () => window.removeEventListener("popstate", update)
  }, [serverId])
  const go = (next: FilesLocation) => {
    const address = addressOf(next)
    if (address !== window.location.pathname + window.location.search) window.history.pushState(null, "", address)
    setPlace(next)
  }
  return [place, go]
}
