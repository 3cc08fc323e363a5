/** Failed calls to game servers: RCON (timeout, login refused, socket error) and the agent (by its error), per server. */
import type { FailureSource } from "@garrison/runtime"
import { Counter, type Registry } from "prom-client"

export const makeFailureMetrics = (registry: Registry) => {
  const counters: Record<FailureSource, Counter<"server" | "kind">> = {
    rcon: new Counter({
      name: "garrison_rcon_errors_total",
      help: "Failed RCON connections and commands, by server and kind (timeout, login-refused, socket-error).",
      labelNames: ["server", "kind"],
      registers: [registry]
    }),
    agent: new Counter({
      name: "garrison_agent_errors_total",
      help:
        "Failed calls to a server's agent, by server and kind (unreachable, timeout, unauthorized, unavailable, " +
        "mod-error, invalid-input, bad-response).",
      labelNames: ["server", "kind"],
      registers: [registry]
    })
  }
  // Rare (a failure), so the label lookup per call is fine here.
  return (source: FailureSource, serverId: string, kind: string): void => counters[source].inc({ server: serverId, kind })
}
