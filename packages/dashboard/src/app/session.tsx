/** The signed-in user and what they may do: `GET /api/me`, re-read after sign-in and password changes. */
import { createContext, useContext } from "react"
import type { MeResponse } from "../../../plugins/src/accounts/contract/Api.js"

export interface Session {
  readonly me: MeResponse
  /** Re-reads `/api/me`. */
  readonly refresh: () => Promise<void>
  readonly signOut: () => Promise<void>
}

export const SessionContext = createContext<Session | undefined>(undefined)

export const useSession = (): Session => {
  const session = useContext(SessionContext)
  if (session === undefined) throw new Error("useSession outside a signed-in shell")
  return session
}

/** Whether `me` holds `permission` everywhere (or `admin`), or on `serverId` when the grant is scoped. */
export const allowed = (me: MeResponse, permission: string, serverId?: string): boolean =>
  me.permissions.includes("admin") ||
  me.permissions.includes(permission) ||
  (serverId !== undefined && me.scoped.some((grant) => grant.permission === permission && grant.servers.includes(serverId)))

/** Whether `me` holds `permission` anywhere (everywhere or on some server). */
export const allowedAnywhere = (me: MeResponse, permission: string): boolean =>
  allowed(me, permission) || me.scoped.some((grant) => grant.permission === permission)

/** `can("players.kick", serverId)` for the signed-in user. */
export const useCan = (): ((permission: string, serverId?: string) => boolean) => {
  const { me } = useSession()
  return (permission, serverId) => allowed(me, permission, serverId)
}
