/**
 * Online players of a server: kick, ban (into the global ban database),
 * a message to everyone or one player, and the admin actions of the actions
 * plugin (heal, teleport, freeze, ...), each shown with the provider that
 * would run it now, or why none can.
 */
import { useState } from "react"
import * as Schema from "effect/Schema"
import { api, send } from "@dashboard/api/client.js"
import { allowed, useSession } from "@dashboard/app/session.js"
import { Loaded, useResource } from "@dashboard/ui/data.js"
import { ActionButton, useFeedback } from "@dashboard/ui/feedback.js"
import { PlatformId } from "@garrison/runtime"
import type { Capabilities } from "../../actions/contract/Api.js"
import type { PlayerView } from "../../servers/contract/fields.js"
import { PlayerDetails } from "./PlayerDetails.js"

type Player = typeof PlayerView.Type
type CapabilitiesView = typeof Capabilities.Type

/** Actions with a body of just `{platformId}`. */
const SIMPLE_ACTIONS = ["heal", "kill", "unstuck", "freeze", "strip", "explode"] as const

const Broadcast = ({ serverId }: { readonly serverId: string }) => {
  const [message, setMessage] = useState("")
  return (
    <form
      className="row"
      onSubmit={(e) => e.preventDefault()}
      aria-label="Message to every player"
    >
      <label className="grow">
        <span className="sr-only">Message to every player</span>
        <input value={message} onChange={(e) => setMessage(e.target.value)} placeholder="Message to every player" maxLength={256} />
      </label>
      <ActionButton
        run={async () => {
          await api((c) => c.players.message({ path: { id: serverId }, payload: { message } }))
          setMessage("")
        }}
        disabled={message.trim() === ""}
        done="Message sent"
      >
        Broadcast
      </ActionButton>
    </form>
  )
}

const PlayerPanel = ({
  serverId,
  player,
  capabilities,
  reload
}: {
  readonly serverId: string
  readonly player: Player
  readonly capabilities: CapabilitiesView | undefined
  readonly reload: () => Promise<void>
}) => {
  const { me } = useSession()
  const can = (permission: string) => allowed(me, permission, serverId)
  const feedback = useFeedback()
  const [reason, setReason] = useState("")
  const [expiration, setExpiration] = useState("")
  const [banPlatformId, setBanPlatformId] = useState(player.steam64 ?? "")
  const [message, setMessage] = useState("")
  const [x, setX] = useState("")
  const [y, setY] = useState("")
  const [z, setZ] = useState("")
  const [itemClass, setItemClass] = useState("")
  const [quantity, setQuantity] = useState("1")
  const [details, setDetails] = useState<unknown>()
  const platformId = player.steam64
  const route = (name: string) => capabilities?.actions.find((a) => a.route.endsWith(`/actions/${name}`))
  const runAction = (name: string, body: Record<string, unknown>) => async () => {
    const target = route(name)
    const path = (target?.route ?? `/api/servers/:id/actions/${name}`).replace(":id", encodeURIComponent(serverId))
    const reply = (await send("POST", path, { platformId, ...body })) as { readonly provider?: string }
    feedback.ok(`${name}: done${reply.provider === undefined ? "" : ` (via ${reply.provider})`}`)
  }
  const actionButton = (name: string, label: string, body: Record<string, unknown> = {}, danger = false) => {
    const target = route(name)
    const unavailable = platformId === null ? "the player's Steam64 is not known yet" : target !== undefined && !target.available ? (target.reason ?? "unavailable") : undefined
    return (
      <ActionButton
        key={name}
        run={runAction(name, body)}
        disabled={unavailable !== undefined}
        title={unavailable ?? (target?.provider === null || target === undefined ? undefined : `via ${target.provider}`)}
        className={danger ? "danger" : undefined}
        confirm={danger ? { title: `${label} ${player.name}?`, confirmLabel: label, danger: true } : undefined}
      >
        {label}
      </ActionButton>
    )
  }
  const playerRef = platformId ?? String(player.slot)

  return (
    <div className="card stack" role="region" aria-label={`Actions for ${player.name}`}>
      <h3>{player.name}</h3>
      <dl className="kv">
        <dt>Slot</dt>
        <dd>{player.slot}</dd>
        <dt>Steam64</dt>
        <dd>{player.steam64 ?? "not known yet"}</dd>
        <dt>GUID</dt>
        <dd className="mono">{player.guid}</dd>
        <dt>Ping</dt>
        <dd>{player.ping} ms</dd>
      </dl>
      {(can("players.kick") || can("players.ban")) && (
        <fieldset className="stack">
          <legend>Kick or ban</legend>
          <div className="grid">
            <label>
              Reason
              <input value={reason} onChange={(e) => setReason(e.target.value)} maxLength={200} />
            </label>
            {can("players.ban") && (
              <>
                <label>
                  Ban length (30m, 12h, 7d, 2w; empty: permanent)
                  <input value={expiration} onChange={(e) => setExpiration(e.target.value)} />
                </label>
                {player.steam64 === null && (
                  <label>
                    Steam64 (needed to ban)
                    <input value={banPlatformId} onChange={(e) => setBanPlatformId(e.target.value.trim())} />
                  </label>
                )}
              </>
            )}
          </div>
          <div className="row">
            {can("players.kick") && (
              <ActionButton
                run={async () => {
                  await api((c) => c.players.kick({ path: { id: serverId, playerId: String(player.slot) }, payload: reason === "" ? {} : { reason } }))
                  await reload()
                }}
                confirm={{ title: `Kick ${player.name}?`, confirmLabel: "Kick", danger: true }}
                done={`${player.name} kicked`}
              >
                Kick
              </ActionButton>
            )}
            {can("players.ban") && (
              <ActionButton
                className="danger"
                disabled={reason.trim() === "" || (player.steam64 === null && banPlatformId === "")}
                title={reason.trim() === "" ? "A ban needs a reason" : undefined}
                run={async () => {
                  const given = player.steam64 === null ? Schema.decodeUnknownSync(PlatformId)(banPlatformId) : undefined
                  await api((c) =>
                    c.playerBan.ban({
                      path: { id: serverId, playerId: playerRef },
                      payload: {
                        reason,
                        ...(expiration.trim() === "" ? {} : { expiration: expiration.trim() }),
                        ...(given === undefined ? {} : { platformId: given, playerName: player.name })
                      }
                    })
                  )
                  await reload()
                }}
                confirm={{
                  title: `Ban ${player.name}?`,
                  body: `Added to the global ban database ${expiration.trim() === "" ? "permanently" : `for ${expiration}`} and kicked from every running server.`,
                  confirmLabel: "Ban",
                  danger: true
                }}
                done={`${player.name} banned`}
              >
                Ban
              </ActionButton>
            )}
          </div>
        </fieldset>
      )}
      {can("server.rcon") && (
        <>
          <fieldset className="stack">
            <legend>Message to {player.name}</legend>
            <div className="row">
              <label className="grow">
                <span className="sr-only">Message</span>
                <input value={message} onChange={(e) => setMessage(e.target.value)} maxLength={256} />
              </label>
              {actionButton("message", "Send", { message })}
            </div>
          </fieldset>
          <fieldset className="stack">
            <legend>Admin actions</legend>
            <div className="row">
              {SIMPLE_ACTIONS.map((name) =>
                actionButton(name, name === "freeze" ? "Freeze / unfreeze" : name[0]!.toUpperCase() + name.slice(1), {}, name === "kill" || name === "explode" || name === "strip")
              )}
              {can("players.view") && (
                <ActionButton
                  disabled={platformId === null}
                  run={async () => setDetails(await send("GET", `/api/servers/${encodeURIComponent(serverId)}/actions/player/${platformId}`))}
                >
                  Details
                </ActionButton>
              )}
            </div>
            <div className="row">
              <label>
                X <input type="number" value={x} onChange={(e) => setX(e.target.value)} />
              </label>
              <label>
                Y <input type="number" value={y} onChange={(e) => setY(e.target.value)} />
              </label>
              <label>
                Z <input type="number" value={z} onChange={(e) => setZ(e.target.value)} />
              </label>
              {actionButton("teleport", "Teleport", { x: Number(x), y: Number(y), z: Number(z) })}
            </div>
            <div className="row">
              <label>
                Item class <input value={itemClass} onChange={(e) => setItemClass(e.target.value)} placeholder="AKM" />
              </label>
              <label>
                Quantity <input type="number" min={1} value={quantity} onChange={(e) => setQuantity(e.target.value)} />
              </label>
              {actionButton("spawn-item", "Spawn item", { itemClass, quantity: Number(quantity) })}
            </div>
            {details !== undefined && <PlayerDetails answer={details} />}
          </fieldset>
        </>
      )}
    </div>
  )
}

const CapabilitiesSummary = ({ capabilities }: { readonly capabilities: CapabilitiesView }) => (
  <details className="card">
    <summary>
      What can be done now: agent {capabilities.agent.configured ? (capabilities.agent.available ? "available" : `unavailable (${capabilities.agent.reason ?? "?"})`) : "not set up"}
    </summary>
    <div className="table-wrap">
      <table>
        <thead>
          <tr>
            <th scope="col">Action</th>
            <th scope="col">Provider</th>
          </tr>
        </thead>
        <tbody>
          {capabilities.actions
            .filter((a) => a.route.includes("/actions/"))
            .map((a) => (
              <tr key={a.route}>
                <td>{a.route.replace(/^.*\/actions\//, "")}</td>
                <td>{a.available ? (a.provider ?? "—") : <span className="muted">unavailable: {a.reason}</span>}</td>
              </tr>
            ))}
        </tbody>
      </table>
    </div>
  </details>
)

const PlayersTab = ({ serverId }: { readonly serverId: string }) => {
  const { me } = useSession()
  const players = useResource(() => api((c) => c.players.players({ path: { id: serverId } })), [serverId], { pollMs: 5000 })
  const capabilities = useResource(
    () => (allowed(me, "server.view", serverId) ? (send("GET", `/api/servers/${encodeURIComponent(serverId)}/actions/capabilities`) as Promise<CapabilitiesView>) : Promise.resolve(undefined)),
    [serverId]
  )
  const [selected, setSelected] = useState<number | undefined>()
  return (
    <div className="stack">
      {allowed(me, "chat.send", serverId) && <Broadcast serverId={serverId} />}
      {capabilities.data !== undefined && <CapabilitiesSummary capabilities={capabilities.data} />}
      <Loaded resource={players}>
        {(page) =>
          page.items.length === 0 ? (
            <p className="notice">No players online.</p>
          ) : (
            <>
              <div className="table-wrap">
                <table>
                  <caption className="sr-only">Online players</caption>
                  <thead>
                    <tr>
                      <th scope="col">#</th>
                      <th scope="col">Name</th>
                      <th scope="col" className="hide-narrow">Steam64</th>
                      <th scope="col">Ping</th>
                      <th scope="col">
                        <span className="sr-only">Actions</span>
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {page.items.map((p) => (
                      <tr key={p.guid + p.slot}>
                        <td>{p.slot}</td>
                        <td>
                          {p.name} {p.inLobby && <span className="badge">lobby</span>}
                        </td>
                        <td className="hide-narrow mono">{p.steam64 ?? "—"}</td>
                        <td>{p.ping}</td>
                        <td>
                          <button type="button" aria-expanded={selected === p.slot} onClick={() => setSelected(selected === p.slot ? undefined : p.slot)}>
                            {selected === p.slot ? "Close" : "Manage"}
                            <span className="sr-only"> {p.name}</span>
                          </button>
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
              {page.items
                .filter((p) => p.slot === selected)
                .map((p) => (
                  <PlayerPanel key={p.guid + p.slot} serverId={serverId} player={p} capabilities={capabilities.data} reload={players.reload} />
                ))}
            </>
          )
        }
      </Loaded>
    </div>
  )
}

export default PlayersTab
