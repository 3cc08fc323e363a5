/**
 * World and vehicle actions of a server (`/api/servers/:id/actions/world/*`
 * and `/actions/vehicle/*`), each shown with the provider that would run it
 * now, or disabled with the reason none can.
 */
import { useState } from "react"
import { send } from "@dashboard/api/client.js"
import { allowed, useSession } from "@dashboard/app/session.js"
import { Loaded, useResource } from "@dashboard/ui/data.js"
import { ActionButton, useFeedback } from "@dashboard/ui/feedback.js"
import type { ActionReply, Capabilities } from "../contract/Api.js"

type CapabilitiesView = typeof Capabilities.Type

const WEATHER = ["overcast", "rain", "fog", "snow", "wind"] as const
const VEHICLE_OPS = ["repair", "refuel", "unstuck", "delete", "explode"] as const

const WorldTab = ({ serverId }: { readonly serverId: string }) => {
  const { me } = useSession()
  const feedback = useFeedback()
  const capabilities = useResource(() => send("GET", `/api/servers/${encodeURIComponent(serverId)}/actions/capabilities`) as Promise<CapabilitiesView>, [serverId])
  const [hour, setHour] = useState("12")
  const [minute, setMinute] = useState("0")
  const [weather, setWeather] = useState<Record<(typeof WEATHER)[number], number>>({ overcast: 0, rain: 0, fog: 0, snow: 0, wind: 0.2 })
  const [vehicleId, setVehicleId] = useState("")
  const canRun = allowed(me, "server.rcon", serverId)

  const button = (caps: CapabilitiesView, path: string, label: string, body: Record<string, unknown> = {}, danger = false) => {
    const route = caps.actions.find((a) => a.route.endsWith(`/actions/${path}`))
    const why = !canRun ? "needs server.rcon on this server" : route === undefined ? "not offered by this controller" : route.available ? undefined : (route.reason ?? "unavailable")
    return (
      <ActionButton
        key={path}
        className={danger ? "danger" : undefined}
        disabled={why !== undefined}
        title={why ?? (route?.provider === null || route === undefined ? undefined : `via ${route.provider}`)}
        confirm={danger ? { title: `${label}?`, body: "This cannot be undone.", confirmLabel: label, danger: true } : undefined}
        run={async () => {
          const reply = (await send("POST", route!.route.replace(":id", encodeURIComponent(serverId)), body)) as typeof ActionReply.Type
          feedback.ok(`${label}: done (via ${reply.provider})`)
        }}
      >
        {label}
      </ActionButton>
    )
  }

  return (
    <Loaded resource={capabilities}>
      {(caps) => (
        <div className="stack">
          {!caps.agent.available && (
            <p className="notice warn">
              {caps.agent.configured ? `The agent is unavailable: ${caps.agent.reason ?? "no answer"}.` : "No agent is set up for this server: world and vehicle actions need one (set its URL in the server entry)."}
            </p>
          )}
          <fieldset className="stack">
            <legend>Time of day</legend>
            <div className="row">
              <label>
                Hour <input type="number" min={0} max={23} value={hour} onChange={(e) => setHour(e.target.value)} />
              </label>
              <label>
                Minute <input type="number" min={0} max={59} value={minute} onChange={(e) => setMinute(e.target.value)} />
              </label>
              {button(caps, "world/time", "Set time", { hour: Number(hour), minute: Number(minute) })}
            </div>
          </fieldset>
          <fieldset className="stack">
            <legend>Weather (0 to 1)</legend>
            <div className="grid">
              {WEATHER.map((name) => (
                <label key={name}>
                  {name} ({weather[name].toFixed(2)})
                  <input type="range" min={0} max={1} step={0.05} value={weather[name]} onChange={(e) => setWeather({ ...weather, [name]: Number(e.target.value) })} />
                </label>
              ))}
            </div>
            <div className="row">
              {button(caps, "world/weather", "Set weather", weather)}
              {button(caps, "world/sunny", "Clear weather")}
            </div>
          </fieldset>
          <fieldset className="stack">
            <legend>Clean-up</legend>
            <div className="row">
              {button(caps, "world/wipe-ai", "Remove all AI", {}, true)}
              {button(caps, "world/wipe-vehicles", "Remove all vehicles", {}, true)}
            </div>
          </fieldset>
          <fieldset className="stack">
            <legend>A vehicle</legend>
            <div className="row">
              <label className="grow">
                Vehicle id <input value={vehicleId} onChange={(e) => setVehicleId(e.target.value.trim())} />
              </label>
              {VEHICLE_OPS.map((op) =>
                vehicleId === "" ? (
                  <button key={op} type="button" disabled>
                    {op[0]!.toUpperCase() + op.slice(1)}
                  </button>
                ) : (
                  button(caps, `vehicle/${op}`, op[0]!.toUpperCase() + op.slice(1), { vehicleId }, op === "delete" || op === "explode")
                )
              )}
            </div>
          </fieldset>
        </div>
      )}
    </Loaded>
  )
}

export default WorldTab
