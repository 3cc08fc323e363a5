/**
 * The key lookups are signed with (RS256): `TRUST_SIGNING_KEY` (an RSA
 * private key, PEM) when given, else `DATA_DIR/secrets/trust-signing.pem`,
 * generated (RSA 2048) on the first start and kept (mode 0600). Its public
 * half, as a JWK with `kid` (its RFC 7638 thumbprint), is published in the
 * capability document; partners verify proofs with it alone.
 *
 * A proof is a compact JWS (a JWT) sent beside the answer, in `proof` and
 * `x-service-trust-proof`: it restates the score, band, confidence, the
 * player's identity and the time, so a verifier needs nothing but the JWT
 * and the key.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { DataDir, errorMessage, PRIVATE_DIR_MODE, PRIVATE_FILE_MODE, StartupError } from "@garrison/runtime"
import { calculateJwkThumbprint, exportJWK, type JWK, SignJWT } from "jose"
import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from "node:crypto"
import * as Fs from "node:fs/promises"
import * as NodePath from "node:path"
import { trustSettings } from "./config.js"

export const SIGNING_ALGORITHM = "RS256"
export const SIGNING_KEY_FILE = "trust-signing.pem"
/** The `iss` of every proof and export page. */
export const PROOF_ISSUER = "garrison-trust"

export interface TrustSigningShape {
  /** The public key as a JWK with `kid`, `alg` and `use`; None when signing is off. */
  readonly publicJwk: Option.Option<JWK>
  /** A signed JWT of `claims` (None when signing is off). */
  readonly sign: (claims: Readonly<Record<string, unknown>>, subject: string, issuedAtSeconds: number) => Effect.Effect<Option.Option<string>>
}

const loadOrCreate = (file: string) =>
  Effect.tryPromise({
    try: async () => {
      try {
        return await Fs.readFile(file, "utf8")
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error
        const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 })
        const pem = privateKey.export({ type: "pkcs8", format: "pem" }).toString()
        await Fs.mkdir(NodePath.dirname(file), { recursive: true, mode: PRIVATE_DIR_MODE })
        // Exclusive: two controllers starting on one data folder keep the first key.
        await Fs.writeFile(file, pem, { mode: PRIVATE_FILE_MODE, flag: "wx" }).catch(async (e: NodeJS.ErrnoException) => {
          if (e.code !== "EEXIST") throw e
        })
        return await Fs.readFile(file, "utf8")
      }
    },
    catch: (cause) => new StartupError({ reason: "data-dir", message: `cannot read or create the trust signing key ${file}: ${errorMessage(cause)}` })
  })

const privateKeyOf = (pem: string, where: string) =>
  Effect.try({
    try: () => {
      const key = createPrivateKey(pem)
      if (key.asymmetricKeyType !== "rsa" || (key.asymmetricKeyDetails?.modulusLength ?? 0) < 2048) throw new Error("not an RSA key of at least 2048 bits")
      return key
    },
    catch: (cause) => new StartupError({ reason: "config", message: `bad configuration: ${where} is not a usable RS256 private key (${errorMessage(cause)})` })
  })

export class TrustSigning extends Context.Tag("@garrison/plugins/trust/TrustSigning")<TrustSigning, TrustSigningShape>() {
  static readonly make = Effect.gen(function* () {
    const settings = yield* trustSettings
    if (!settings.signing) return { publicJwk: Option.none(), sign: () => Effect.succeed(Option.none()) } satisfies TrustSigningShape
    const key: KeyObject = yield* Option.match(settings.signingKey, {
      onSome: (pem) => privateKeyOf(Redacted.value(pem), "TRUST_SIGNING_KEY"),
      onNone: () =>
        Effect.gen(function* () {
          const file = (yield* DataDir).resolve("secrets", SIGNING_KEY_FILE)
          return yield* privateKeyOf(yield* loadOrCreate(file), file)
        })
    })
    const publicJwk = yield* Effect.promise(async () => {
      const jwk = await exportJWK(createPublicKey(key))
      return { ...jwk, kid: await calculateJwkThumbprint(jwk), alg: SIGNING_ALGORITHM, use: "sig" } satisfies JWK
    })
    const sign: TrustSigningShape["sign"] = (claims, subject, issuedAtSeconds) =>
      Effect.promise(() =>
        new SignJWT({ ...claims })
          .setProtectedHeader({ alg: SIGNING_ALGORITHM, kid: publicJwk.kid, typ: "JWT" })
          .setIssuer(PROOF_ISSUER)
          .setSubject(subject)
          .setIssuedAt(issuedAtSeconds)
          .sign(key)
      ).pipe(Effect.map(Option.some))
    return { publicJwk: Option.some(publicJwk), sign } satisfies TrustSigningShape
  })

  static readonly layer = Layer.effect(TrustSigning, TrustSigning.make)
}
