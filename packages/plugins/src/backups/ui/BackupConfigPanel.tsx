/** A server's backup config: schedule, retention (per type and tiers) and paths, and a small form for the schedule and the retention. */
import { useState } from "react"
import { api } from "@dashboard/api/client.js"
import { formatTime, Loaded, type Resource } from "@dashboard/ui/data.js"
import { Spinner, SubmitButton, useSubmit } from "@dashboard/ui/feedback.js"
import { type BackupConfigView, BackupType, Tier } from "../contract/Api.js"

const TYPES = BackupType.literals
const TIERS = Tier.literals
const TIER_UNITS: Readonly<Record<(typeof TIERS)[number], string>> = { hourly: "hours", daily: "days", weekly: "weeks", monthly: "months" }

/** File paths, one a line, broken anywhere on a narrow screen. */
export const PathList = ({ paths }: { readonly paths: ReadonlyArray<string> }) =>
  paths.length === 0 ? (
    <>—</>
  ) : (
    <ul className="plain mono break-anywhere">
      {paths.map((path) => (
        <li key={path}>{path}</li>
      ))}
    </ul>
  )

const ConfigForm = ({
  serverId,
  config,
  saved,
  cancel
}: {
  readonly serverId: string
  readonly config: BackupConfigView
  readonly saved: (config: BackupConfigView) => void
  readonly cancel: () => void
}) => {
  const [interval, setIntervalMinutes] = useState(String(config.intervalMinutes))
  const [keep, setKeep] = useState<Record<string, string>>(Object.fromEntries(TYPES.map((t) => [t, String(config.keep[t])])))
  const [tiers, setTiers] = useState<Record<string, string>>(Object.fromEntries(TIERS.map((t) => [t, String(config.tiers[t])])))
  const { busy, submit } = useSubmit(async () => {
    const next = await api((c) =>
      c.backups.setConfig({
        path: { id: serverId },
        payload: {
          intervalMinutes: Number(interval),
          keep: Object.fromEntries(TYPES.map((t) => [t, Number(keep[t])])),
          tiers: Object.fromEntries(TIERS.map((t) => [t, Number(tiers[t])]))
        }
      })
    )
    saved(next)
  }, "Backup config saved")
  return (
    <form className="card stack" onSubmit={submit} aria-label="Change the backup config">
      <label>
        Interval in minutes (0: no scheduled backups)
        <input type="number" inputMode="numeric" min={0} max={43200} step={1} required value={interval} onChange={(e) => setIntervalMinutes(e.target.value)} />
      </label>
      <fieldset>
        <legend>Keep the newest, per type</legend>
        <div className="grid">
          {TYPES.map((t) => (
            <label key={t}>
              {t}
              <input type="number" inputMode="numeric" min={1} max={1000} step={1} required value={keep[t]} onChange={(e) => setKeep((k) => ({ ...k, [t]: e.target.value }))} />
            </label>
          ))}
        </div>
      </fieldset>
      <fieldset>
        <legend>Also keep the newest backup of each of the last (0: tier off)</legend>
        <div className="grid">
          {TIERS.map((t) => (
            <label key={t}>
              {TIER_UNITS[t]} ({t})
              <input type="number" inputMode="numeric" min={0} max={1000} step={1} required value={tiers[t]} onChange={(e) => setTiers((k) => ({ ...k, [t]: e.target.value }))} />
            </label>
          ))}
        </div>
      </fieldset>
      <div className="row">
        <SubmitButton busy={busy} busyLabel="Saving">
          Save backup config
        </SubmitButton>
        <button type="button" onClick={cancel}>
          Cancel
        </button>
      </div>
    </form>
  )
}

export const BackupConfigPanel = ({ serverId, config, canEdit }: { readonly serverId: string; readonly config: Resource<BackupConfigView>; readonly canEdit: boolean }) => {
  const [editing, setEditing] = useState(false)
  return (
    <section className="stack" aria-labelledby="backup-config-title">
      <h2 id="backup-config-title">Backup config</h2>
      {/* One `.loading` block per page at a time (the backups list has it): a quieter spinner here while the config loads. */}
      {config.data === undefined && config.error === undefined ? (
        <p className="muted">
          <Spinner label="Loading the backup config" /> Loading…
        </p>
      ) : (
        <Loaded resource={config}>
          {(c) =>
            editing ? (
              <ConfigForm
                serverId={serverId}
                config={c}
                saved={(next) => {
                  config.set(() => next)
                  setEditing(false)
                }}
                cancel={() => setEditing(false)}
              />
            ) : (
              <>
                <dl className="kv card">
                  <dt>Schedule</dt>
                  <dd>{c.intervalMinutes === 0 ? "off (interval 0)" : `every ${c.intervalMinutes} minutes`}</dd>
                  <dt>Next scheduled</dt>
                  <dd>{formatTime(c.nextScheduledAt)}</dd>
                  <dt>Keep per type</dt>
                  <dd>{TYPES.map((t) => `${t} ${c.keep[t]}`).join(", ")}</dd>
                  <dt>Tiers</dt>
                  <dd>{TIERS.map((t) => `${c.tiers[t]} ${t}`).join(", ")}</dd>
                  <dt>Paths</dt>
                  <dd>
                    {c.paths === null && <span className="muted">the defaults:</span>}
                    <PathList paths={c.paths ?? c.defaultPaths} />
                  </dd>
                  <dt>Log files</dt>
                  <dd>{c.excludeLogs ? "left out" : "included"}</dd>
                </dl>
                {canEdit && (
                  <div>
                    <button type="button" onClick={() => setEditing(true)}>
                      Change schedule and retention
                    </button>
                  </div>
                )}
              </>
            )
          }
        </Loaded>
      )}
    </section>
  )
}
