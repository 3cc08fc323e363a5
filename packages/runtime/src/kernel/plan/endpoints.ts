/**
 * What an `HttpApi` says about each of its endpoints: method, path and the
 * policy annotations (Access, rate-limit scope, CSRF exemption, schemes,
 * password-change use, licensed feature, constant response), each the endpoint's own, else its
 * group's. Only reading here; routes.ts judges what it finds.
 */
import * as HttpApi from "@effect/platform/HttpApi"
import * as Context from "effect/Context"
import * as Option from "effect/Option"
import { Access, type AccessRule } from "../../access/Access.js"
import { ConstantResponse, type ConstantResponseValue } from "../../http/ConstantResponse.js"
import { AuthSchemes, CsrfExempt, DuringPasswordChange, LicensedFeature, RateLimit } from "../../http/RoutePolicy.js"

/** Every endpoint of an API with its effective Access (the endpoint's own, else its group's). */
export const listEndpoints = (api: HttpApi.HttpApi.Any) => {
  const endpoints: Array<{
    method: string
    path: string
    access: AccessRule | undefined
    constant: ConstantResponseValue | undefined
    rateLimit: string | undefined
    csrfExempt: boolean | undefined
    schemes: ReadonlyArray<string> | undefined
    duringPasswordChange: boolean | undefined
    feature: string | undefined
  }> = []
  HttpApi.reflect(api as HttpApi.HttpApi<string, never, never, never>, {
    onGroup: () => {},
    onEndpoint: ({ endpoint, mergedAnnotations }) => {
      const access = Context.getOption(mergedAnnotations, Access)
      const constant = Context.getOption(endpoint.annotations, ConstantResponse)
      endpoints.push({
        method: endpoint.method,
        path: endpoint.path,
        access: access._tag === "Some" ? access.value : undefined,
        constant: constant._tag === "Some" ? constant.value : undefined,
        rateLimit: Option.getOrUndefined(Context.getOption(mergedAnnotations, RateLimit)),
        csrfExempt: Option.getOrUndefined(Context.getOption(mergedAnnotations, CsrfExempt)),
        schemes: Option.getOrUndefined(Context.getOption(mergedAnnotations, AuthSchemes)),
        duringPasswordChange: Option.getOrUndefined(Context.getOption(mergedAnnotations, DuringPasswordChange)),
        feature: Option.getOrUndefined(Context.getOption(mergedAnnotations, LicensedFeature))
      })
    }
  })
  return endpoints
}
