/**
 * What a plugin's `ui/index.ts` exports so the dashboard shell can show its
 * pages: routes (lazy-loaded, so a page's code is fetched when it is first
 * opened), a navigation entry, tabs on the server page, and the permissions
 * each needs. The shell collects the descriptors in `src/app/plugins.ts`.
 */
import type { ComponentType, LazyExoticComponent } from "react"

export type PageComponent<P = { readonly params: Readonly<Record<string, string>> }> =
  | ComponentType<P>
  | LazyExoticComponent<ComponentType<P>>

export interface PageRoute {
  /** `/bans`, `/servers/:id`: `:name` segments reach the page as `params`. */
  readonly path: string
  readonly title: string
  readonly component: PageComponent
  /** Shown only to users holding one of these (anywhere); none: any signed-in user. */
  readonly anyOf?: ReadonlyArray<string>
  /**
   * Reachable without signing in (the VIP store's pages): shown in a plain
   * frame (brand, theme, a sign-in button) whether or not anyone is signed
   * in, never behind the sign-in form. `anyOf` does not apply. The page
   * reads who is signed in, and asks for a sign-in, through
   * `usePublicSession` (`src/app/extensions.ts`).
   */
  readonly public?: boolean
}

export interface NavEntry {
  readonly label: string
  readonly path: string
  readonly anyOf?: ReadonlyArray<string>
  /** Sort key: lower first. */
  readonly order: number
}

/** A tab of the server page (`/servers/:id/<id>`). */
export interface ServerTab {
  readonly id: string
  readonly label: string
  readonly component: PageComponent<{ readonly serverId: string }>
  /** Needs one of these on that server. */
  readonly anyOf?: ReadonlyArray<string>
  readonly order: number
}

export interface PluginUi {
  readonly id: string
  readonly routes?: ReadonlyArray<PageRoute>
  readonly nav?: ReadonlyArray<NavEntry>
  readonly serverTabs?: ReadonlyArray<ServerTab>
  /** Something for the top bar (the notifications bell). */
  readonly header?: PageComponent<{}>
}
