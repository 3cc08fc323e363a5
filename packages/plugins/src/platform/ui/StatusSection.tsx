/** What `GET /api/platform/status` says, in words: SteamCMD, the Steam Web API, the stored account, the workshop cache. */
import { formatTime } from "@dashboard/ui/data.js"
import type { PlatformStatus } from "../contract/Api.js"
import { SOURCE_WORDS } from "./words.js"

const minutes = (seconds: number) => (seconds % 60 === 0 ? `${seconds / 60} minute${seconds === 60 ? "" : "s"}` : `${seconds} seconds`)

export const StatusSection = ({ status }: { readonly status: PlatformStatus }) => {
  const { steamcmd, webApi, credentials, workshopCache } = status
  return (
    <section className="card stack" aria-labelledby="platform-status-title">
      <h2 id="platform-status-title">Status</h2>
      <dl className="kv">
        <dt>SteamCMD</dt>
        <dd>
          {steamcmd.available ? (
            <span className="badge status-running">found</span>
          ) : (
            <span className="badge status-crashed">not found</span>
          )}{" "}
          <span className="mono break-anywhere">{steamcmd.resolved ?? steamcmd.path}</span>
        </dd>
        <dt>Its path from</dt>
        <dd>{SOURCE_WORDS[steamcmd.source]}</dd>
        <dt>Steam Web API</dt>
        <dd className="mono break-anywhere">{webApi.url}</dd>
        <dt>Its address from</dt>
        <dd>{SOURCE_WORDS[webApi.source]}</dd>
        <dt>Web API key</dt>
        <dd>{webApi.keySet ? "set" : "not set (Steam refuses workshop searches without one)"}</dd>
        <dt>Steam account</dt>
        <dd>
          {!credentials.configured ? (
            "none: downloads cannot sign in"
          ) : (
            <>
              <span className="mono">{credentials.username ?? "set"}</span>{" "}
              {credentials.validatedAt !== null ? (
                <span className="badge status-running">signed in</span>
              ) : (
                <span className="badge status-starting">not checked yet</span>
              )}
            </>
          )}
        </dd>
        {credentials.configured && (
          <>
            <dt>Account checked</dt>
            <dd>{credentials.validatedAt !== null ? `by a SteamCMD sign-in ${formatTime(credentials.validatedAt)}` : "not yet: the first download signs in with it"}</dd>
            <dt>Account saved</dt>
            <dd>{formatTime(credentials.savedAt)}</dd>
          </>
        )}
        <dt>Workshop answers kept</dt>
        <dd>
          {workshopCache.entries} for {minutes(workshopCache.ttlSeconds)}
        </dd>
      </dl>
    </section>
  )
}
