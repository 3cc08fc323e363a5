/**
 * The webhooks plugin's settings, read through Effect `Config` (the
 * environment by default) and checked before anything is written:
 *
 * | Variable | Default | Meaning |
 * |---|---|---|
 * | `WEBHOOKS_ALLOW_PRIVATE` | `false` | `true` lets webhooks reach private, loopback and link-local addresses |
 * | `WEBHOOKS_REQUEST_TIMEOUT` | `10 seconds` | How long one attempt may wait for an answer (1 s to 2 min) |
 * | `WEBHOOKS_CONCURRENCY` | `2` | Attempts under way at once per webhook (1 to 16) |
 * | `WEBHOOKS_DISABLE_AFTER` | `24 hours` | How long a delivery is retried, and how long a webhook whose every attempt fails is kept before it is disabled |
 * | `WEBHOOKS_LOG_RETENTION` | `30 days` | How long finished deliveries stay in the log (the newest 1,000 per webhook at most) |
 */
import * as Config from "effect/Config"
import * as Duration from "effect/Duration"

export interface WebhooksSettings {
  readonly allowPrivate: boolean
  readonly requestTimeout: Duration.Duration
  readonly concurrency: number
  readonly disableAfter: Duration.Duration
  readonly logRetention: Duration.Duration
}

const durationBetween = (name: string, min: Duration.Duration, max: Duration.Duration, example: string) =>
  Config.duration(name).pipe(
    Config.validate({
      message: `${name} must be a duration from ${Duration.format(min)} to ${Duration.format(max)}, e.g. "${example}"`,
      validation: (d) => Duration.greaterThanOrEqualTo(d, min) && Duration.lessThanOrEqualTo(d, max)
    })
  )

export const webhooksConfig: Config.Config<WebhooksSettings> = Config.all({
  allowPrivate: Config.boolean("WEBHOOKS_ALLOW_PRIVATE").pipe(Config.withDefault(false)),
  requestTimeout: durationBetween("WEBHOOKS_REQUEST_TIMEOUT", Duration.seconds(1), Duration.minutes(2), "10 seconds").pipe(
    Config.withDefault(Duration.seconds(10))
  ),
  concurrency: Config.integer("WEBHOOKS_CONCURRENCY").pipe(
    Config.validate({ message: "WEBHOOKS_CONCURRENCY must be an integer from 1 to 16", validation: (n) => n >= 1 && n <= 16 }),
    Config.withDefault(2)
  ),
  disableAfter: durationBetween("WEBHOOKS_DISABLE_AFTER", Duration.minutes(10), Duration.days(30), "24 hours").pipe(
    Config.withDefault(Duration.hours(24))
  ),
  logRetention: durationBetween("WEBHOOKS_LOG_RETENTION", Duration.hours(1), Duration.days(3650), "30 days").pipe(
    Config.withDefault(Duration.days(30))
  )
})
