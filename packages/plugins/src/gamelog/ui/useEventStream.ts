/**
 * Server-sent events for a page: an `EventSource` on `url` (same origin, so
 * the session cookie goes with it), each `event` frame's data parsed as
 * JSON and handed to `onData`. The browser reconnects by itself after a
 * dropped connection; when a reconnection opens, `onReopen` runs, so the
 * page can read again what it may have missed meanwhile. A stream the
 * controller answered with an error (which the browser does not retry) is
 * opened again after a pause. `url` undefined: no stream.
 */
import { useEffect, useRef, useState } from "react"

export type StreamState = "connecting" | "live" | "reconnecting"

const RETRY_MS = 5000

export const useEventStream = <A>(url: string | undefined, event: string, onData: (data: A) => void, onReopen?: () => void): StreamState => {
  const [state, setState] = useState<StreamState>("connecting")
  const handlers = useRef({ onData, onReopen })
  handlers.current = { onData, onReopen }

  useEffect(() => {
    if (url === undefined) return
    let source: EventSource | undefined
    let retry: number | undefined
    let dropped = false
    let stopped = false
    const open = () => {
      const current = new EventSource(url)
      source = current
      current.addEventListener("open", () => {
        setState("live")
        if (dropped) handlers.current.onReopen?.()
        dropped = false
      })
      current.addEventListener(event, (message) => {
        let data: A
        try {
          data = JSON.parse((message as MessageEvent<string>).data) as A
        } catch {
          return // Not JSON: skipped.
        }
        handlers.current.onData(data)
      })
      current.addEventListener("error", () => {
        dropped = true
        setState("reconnecting")
        if (current.readyState === EventSource.CLOSED && !stopped) {
          current.close()
          retry = window.setTimeout(open, RETRY_MS)
        }
      })
    }
    setState("connecting")
    open()
    return () => {
      stopped = true
      window.clearTimeout(retry)
      source?.close()
    }
  }, [url, event])

  return state
}

/** `/api/killfeed/stream?serverId=...`: a path with the query parameters that are set. */
export const withQuery = (path: string, params: Readonly<Record<string, string | undefined>>): string => {
  const query = new URLSearchParams()
  for (const [key, value] of Object.entries(params)) if (value !== undefined && value !== "") query.set(key, value)
  const text = query.toString()
  return text === "" ? path : `${path}?${text}`
}
