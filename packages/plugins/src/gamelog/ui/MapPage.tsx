/**
 * The live map (any signed-in user, the servers they may see): a server
 * picker (`/map/:id`; `/map` opens the first server's), then that server's
 * map with its players (`ServerMap`).
 */
import { useEffect } from "react"
import { navigate } from "@dashboard/app/router.js"
import { ServerMap } from "./ServerMap.js"
import { ServerSelect, useServers } from "./shared.js"

const MapPage = ({ params }: { readonly params: Readonly<Record<string, string>> }) => {
  const servers = useServers()
  const serverId = params["id"] ?? ""
  const first = servers.list[0]?.id

  useEffect(() => {
    if (serverId === "" && first !== undefined) navigate(`/map/${encodeURIComponent(first)}`, { replace: true })
  }, [serverId, first])

  return (
    <section className="stack">
      <h1>Live map</h1>
      <div className="row">
        <ServerSelect servers={servers.list} value={serverId} onChange={(id) => navigate(`/map/${encodeURIComponent(id)}`)} />
      </div>
      {serverId === "" ? (
        servers.loaded && servers.list.length === 0 ? <p className="notice">No server to show.</p> : null
      ) : (
        <ServerMap key={serverId} serverId={serverId} serverName={servers.nameOf(serverId)} />
      )}
    </section>
  )
}

export default MapPage
