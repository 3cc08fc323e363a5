/**
 * A fake Steam Web API for DayZ's workshop, answering from the same
 * catalogue.json as the SteamCMD stand-in (read at every request):
 *
 * - `POST /ISteamRemoteStorage/GetPublishedFileDetails/v1/` (form body
 *   `itemcount=N&publishedfileids[0]=...`): details per id, `result: 9`
 *   for an unknown or removed one;
 * - `GET /IPublishedFileService/QueryFiles/v1/?key=&query_type=&page=&numperpage=&search_text=&appid=221100`:
 *   a page of items (removed and banned ones left out), by relevance or subscriptions.
 *
 * Answers are Steam's shapes, field for field, including its HTML error
 * pages (400 for a bad form, 403 for a wrong key) and Steam's habit of
 * leaving out an empty list.
 */
import { createHash } from "node:crypto"
import * as Http from "node:http"
import type { AddressInfo } from "node:net"
import { type CatalogueItem, DAYZ_APP_ID, readCatalogue } from "./catalogue.js"
import { itemManifestId } from "./itemFiles.js"

export interface WebApiOptions {
  /** The stand-in's folder (where catalogue.json is). */
  readonly dir: string
  /** Default 0: any free port. */
  readonly port?: number
  /** Default 127.0.0.1. */
  readonly host?: string
}

export interface WebApi {
  /** `http://host:port`, no trailing slash: Garrison's STEAM_WEB_API_URL. */
  readonly url: string
  readonly close: () => Promise<void>
}

const errorPage = (title: string, body: string) => `<html><head><title>${title}</title></head><body><h1>${title}</h1>${body}</body></html>`

export const FORBIDDEN_PAGE = errorPage(
  "Forbidden",
  "Access is denied. Retrying will not help. Please verify your <pre>key=</pre> parameter."
)
export const BAD_REQUEST_PAGE = errorPage("Bad Request", "Please verify that all required parameters are being sent")
const NOT_FOUND_PAGE = errorPage("Not Found", "Not Found")

const hash = (...parts: ReadonlyArray<string | number>) => createHash("sha256").update(parts.join(":")).digest()

/** A stable fake SteamID64 for an item's author. */
const creatorOf = (id: string) => (76561197960265728n + BigInt(hash("creator", id).readUInt32BE(0))).toString()

/** One item in `publishedfiledetails`, fields in Steam's order. */
export const publishedFileDetails = (id: string, item: CatalogueItem, options: { tags?: boolean } = {}) => {
  const preview = hash("preview", id).readBigUInt64BE(0) & 0x0fffffffffffffffn
  return {
    publishedfileid: id,
    result: 1,
    creator: creatorOf(id),
    creator_app_id: DAYZ_APP_ID,
    consumer_app_id: DAYZ_APP_ID,
    filename: "",
    file_size: String(item.sizeBytes),
    file_url: "",
    hcontent_file: itemManifestId(id, item.version),
    preview_url: `https://steamuserimages-a.akamaihd.net/ugc/${preview}/${hash("url", id).toString("hex").slice(0, 40).toUpperCase()}/`,
    hcontent_preview: preview.toString(),
    title: item.title,
    description: item.description,
    time_created: item.timeCreated,
    time_updated: item.timeUpdated,
    visibility: 0,
    banned: item.banned === true ? 1 : 0,
    ban_reason: "",
    subscriptions: item.subscriptions,
    favorited: Math.floor(item.subscriptions / 20),
    lifetime_subscriptions: Math.floor(item.subscriptions * 1.8),
    lifetime_favorited: Math.floor(item.subscriptions / 15),
    views: item.subscriptions * 4,
    ...(options.tags === false ? {} : { tags: item.tags.map((tag) => ({ tag })) })
  }
}

interface Reply {
  readonly status: number
  readonly body: string
  readonly type: "json" | "html"
}

const json = (value: unknown): Reply => ({ status: 200, body: JSON.stringify(value), type: "json" })
const html = (status: number, body: string): Reply => ({ status, body, type: "html" })

/** `GetPublishedFileDetails`: `itemcount` must be a number matching the ids given. */
export const getPublishedFileDetails = (dir: string, form: URLSearchParams): Reply => {
  const countText = form.get("itemcount")
  const count = Number(countText)
  if (countText === null || countText.trim() === "" || !Number.isInteger(count) || count < 1) return html(400, BAD_REQUEST_PAGE)
  const ids: Array<string> = []
  for (let i = 0; i < count; i++) {
    const id = form.get(`publishedfileids[${i}]`)
    if (id === null) return html(400, BAD_REQUEST_PAGE)
    ids.push(id)
  }
  if (form.has(`publishedfileids[${count}]`)) return html(400, BAD_REQUEST_PAGE)
  const { items } = readCatalogue(dir)
  const details = ids.map((id) => {
    const item = items[id]
    return item === undefined || item.removed === true ? { publishedfileid: id, result: 9 } : publishedFileDetails(id, item)
  })
  return json({ response: { result: 1, resultcount: details.length, publishedfiledetails: details } })
}

const truthy = (value: string | null) => value === "1" || value?.toLowerCase() === "true"

/** `QueryFiles`: search and ranking over the live (not removed, not banned) items. */
export const queryFiles = (dir: string, query: URLSearchParams): Reply => {
  const catalogue = readCatalogue(dir)
  const key = catalogue.behaviour.webApiKey
  if (key !== null && query.get("key") !== key) return html(403, FORBIDDEN_PAGE)
  const appId = query.get("appid") ?? query.get("creator_appid") ?? String(DAYZ_APP_ID)
  const queryType = Number(query.get("query_type") ?? 0)
  const page = Math.max(1, Math.floor(Number(query.get("page") ?? 1)) || 1)
  const perPage = Math.min(100, Math.max(1, Math.floor(Number(query.get("numperpage") ?? 10)) || 10))
  const text = (query.get("search_text") ?? "").trim().toLowerCase()

  const live = Object.entries(catalogue.items).filter(([, item]) => item.removed !== true && item.banned !== true)
  const matching =
    appId !== String(DAYZ_APP_ID)
      ? []
      : live.filter(([, item]) => text === "" || item.title.toLowerCase().includes(text) || item.description.toLowerCase().includes(text))
  // 12 (ranked by text search): title matches first; every order falls back to subscriptions, most first.
  const relevance = ([, item]: readonly [string, CatalogueItem]) => (queryType === 12 && text !== "" && item.title.toLowerCase().includes(text) ? 1 : 0)
  const ranked = [...matching].sort((a, b) => relevance(b) - relevance(a) || b[1].subscriptions - a[1].subscriptions || a[0].localeCompare(b[0]))
  const pageItems = ranked.slice((page - 1) * perPage, page * perPage)
  const withDetails = query.get("return_details") === null || truthy(query.get("return_details"))
  const details = pageItems.map(([id, item]) =>
    withDetails ? publishedFileDetails(id, item, { tags: truthy(query.get("return_tags")) }) : { publishedfileid: id, result: 1 }
  )
  // Steam leaves an empty list out altogether.
  return json({ response: details.length === 0 ? { total: ranked.length } : { total: ranked.length, publishedfiledetails: details } })
}

const readBody = (request: Http.IncomingMessage): Promise<string> =>
  new Promise((resolve, reject) => {
    const chunks: Array<Buffer> = []
    let size = 0
    request.on("data", (chunk: Buffer) => {
      size += chunk.length
      // A form of ids is small; anything this big is not one.
      if (size > 1_000_000) request.destroy(new Error("body too large"))
      else chunks.push(chunk)
    })
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")))
    request.on("error", reject)
  })

const route = async (dir: string, request: Http.IncomingMessage): Promise<Reply> => {
  const url = new URL(request.url ?? "/", "http://localhost")
  const path = url.pathname.endsWith("/") ? url.pathname : `${url.pathname}/`
  if (path === "/ISteamRemoteStorage/GetPublishedFileDetails/v1/") {
    if (request.method !== "POST") return html(404, NOT_FOUND_PAGE)
    return getPublishedFileDetails(dir, new URLSearchParams(await readBody(request)))
  }
  if (path === "/IPublishedFileService/QueryFiles/v1/" && request.method === "GET") return queryFiles(dir, url.searchParams)
  return html(404, NOT_FOUND_PAGE)
}

export const startWebApi = (options: WebApiOptions): Promise<WebApi> => {
  const host = options.host ?? "127.0.0.1"
  const server = Http.createServer((request, response) => {
    route(options.dir, request).then(
      (reply) => {
        response.writeHead(reply.status, {
          "content-type": reply.type === "json" ? "application/json; charset=UTF-8" : "text/html; charset=UTF-8",
          "content-length": Buffer.byteLength(reply.body)
        })
        response.end(reply.body)
      },
      (error: unknown) => {
        const body = errorPage("Internal Server Error", error instanceof Error ? error.message.replace(/[<>&]/g, "") : "error")
        response.writeHead(500, { "content-type": "text/html; charset=UTF-8" })
        response.end(body)
      }
    )
  })
  return new Promise((resolve, reject) => {
    server.once("error", reject)
    server.listen(options.port ?? 0, host, () => {
      const { port } = server.address() as AddressInfo
      const shown = host.includes(":") ? `[${host}]` : host
      resolve({
        url: `http://${shown}:${port}`,
        close: () =>
          new Promise<void>((done, fail) => {
            server.close((error) => (error ? fail(error) : done()))
            server.closeAllConnections()
          })
      })
    })
  })
}
