/**
 * @garrison/http: the controller host.
 */
export * as Controller from "./Controller.js"
export { makeFrontDoor } from "./FrontDoor.js"
export type { FrontDoorOptions } from "./FrontDoor.js"
export { resolveRateLimits, SlidingWindowLimiter } from "./RateLimiter.js"
export type { RateDecision, RateLimitRule } from "./RateLimiter.js"
export { socketClientIp } from "./ClientIp.js"
export { makeGate } from "./Gate.js"
export type { GateOptions, GateVerdict } from "./Gate.js"
export { errorResponse, normalizeErrorBody } from "./ErrorResponses.js"
export { loadPlugins } from "./PluginLoader.js"
