/**
 * A small history-API router: the controller serves `index.html` for every
 * client route, so `/servers/abc` reloads into the same page.
 */
import { type AnchorHTMLAttributes, type MouseEvent, useEffect, useState } from "react"

const listeners = new Set<() => void>()

export const navigate = (to: string, options: { readonly replace?: boolean } = {}): void => {
  if (to === window.location.pathname + window.location.search) return
  if (options.replace === true) window.history.replaceState(null, "", to)
  else window.history.pushState(null, "", to)
  for (const listener of listeners) listener()
}

export const usePath = (): string => {
  const [path, setPath] = useState(window.location.pathname)
  useEffect(() => {
    const update = () => setPath(window.location.pathname)
    listeners.add(update)
    window.addEventListener("popstate", update)
    return () => {
      listeners.delete(update)
      window.removeEventListener("popstate", update)
    }
  }, [])
  return path
}

/** `/servers/:id` against `/servers/abc` → `{id: "abc"}`, else undefined. */
export const matchPath = (pattern: string, path: string): Record<string, string> | undefined => {
  const want = pattern.split("/").filter(Boolean)
  const got = path.split("/").filter(Boolean)
  if (want.length !== got.length) return undefined
  const params: Record<string, string> = {}
  for (let i = 0; i < want.length; i++) {
    const w = want[i]!
    const g = got[i]!
    if (w.startsWith(":")) params[w.slice(1)] = decodeURIComponent(g)
    else if (w !== g) return undefined
  }
  return params
}

export const Link = ({ to, onClick, ...rest }: AnchorHTMLAttributes<HTMLAnchorElement> & { readonly to: string }) => (
  <a
    {...rest}
    href={to}
    onClick={(event: MouseEvent<HTMLAnchorElement>) => {
      onClick?.(event)
      if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return
      event.preventDefault()
      navigate(to)
    }}
  />
)
