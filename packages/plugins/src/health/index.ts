export { HealthPlugin } from "./HealthPlugin.js"
export { HealthApi, HealthReport, Ping } from "./HealthApi.js"
