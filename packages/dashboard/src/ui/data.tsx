/** Loading data: `useResource` (with optional polling) and the states around it. */
import { type DependencyList, type ReactNode, useCallback, useEffect, useRef, useState } from "react"
import { ApiError } from "../api/client.js"
import { messageOf, Spinner } from "./feedback.js"

export interface Resource<A> {
  readonly data: A | undefined
  readonly error: unknown
  readonly loading: boolean
  readonly reload: () => Promise<void>
  readonly set: (update: (current: A | undefined) => A | undefined) => void
}

/**
 * Loads `load()` when `deps` change, and again every `pollMs` while the tab
 * is visible. A failed poll keeps the last data (and shows the error).
 * A 404 stops the polling (what was asked for is gone: asking again cannot
 * bring it back) until a reload succeeds or `deps` change.
 */
export const useResource = <A,>(load: () => Promise<A>, deps: DependencyList, options: { readonly pollMs?: number } = {}): Resource<A> => {
  const [data, setData] = useState<A | undefined>(undefined)
  const [error, setError] = useState<unknown>(undefined)
  const [loading, setLoading] = useState(true)
  const generation = useRef(0)
  const gone = useRef(false)
  const loadRef = useRef(load)
  loadRef.current = load

  const reload = useCallback(async () => {
    const mine = ++generation.current
    try {
      const value = await loadRef.current()
      if (mine === generation.current) {
        gone.current = false
        setData(value)
        setError(undefined)
      }
    } catch (e) {
      if (mine === generation.current) {
        gone.current = e instanceof ApiError && e.status === 404
        setError(e)
      }
    } finally {
      if (mine === generation.current) setLoading(false)
    }
  }, [])

  useEffect(() => {
    setLoading(true)
    setData(undefined)
    gone.current = false
    void reload()
    if (options.pollMs === undefined) return
    const timer = window.setInterval(() => {
      if (document.visibilityState === "visible" && !gone.current) void reload()
    }, options.pollMs)
    return () => {
      window.clearInterval(timer)
      generation.current++
    }
  }, deps)

  return { data, error, loading, reload, set: setData }
}

/** Spinner while loading the first time, the error's message if that failed, else the children. */
export const Loaded = <A,>({ resource, children }: { readonly resource: Resource<A>; readonly children: (data: A) => ReactNode }) => {
  if (resource.data !== undefined) {
    return (
      <>
        {resource.error !== undefined && (
          <p className="notice warn" role="alert">
            {messageOf(resource.error)}
          </p>
        )}
        {children(resource.data)}
      </>
    )
  }
  if (resource.error !== undefined) {
    return (
      <div className="notice error" role="alert">
        <p>{messageOf(resource.error)}</p>
        <button type="button" onClick={() => void resource.reload()}>
          Try again
        </button>
      </div>
    )
  }
  return (
    <div className="loading">
      <Spinner /> Loading…
    </div>
  )
}

export const formatBytes = (bytes: number | null | undefined): string => {
  if (bytes === null || bytes === undefined) return "—"
  const units = ["B", "KB", "MB", "GB", "TB"]
  let value = bytes
  let unit = 0
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024
    unit++
  }
  return `${value.toFixed(unit === 0 ? 0 : 1)} ${units[unit]}`
}

export const formatUptime = (seconds: number): string => {
  if (seconds <= 0) return "—"
  const d = Math.floor(seconds / 86400)
  const h = Math.floor((seconds % 86400) / 3600)
  const m = Math.floor((seconds % 3600) / 60)
  return d > 0 ? `${d}d ${h}h` : h > 0 ? `${h}h ${m}m` : `${m}m ${seconds % 60}s`
}

export const formatTime = (iso: string | null | undefined): string => (iso === null || iso === undefined ? "—" : new Date(iso).toLocaleString())

/** Saves a JSON value as a file download. */
export const downloadJson = (fileName: string, value: unknown): void => {
  const url = URL.createObjectURL(new Blob([JSON.stringify(value, null, 2)], { type: "application/json" }))
  const a = document.createElement("a")
  a.href = url
  a.download = fileName
  document.body.appendChild(a)
  a.click()
  a.remove()
  window.setTimeout(() => URL.revokeObjectURL(url), 1000)
}
