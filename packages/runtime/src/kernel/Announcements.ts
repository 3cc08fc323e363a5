/**
 * Lines for the person starting the controller that only make sense once it
 * can be used: the first admin's one-time password, how to get a new one.
 * Plugins `announce` them while the runtime starts; they are logged once the
 * host listens (the HTTP host calls `release` after its port is open), or at
 * the end of the runtime's start when there is no host. A start that fails
 * before then prints none of them, so a one-time password is never shown
 * for a controller nobody can reach.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as LogLevel from "effect/LogLevel"
import * as Ref from "effect/Ref"

export interface Announcement {
  readonly level: LogLevel.LogLevel
  readonly message: string
}

export interface AnnouncementsShape {
  /** Holds a line until `release`; after it, logs at once. */
  readonly announce: (level: LogLevel.LogLevel, message: string) => Effect.Effect<void>
  /** Logs every held line, in order, once; later lines are logged as they come. */
  readonly release: Effect.Effect<void>
}

export class Announcements extends Context.Tag("@garrison/runtime/Announcements")<Announcements, AnnouncementsShape>() {
  static readonly make = Effect.gen(function* () {
    // `held` is undefined once released.
    const state = yield* Ref.make<ReadonlyArray<Announcement> | undefined>([])
    const log = ({ level, message }: Announcement) => Effect.logWithLevel(level, message)

    const announce: AnnouncementsShape["announce"] = (level, message) =>
      Effect.flatten(
        Ref.modify(state, (held) =>
          held === undefined ? [log({ level, message }), held] : [Effect.void, [...held, { level, message }]]
        )
      )

    const release: AnnouncementsShape["release"] = Effect.flatMap(Ref.getAndSet(state, undefined), (held) =>
      Effect.forEach(held ?? [], log, { discard: true })
    )

    return Announcements.of({ announce, release })
  })

  static readonly layer = Layer.effect(Announcements, Announcements.make)
}
