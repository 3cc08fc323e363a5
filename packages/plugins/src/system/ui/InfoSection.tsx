/** Versions, the host, and the data directory's disk (used of total, as a meter). */
import { Fragment } from "react"
import { formatBytes, formatTime, Loaded, type Resource } from "@dashboard/ui/data.js"
import type { SystemInfo } from "../contract/Api.js"
import { formatPercent, formatSeconds } from "./format.js"

/** Used of total as a bar (SVG: the page may not set inline styles), red past 90 %. */
const Disk = ({ disk }: { readonly disk: NonNullable<SystemInfo["dataDir"]["disk"]> }) => {
  const share = disk.totalBytes > 0 ? Math.min(100, Math.max(0, (disk.usedBytes / disk.totalBytes) * 100)) : 0
  const text = `${formatBytes(disk.usedBytes)} used of ${formatBytes(disk.totalBytes)} (${formatPercent(share)}), ${formatBytes(disk.freeBytes)} free`
  return (
    <div className="stack">
      <span className={share > 90 ? "status-crashed" : "status-running"}>
        <svg
          width="100%"
          height="12"
          role="meter"
          aria-label="Data directory disk used"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={Math.round(share)}
          aria-valuetext={text}
        >
          <rect width="100%" height="12" rx="3" fill="currentColor" opacity="0.2" />
          <rect width={`${share.toFixed(1)}%`} height="12" rx="3" fill="currentColor" />
        </svg>
      </span>
      <span>{text}</span>
    </div>
  )
}

export const InfoSection = ({ info }: { readonly info: Resource<SystemInfo> }) => (
  <section className="stack" aria-labelledby="system-info-title">
    <h2 id="system-info-title">Versions and host</h2>
    <Loaded resource={info}>
      {(i) => (
        <div className="grid">
          <div className="card stack">
            <h3>Garrison</h3>
            <dl className="kv">
              <dt>Version</dt>
              <dd>{i.garrison.version}</dd>
              <dt>Started</dt>
              <dd>{formatTime(i.garrison.startedAt)}</dd>
              <dt>Up for</dt>
              <dd>{formatSeconds(i.garrison.uptimeSeconds)}</dd>
              <dt>Node.js</dt>
              <dd>{i.node.version}</dd>
              <dt>Database</dt>
              <dd>
                {i.database.engine === "sqlite" ? "SQLite" : "PostgreSQL"} {i.database.version ?? <span className="muted">(version unknown)</span>}
              </dd>
            </dl>
          </div>
          <div className="card stack">
            <h3>Libraries</h3>
            <dl className="kv">
              {Object.entries(i.libraries).map(([name, version]) => (
                <Fragment key={name}>
                  <dt className="mono">{name}</dt>
                  <dd>{version ?? <span className="muted">not found</span>}</dd>
                </Fragment>
              ))}
            </dl>
          </div>
          <div className="card stack">
            <h3>Host</h3>
            <dl className="kv">
              <dt>Name</dt>
              <dd className="break-anywhere">{i.os.hostname}</dd>
              <dt>System</dt>
              <dd>
                {i.os.platform} {i.os.release} ({i.os.arch})
              </dd>
              <dt>CPUs</dt>
              <dd>{i.os.cpus}</dd>
              <dt>Up for</dt>
              <dd>{formatSeconds(i.os.uptimeSeconds)}</dd>
            </dl>
          </div>
          <div className="card stack">
            <h3>Data directory</h3>
            <p className="mono break-anywhere">{i.dataDir.path}</p>
            {i.dataDir.disk === null ? <p className="muted">Its disk could not be read.</p> : <Disk disk={i.dataDir.disk} />}
          </div>
        </div>
      )}
    </Loaded>
  </section>
)
