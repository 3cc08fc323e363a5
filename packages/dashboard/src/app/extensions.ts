/** What the shell hands to pages: the server page's tabs (other plugins' parts), and a public page's session. */
import { createContext, useContext } from "react"
import type { ServerTab } from "../plugin.js"

export const ServerTabsContext = createContext<ReadonlyArray<ServerTab>>([])
export const useServerTabs = (): ReadonlyArray<ServerTab> => useContext(ServerTabsContext)

/** What a public page (`PageRoute.public`) knows of the visitor. */
export interface PublicSession {
  /** Undefined while the shell is still asking (`GET /api/me`). */
  readonly signedIn: boolean | undefined
  readonly username: string | undefined
  /** Shows the sign-in form; once signed in, the visitor is back on this page. */
  readonly signIn: () => void
}

export const PublicSessionContext = createContext<PublicSession>({ signedIn: undefined, username: undefined, signIn: () => {} })
export const usePublicSession = (): PublicSession => useContext(PublicSessionContext)
