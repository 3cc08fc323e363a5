/**
 * Server trouble as notifications: each crash (and what the watchdog does
 * about it), each watchdog restart and the watchdog giving up reach the
 * users who may view that server. A failed watchdog restart is not one of
 * its own: the crash it counts as follows with the reason.
 */
import { on, ServerCrashed, ServerRestarted } from "@garrison/runtime"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type { Audience, NotificationInput } from "../contract/Api.js"
import { Notifications } from "../Notifications.js"

/**
 * Who is told about a server: holders of `server.view` (and admins). The
 * notification names its server (`serverId`), so a role scoped to some
 * servers sees only theirs, and `server.view` held on this server alone
 * is enough.
 */
export const serverAudience = (_serverId: string): Audience => ({ permission: "server.view" })

/** Where a notification about a server points in the dashboard. */
const serverLink = (serverId: string) => `/servers/${encodeURIComponent(serverId)}`

/** Titles hold at most 200 characters and messages 4000: a long server name or error is cut, never refused. */
const cut = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`)

/**
 * A notification about a server, for whoever may view it (`serverAudience`),
 * linked to its page; a long title or message is cut, never refused.
 * Other plugins make theirs with it (rollouts, updates, backups, the
 * scheduler), so every server notice reads and reaches alike.
 */
export const aboutServer = (serverId: string, alert: Pick<NotificationInput, "level" | "title" | "message">): NotificationInput => ({
  audience: serverAudience(serverId),
  serverId,
  link: serverLink(serverId),
  level: alert.level,
  title: cut(alert.title, 200),
  message: cut(alert.message, 4000)
})

export const crashAlert = (event: ServerCrashed): NotificationInput => {
  switch (event.watchdog) {
    case "restarting":
      return aboutServer(event.serverId, {
        level: "warning",
        title: `${event.name} crashed`,
        message:
          `${event.reason}. The watchdog restarts it in ${Duration.format(Duration.millis(event.restartInMs ?? 0))} ` +
          `(crash ${event.consecutiveCrashes} in a row).`
      })
    case "gave-up":
      return aboutServer(event.serverId, {
        level: "error",
        title: `${event.name} is down: the watchdog gave up`,
        message: `${event.reason}. After ${event.consecutiveCrashes} crashes in a row the watchdog stopped restarting it; start it by hand once the cause is fixed.`
      })
    case "operation":
      // The watchdog stays out while a rollout watches the server: the rollout decides, and its own notification follows.
      return aboutServer(event.serverId, {
        level: "warning",
        title: event.operation === "mod-rollout" ? `${event.name} crashed during a rollout` : `${event.name} crashed during its ${event.operation ?? "operation"}`,
        message:
          event.operation === "mod-rollout"
            ? `${event.reason}. The rollout running on it handles this, not the watchdog: a crash after the new versions went on makes it put the previous versions back and start the server again. Another notification says how the rollout ended.`
            : `${event.reason}. The ${event.operation ?? "operation"} running on it handles this, not the watchdog.`
      })
    case "off":
      return aboutServer(event.serverId, {
        level: "error",
        title: `${event.name} crashed`,
        message: `${event.reason}. Its watchdog is off, so it stays down until someone starts it.`
      })
  }
}

export const restartAlert = (event: ServerRestarted): NotificationInput | undefined =>
  event.reason === "watchdog" && event.ok
    ? aboutServer(event.serverId, {
        level: "info",
        title: `${event.name} was restarted by the watchdog`,
        message: `It is running again after: ${event.crash ?? "a crash"}.`
      })
    : undefined

const publish = (input: NotificationInput | undefined) =>
  input === undefined ? Effect.void : Effect.flatMap(Notifications, (notifications) => notifications.publish(input))

/**
 * For other plugins' bus handlers: publishes `input` when the notifications
 * plugin is loaded (nothing otherwise: a controller without it has no
 * inbox), and logs a refusal or a store failure instead of failing the
 * handler.
 */
export const notifyIfLoaded = (input: NotificationInput | undefined): Effect.Effect<void> =>
  input === undefined
    ? Effect.void
    : Effect.flatMap(Effect.serviceOption(Notifications), (found) =>
        Option.match(found, {
          onNone: () => Effect.void,
          onSome: (notifications) =>
            notifications.publish(input).pipe(
              Effect.asVoid,
              Effect.catchAll((error) => Effect.logWarning(`notification "${input.title}" was not stored: ${error.message}`))
            )
        })
      )

export const serverAlertHandlers = [
  on(ServerCrashed, (event) => publish(crashAlert(event)), "serverCrashed"),
  on(ServerRestarted, (event) => publish(restartAlert(event)), "serverRestarted")
]
