/** The fake Steam Web API in process: details, search, Steam's error pages. */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { publishItemVersion, setBehaviour, startWebApi, type WebApi } from "../src/index.js"
import { steamHome } from "./support.js"

let home: string
let api: WebApi
beforeAll(async () => {
  home = steamHome()
  api = await startWebApi({ dir: home })
})
afterAll(() => api.close())

const details = (body: string) =>
  fetch(`${api.url}/ISteamRemoteStorage/GetPublishedFileDetails/v1/`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body
  })

const query = (params: Record<string, string>) => fetch(`${api.url}/IPublishedFileService/QueryFiles/v1/?${new URLSearchParams(params)}`)

describe("GetPublishedFileDetails", () => {
  it("answers each id in Steam's shape, result 9 for an unknown one", async () => {
    expect(api.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    const response = await details("itemcount=2&publishedfileids[0]=1559212036&publishedfileids[1]=42")
    expect(response.status).toBe(200)
    const body = (await response.json()) as { response: { result: number; resultcount: number; publishedfiledetails: Array<Record<string, unknown>> } }
    expect(body.response.result).toBe(1)
    expect(body.response.resultcount).toBe(2)
    const [cf, unknown] = body.response.publishedfiledetails
    expect(Object.keys(cf!)).toEqual([
      "publishedfileid", "result", "creator", "creator_app_id", "consumer_app_id", "filename", "file_size", "file_url", "hcontent_file",
      "preview_url", "hcontent_preview", "title", "description", "time_created", "time_updated", "visibility", "banned", "ban_reason",
      "subscriptions", "favorited", "lifetime_subscriptions", "lifetime_favorited", "views", "tags"
    ])
    expect(cf).toMatchObject({
      publishedfileid: "1559212036",
      result: 1,
      creator_app_id: 221100,
      consumer_app_id: 221100,
      filename: "",
      file_size: "300000",
      file_url: "",
      title: "Community Framework",
      time_created: 1546300800,
      time_updated: 1700000000,
      visibility: 0,
      banned: 0,
      ban_reason: "",
      subscriptions: 900000,
      tags: [{ tag: "Mod" }]
    })
    expect(cf!["creator"]).toMatch(/^7656\d{13}$/)
    expect(cf!["hcontent_file"]).toMatch(/^\d+$/)
    expect(unknown).toEqual({ publishedfileid: "42", result: 9 })
  })

  it("reads the catalogue at each request: a new version, a ban and a removal show at once", async () => {
    publishItemVersion(home, "1828439124", { timeUpdated: 1800000000, banned: true })
    publishItemVersion(home, "1590841260", { removed: true })
    const body = (await (await details("itemcount=2&publishedfileids[0]=1828439124&publishedfileids[1]=1590841260")).json()) as {
      response: { publishedfiledetails: Array<Record<string, unknown>> }
    }
    expect(body.response.publishedfiledetails[0]).toMatchObject({ time_updated: 1800000000, banned: 1 })
    expect(body.response.publishedfiledetails[1]).toEqual({ publishedfileid: "1590841260", result: 9 })
  })

  it("a bad form is a 400 HTML page", async () => {
    for (const body of ["publishedfileids[0]=1559212036", "itemcount=x&publishedfileids[0]=1", "itemcount=2&publishedfileids[0]=1559212036", "itemcount=1&publishedfileids[0]=1&publishedfileids[1]=2"]) {
      const response = await details(body)
      expect(response.status).toBe(400)
      expect(await response.text()).toMatch(/^<html><head><title>Bad Request<\/title><\/head><body><h1>Bad Request<\/h1>/)
    }
  })
})

describe("QueryFiles", () => {
  it("searches titles and descriptions case-insensitively, ranks by subscriptions, pages from 1", async () => {
    const found = (await (await query({ query_type: "12", page: "1", numperpage: "10", search_text: "ADMIN", appid: "221100", return_details: "true", return_tags: "true" })).json()) as {
      response: { total: number; publishedfiledetails: Array<{ publishedfileid: string; file_size: string; tags: unknown }> }
    }
    // "Community Online Tools" (description) and "VPPAdminTools" (title; banned by the test above, so left out).
    expect(found.response.total).toBe(1)
    expect(found.response.publishedfiledetails.map((d) => d.publishedfileid)).toEqual(["1564026768"])
    expect(found.response.publishedfiledetails[0]!.file_size).toBe("600000")

    const trend = (await (await query({ query_type: "3", numperpage: "2", page: "2", appid: "221100" })).json()) as {
      response: { total: number; publishedfiledetails: Array<{ publishedfileid: string }> }
    }
    // Live items by subscriptions: CF, COT, Expansion, Editor Loader (VPP banned, Trader removed).
    expect(trend.response.total).toBe(4)
    expect(trend.response.publishedfiledetails.map((d) => d.publishedfileid)).toEqual(["2116157322", "2545327648"])

    const empty = (await (await query({ search_text: "no such mod", appid: "221100" })).json()) as { response: unknown }
    expect(empty.response).toEqual({ total: 0 })
  })

  it("with a key configured, a missing or wrong key is Steam's 403 page", async () => {
    setBehaviour(home, { webApiKey: "SECRETKEY" })
    for (const params of [{ appid: "221100" }, { appid: "221100", key: "WRONG" }] as ReadonlyArray<Record<string, string>>) {
      const response = await query(params)
      expect(response.status).toBe(403)
      expect(await response.text()).toBe(
        "<html><head><title>Forbidden</title></head><body><h1>Forbidden</h1>Access is denied. Retrying will not help. Please verify your <pre>key=</pre> parameter.</body></html>"
      )
    }
    expect((await query({ appid: "221100", key: "SECRETKEY" })).status).toBe(200)
    setBehaviour(home, { webApiKey: null })
  })
})

it("anything else is a 404", async () => {
  expect((await fetch(`${api.url}/ISteamUser/GetPlayerSummaries/v2/`)).status).toBe(404)
  expect((await fetch(`${api.url}/ISteamRemoteStorage/GetPublishedFileDetails/v1/`)).status).toBe(404)
})
