/**
 * Private addresses, at the address connected to: with
 * `WEBHOOKS_ALLOW_PRIVATE` off, a name that resolves to loopback
 * (`localhost`) is refused when the request connects (test deliveries and
 * queued ones alike; the receiver hears nothing), and an address written
 * in the URL is refused before any connection. Also the address rules
 * themselves and how URLs are masked.
 */
import { describe, expect, it } from "@effect/vitest"
import { EventBus } from "@garrison/runtime"
import { Effect, TestClock } from "effect"
import { blockedAddress } from "../../src/webhooks/internal/address.js"
import { makeOutbound } from "../../src/webhooks/internal/outbound.js"
import { maskUrl, urlProblem } from "../../src/webhooks/internal/url.js"
import { ADMIN, call, type DeliveryBody, eventually, ok, receiver, setup, START, TestPing, type WebhookBody } from "./support.js"

describe("private addresses", () => {
  it.scoped("a name resolving to loopback is refused where it connects; nothing reaches the receiver", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(START)
      const target = yield* receiver(ok)
      yield* Effect.gen(function* () {
        const created = yield* call("POST", "/api/webhooks", {
          as: ADMIN,
          json: { name: "Local", url: `http://localhost:${target.port}/hook`, events: [{ pattern: "test.ping" }] }
        })
        expect(created.status).toBe(201)
        const hook = created.body as WebhookBody
        const tested = yield* call("POST", `/api/webhooks/${hook.id}/test`, { as: ADMIN })
        expect(tested.status).toBe(200)
        const delivery = tested.body as DeliveryBody
        expect(delivery).toMatchObject({ status: "failed", attempts: 1, responseStatus: null, test: true })
        expect(delivery.error).toMatch(/^refused: localhost resolves to (127\.0\.0\.1|::1), a loopback address/)
        expect(delivery.error).toContain("WEBHOOKS_ALLOW_PRIVATE")

        // A queued delivery: refused too, and final (no retry).
        yield* Effect.flatMap(EventBus, (bus) => bus.publish(new TestPing({ serverId: "alpha", text: "x", severity: "info" })))
        const items = yield* eventually(
          Effect.map(call("GET", `/api/webhooks/${hook.id}/deliveries?status=failed`, { as: ADMIN }), (reply) => (reply.body as { items: ReadonlyArray<DeliveryBody> }).items),
          (list) => list.some((d) => !d.test),
          10_000,
          "the queued delivery's refusal"
        )
        expect(items.find((d) => !d.test)).toMatchObject({ status: "failed", attempts: 1, nextAttemptAt: null })
        expect(target.received).toEqual([])
      }).pipe(Effect.provide(setup({ allowPrivate: false }).layer))
    }))

  it.scoped("with WEBHOOKS_ALLOW_PRIVATE the same target is reached", () =>
    Effect.gen(function* () {
      yield* TestClock.setTime(START)
      const target = yield* receiver(ok)
      yield* Effect.gen(function* () {
        const hook = (yield* call("POST", "/api/webhooks", {
          as: ADMIN,
          json: { name: "Local", url: `http://localhost:${target.port}/hook`, events: [{ pattern: "test.ping" }] }
        })).body as WebhookBody
        const tested = yield* call("POST", `/api/webhooks/${hook.id}/test`, { as: ADMIN, json: { event: "test.ping" } })
        expect(tested.body).toMatchObject({ status: "delivered", event: "test.ping", responseStatus: 200 })
        expect(JSON.parse(target.received[0]!.body)).toMatchObject({ event: "test.ping", data: { serverId: "alpha", text: "hello" } })
      }).pipe(Effect.provide(setup({ allowPrivate: true }).layer))
    }))

  it.effect("the sender refuses an address written in the URL before connecting", () =>
    Effect.gen(function* () {
      const outbound = makeOutbound(false)
      for (const url of ["http://127.0.0.1:9/x", "http://[::1]:9/x", "http://[::ffff:7f00:1]:9/x", "http://169.254.169.254/latest/meta-data", "http://0.0.0.0:9/"]) {
        const result = yield* outbound.post({ url, headers: {}, body: "{}", maxResponseBytes: 16 })
        expect(result._tag, url).toBe("Refused")
      }
    }))

  it("the rules: everything but public unicast, IPv4-mapped and NAT64 judged by their IPv4 address", () => {
    const blocked = [
      "0.0.0.0", "0.1.2.3", "10.1.2.3", "100.64.0.1", "100.127.255.254", "127.0.0.1", "127.255.255.255", "169.254.169.254",
      "172.16.0.1", "172.31.255.255", "192.0.0.8", "192.0.2.1", "192.168.0.1", "198.18.0.1", "198.51.100.2", "203.0.113.9",
      "224.0.0.1", "239.255.255.250", "240.0.0.1", "255.255.255.255",
      "::", "::1", "[::1]", "::ffff:127.0.0.1", "::ffff:7f00:1", "::ffff:10.0.0.1", "::ffff:169.254.169.254", "::127.0.0.1",
      "64:ff9b::7f00:1", "64:ff9b::a9fe:a9fe", "64:ff9b:1::1", "2002:7f00:1::1", "2001:db8::1", "2001::1", "100::1",
      "fc00::1", "fd12:3456::1", "fe80::1", "fe80::1%eth0", "febf::1", "fec0::1", "ff02::1",
      "not-an-ip", "1.2.3", "1.2.3.256", "::ffff:999.0.0.1"
    ]
    for (const address of blocked) expect(blockedAddress(address), address).toBeDefined()
    const open = ["1.1.1.1", "8.8.8.8", "93.184.215.14", "100.63.255.255", "100.128.0.0", "172.15.255.255", "172.32.0.0", "192.169.0.1",
      "2606:4700:4700::1111", "2a00:1450:4001::200e", "::ffff:8.8.8.8", "64:ff9b::808:808", "2002:808:808::1"]
    for (const address of open) expect(blockedAddress(address), address).toBeUndefined()
    expect(blockedAddress("169.254.169.254")).toContain("metadata")
    expect(blockedAddress("::ffff:127.0.0.1")).toBe("a loopback address (IPv4-mapped)")
  })

  it("URLs: http(s) only, no credentials, at most 2,048 characters; masked after the host", () => {
    expect(urlProblem("https://example.com/hook")).toBeUndefined()
    expect(urlProblem("http://example.com:8080/a?b=c")).toBeUndefined()
    expect(urlProblem("file:///etc/passwd")).toBe("must use http or https")
    expect(urlProblem("javascript:alert(1)")).toBe("must use http or https")
    expect(urlProblem("https://u:p@example.com/")).toBe("must not hold credentials (user:password@)")
    expect(urlProblem("https://u@example.com/")).toBe("must not hold credentials (user:password@)")
    expect(urlProblem(`https://example.com/${"a".repeat(2030)}`)).toBe("must be at most 2048 characters")
    expect(urlProblem("https://example.com/a\u0000b")).toBe("must not contain spaces or control characters")
    expect(urlProblem("https://discord.com/api/webhooks/1/••••")).toBe("is masked: send the full URL")
    expect(urlProblem("/relative")).toBe("must be an absolute http or https URL")

    expect(maskUrl("https://discord.com/api/webhooks/123456789012345678/AbCdEf-token_value")).toBe("https://discord.com/api/webhooks/123456789012345678/••••")
    expect(maskUrl("https://hooks.example.com/services/T000/B000/XXXXXXXX")).toBe("https://hooks.example.com/services/T000/B000/••••")
    expect(maskUrl("https://example.com/hook?token=abc&x=1")).toBe("https://example.com/••••?••••")
    expect(maskUrl("https://example.com/")).toBe("https://example.com/")
    expect(maskUrl("https://example.com")).toBe("https://example.com/")
    expect(maskUrl(`https://example.com/${"k".repeat(40)}/end`)).toBe("https://example.com/••••/••••")
    expect(maskUrl("http://[::1]:8080/a/b")).toBe("http://[::1]:8080/a/••••")
  })
})
