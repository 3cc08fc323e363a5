/**
 * @garrison/http: the controller host.
 */
export * as Controller from "./Controller.js"
export { makeFrontDoor } from "./FrontDoor.js"
export type { FrontDoorOptions } from "./FrontDoor.js"
export { SlidingWindowLimiter, defaultRules, ruleFor } from "./RateLimiter.js"
export type { RateDecision, RateLimitRule } from "./RateLimiter.js"
export { clientIp } from "./ClientIp.js"
export { errorResponse, normalizeErrorBody } from "./ErrorResponses.js"
export { loadPlugins } from "./PluginLoader.js"
