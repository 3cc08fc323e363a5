/**
 * One workshop item in a list: its title, size, last update and
 * subscribers; "Details" opens what Steam says of it (read again, in plain
 * words), and "Install on server…" the install form when the user may
 * install mods on some server.
 */
import { useId, useState } from "react"
import { formatBytes, Loaded, useResource } from "@dashboard/ui/data.js"
import type { WorkshopItem } from "../contract/Api.js"
import { platformApi } from "./client.js"
import { InstallOnServer, type ServerChoice } from "./InstallOnServer.js"
import { formatCount, formatDay, workshopItemUrl } from "./words.js"

/** Steam descriptions are written in its BBCode: the tags go, the words stay. */
const plainText = (bbcode: string): string =>
  bbcode
    .replace(/\[\/?[a-z0-9*]+(?:=[^\]]*)?\]/gi, "")
    .replace(/\n{3,}/g, "\n\n")
    .trim()

const DESCRIPTION_CHARS = 1200

const Details = ({ workshopId, id }: { readonly workshopId: string; readonly id: string }) => {
  const details = useResource(() => platformApi((c) => c.workshop.details({ path: { id: workshopId } })), [workshopId])
  return (
    <div id={id} className="stack">
      <Loaded resource={details}>
        {(item) => {
          const text = plainText(item.description)
          return (
            <>
              {item.banned && <p className="notice warn">Steam has banned this item from the workshop.</p>}
              <dl className="kv">
                <dt>Workshop id</dt>
                <dd className="mono">{item.workshopId}</dd>
                <dt>Size</dt>
                <dd>{formatBytes(item.sizeBytes)}</dd>
                <dt>Published</dt>
                <dd>{formatDay(item.timeCreated)}</dd>
                <dt>Last updated</dt>
                <dd>{formatDay(item.timeUpdated)}</dd>
                <dt>Subscribers</dt>
                <dd>{formatCount(item.subscriptions)}</dd>
                <dt>Tags</dt>
                <dd>{item.tags.length === 0 ? "none" : item.tags.join(", ")}</dd>
                <dt>On Steam</dt>
                <dd>
                  <a href={workshopItemUrl(item.workshopId)} target="_blank" rel="noreferrer noopener">
                    Workshop page<span className="sr-only"> of {item.title}</span>
                  </a>
                </dd>
              </dl>
              {text !== "" && <p className="workshop-description">{text.length > DESCRIPTION_CHARS ? `${text.slice(0, DESCRIPTION_CHARS)}…` : text}</p>}
            </>
          )
        }}
      </Loaded>
    </div>
  )
}

export const WorkshopItemCard = ({ item, servers }: { readonly item: WorkshopItem; readonly servers: ReadonlyArray<ServerChoice> }) => {
  const id = useId()
  const [open, setOpen] = useState<"details" | "install" | undefined>(undefined)
  const toggle = (what: "details" | "install") => setOpen((current) => (current === what ? undefined : what))
  return (
    <li className="card stack">
      <div className="row">
        <h3 id={`${id}-title`} className="grow">
          {item.title}
        </h3>
        {item.banned && <span className="badge status-crashed">banned</span>}
      </div>
      <p className="muted">
        {formatBytes(item.sizeBytes)} · updated {formatDay(item.timeUpdated)} · {formatCount(item.subscriptions)} subscribers
      </p>
      <div className="row">
        <button type="button" aria-expanded={open === "details"} aria-controls={open === "details" ? `${id}-details` : undefined} onClick={() => toggle("details")}>
          Details<span className="sr-only"> of {item.title}</span>
        </button>
        {servers.length > 0 && (
          <button type="button" aria-expanded={open === "install"} aria-controls={open === "install" ? `${id}-install` : undefined} onClick={() => toggle("install")}>
            Install on server…<span className="sr-only"> ({item.title})</span>
          </button>
        )}
      </div>
      {open === "details" && <Details workshopId={item.workshopId} id={`${id}-details`} />}
      {open === "install" && (
        <div id={`${id}-install`}>
          <InstallOnServer item={item} servers={servers} />
        </div>
      )}
    </li>
  )
}
