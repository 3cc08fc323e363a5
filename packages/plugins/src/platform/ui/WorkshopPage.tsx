/**
 * The Workshop page: DayZ's workshop searched by text, or its popular items
 * (Steam's trend over the last week) when no search is made, a page at a
 * time; each item's details, and "Install on server…" on the servers where
 * the user may install mods.
 */
import { useMemo, useState } from "react"
import { api } from "@dashboard/api/client.js"
import { allowed, useSession } from "@dashboard/app/session.js"
import { Loaded, useResource } from "@dashboard/ui/data.js"
import { Spinner, useFeedback } from "@dashboard/ui/feedback.js"
import { MODS_INSTALL } from "../../mods/contract/Api.js"
import type { WorkshopItem } from "../contract/Api.js"
import { platformApi } from "./client.js"
import type { ServerChoice } from "./InstallOnServer.js"
import { WorkshopItemCard } from "./WorkshopItemCard.js"
import { formatCount } from "./words.js"

const PAGE_SIZE = 20

const pageOf = (query: string, cursor?: string) =>
  platformApi((c) =>
    query === ""
      ? c.workshop.popular({ urlParams: { limit: PAGE_SIZE, ...(cursor === undefined ? {} : { cursor }) } })
      : c.workshop.search({ urlParams: { q: query, limit: PAGE_SIZE, ...(cursor === undefined ? {} : { cursor }) } })
  )

const WorkshopPage = () => {
  const { me } = useSession()
  const feedback = useFeedback()
  const [draft, setDraft] = useState("")
  const [query, setQuery] = useState("")
  const [more, setMore] = useState<ReadonlyArray<WorkshopItem>>([])
  const [cursor, setCursor] = useState<string | null>(null)
  const [loadingMore, setLoadingMore] = useState(false)

  const results = useResource(async () => {
    const page = await pageOf(query)
    setMore([])
    setCursor(page.nextCursor)
    return page
  }, [query])
  const loadMore = async () => {
    if (cursor === null) return
    setLoadingMore(true)
    try {
      const page = await pageOf(query, cursor)
      setMore((items) => [...items, ...page.items])
      setCursor(page.nextCursor)
    } catch (error) {
      feedback.error(error)
    } finally {
      setLoadingMore(false)
    }
  }

  const servers = useResource(() => api((c) => c.servers.list({ urlParams: {} })), [])
  const installable = useMemo<ReadonlyArray<ServerChoice>>(
    () => (servers.data?.items ?? []).filter((s) => allowed(me, MODS_INSTALL, s.id)).map((s) => ({ id: s.id, name: s.name })),
    [servers.data, me]
  )

  return (
    <div className="stack">
      <h1>Workshop</h1>
      <form
        className="row"
        role="search"
        aria-label="Workshop"
        onSubmit={(event) => {
          event.preventDefault()
          setQuery(draft.trim())
        }}
      >
        <label className="grow">
          Search the workshop
          <input type="search" value={draft} onChange={(e) => setDraft(e.target.value)} maxLength={200} />
        </label>
        <button type="submit" className="primary">
          Search
        </button>
        {query !== "" && (
          <button
            type="button"
            onClick={() => {
              setDraft("")
              setQuery("")
            }}
          >
            Show popular
          </button>
        )}
      </form>
      <section className="stack" aria-labelledby="workshop-results-title">
        <h2 id="workshop-results-title">{query === "" ? "Popular this week" : `Results for “${query}”`}</h2>
        <Loaded resource={results}>
          {(page) => {
            const items = [...page.items, ...more]
            return items.length === 0 ? (
              <p className="notice">{query === "" ? "The workshop lists nothing popular right now." : "Nothing in the workshop matches."}</p>
            ) : (
              <>
                <ul className="plain stack">
                  {items.map((item) => (
                    <WorkshopItemCard key={item.workshopId} item={item} servers={installable} />
                  ))}
                </ul>
                <div className="row">
                  <span className="muted">
                    {formatCount(items.length)} of {formatCount(page.total)}
                  </span>
                  {cursor !== null && (
                    <button type="button" onClick={() => void loadMore()} disabled={loadingMore}>
                      {loadingMore && <Spinner label="Loading" />}More results
                    </button>
                  )}
                </div>
              </>
            )
          }}
        </Loaded>
      </section>
    </div>
  )
}

export default WorkshopPage
