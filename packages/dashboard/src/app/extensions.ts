/** What the shell hands to pages that host other plugins' parts (the server page's tabs). */
import { createContext, useContext } from "react"
import type { ServerTab } from "../plugin.js"

export const ServerTabsContext = createContext<ReadonlyArray<ServerTab>>([])
export const useServerTabs = (): ReadonlyArray<ServerTab> => useContext(ServerTabsContext)
