/** How the controller runs: under systemd (its unit's state) or in the foreground (its pid). */
import { formatTime, Loaded, type Resource } from "@dashboard/ui/data.js"
import type { ServiceState } from "../contract/Api.js"

const yesNo = (value: boolean) => (value ? "yes" : "no")

const SYSTEMCTL: Readonly<Record<ServiceState["systemd"]["systemctl"], string>> = {
  missing: "systemctl is not installed on this host.",
  ok: "",
  failed: "systemctl gave no answer (no systemd as PID 1, as in a container, or it timed out)."
}

const Unit = ({ unit }: { readonly unit: NonNullable<ServiceState["systemd"]["unit"]> }) => (
  <dl className="kv">
    <dt>Unit</dt>
    <dd className="mono">{unit.name}</dd>
    <dt>Installed</dt>
    <dd>{unit.present ? "yes" : "no (no unit file)"}</dd>
    {unit.present && (
      <>
        <dt>Active</dt>
        <dd>
          <span className={`badge ${unit.activeState === "active" ? "status-running" : unit.activeState === "failed" ? "status-crashed" : ""}`}>{unit.activeState}</span>
        </dd>
        <dt>Enabled at boot</dt>
        <dd>
          {yesNo(unit.enabled)}
          {unit.unitFileState !== "" && <span className="muted"> ({unit.unitFileState})</span>}
        </dd>
        <dt>Main pid</dt>
        <dd>{unit.mainPid ?? "—"}</dd>
      </>
    )}
  </dl>
)

export const ServiceSection = ({ service }: { readonly service: Resource<ServiceState> }) => (
  <section className="stack" aria-labelledby="system-service-title">
    <h2 id="system-service-title">Service</h2>
    <Loaded resource={service}>
      {(s) => (
        <div className="card stack">
          <div className="stack">
            <h3>This process</h3>
            <p>
              {s.manager === "systemd" ? (
                <>
                  <span className="badge status-running">systemd</span> Started by systemd.
                </>
              ) : (
                <>
                  <span className="badge">foreground</span> Running in the foreground, not under systemd.
                </>
              )}
            </p>
            <dl className="kv">
              <dt>Pid</dt>
              <dd>{s.pid}</dd>
              <dt>Parent pid</dt>
              <dd>{s.ppid}</dd>
              <dt>User</dt>
              <dd>{s.user ?? <span className="muted">unknown</span>}</dd>
              <dt>Started</dt>
              <dd>{formatTime(s.startedAt)}</dd>
              {s.manager === "systemd" && (
                <>
                  <dt>Readiness socket</dt>
                  <dd>{s.systemd.notifySocket ? "set" : "not set"}</dd>
                </>
              )}
            </dl>
          </div>
          <div className="stack">
            <h3>systemd unit</h3>
            {s.systemd.unit !== null ? <Unit unit={s.systemd.unit} /> : <p className="muted">{SYSTEMCTL[s.systemd.systemctl] || "No answer about the unit."}</p>}
          </div>
        </div>
      )}
    </Loaded>
  </section>
)
