/**
 * The license settings: where the license server is (`LICENSE_SERVER_URL`;
 * unset: the community edition, nothing gated) and, optionally, the public
 * key its tokens are checked with (`LICENSE_PUBLIC_KEY`, an RSA public key
 * as PEM or as a JWK; unset: fetched from the server at activation and
 * pinned until the license is removed). The rhythm is fixed: a refresh
 * every 6 hours, 7 days of grace.
 */
import * as Config from "effect/Config"
import * as Duration from "effect/Duration"
import * as Option from "effect/Option"

/** How often the license is checked with its server (the plugin's job). */
export const REFRESH_INTERVAL = Duration.hours(6)
/** How long gated features keep working while the server cannot be reached, or while a payment failed. */
export const GRACE_PERIOD = Duration.days(7)
/** Without a successful check for this long the license counts as offline, even if no refresh has failed yet (a controller that was stopped). */
export const OFFLINE_AFTER = Duration.times(REFRESH_INTERVAL, 2)
/** Longest wait for one answer from the license server. */
export const SERVER_TIMEOUT = Duration.seconds(15)
/** The tiers list is asked from the server at most this often. */
export const TIERS_TTL = Duration.hours(6)
/** After a failed tiers fetch, the next is not tried before this. */
export const TIERS_RETRY = Duration.minutes(5)

export interface LicenseSettings {
  /** The server's base URL, without a trailing slash; none: the community edition. */
  readonly serverUrl: Option.Option<string>
  /** The configured public key (PEM or JWK text), when given. */
  readonly publicKey: Option.Option<string>
}

const httpUrl = (text: string) => {
  try {
    const url = new URL(text)
    return (url.protocol === "http:" || url.protocol === "https:") && url.search === "" && url.hash === ""
  } catch {
    return false
  }
}

export const licenseSettings: Config.Config<LicenseSettings> = Config.all({
  serverUrl: Config.option(
    Config.string("LICENSE_SERVER_URL").pipe(
      Config.map((text) => text.trim()),
      Config.validate({ message: "LICENSE_SERVER_URL must be an http(s) URL without query or fragment", validation: (text) => text === "" || httpUrl(text) }),
      Config.map((text) => text.replace(/\/+$/, ""))
    )
  ).pipe(Config.map(Option.filter((text) => text !== ""))),
  publicKey: Config.option(Config.string("LICENSE_PUBLIC_KEY")).pipe(
    Config.map(Option.map((text) => text.trim())),
    Config.map(Option.filter((text) => text !== ""))
  )
})

/** The URL as shown to admins: without user name or password. */
export const displayUrl = (text: string): string => {
  try {
    const url = new URL(text)
    url.username = ""
    url.password = ""
    return url.toString().replace(/\/+$/, "")
  } catch {
    return text
  }
}
