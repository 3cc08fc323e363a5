export { HealthPlugin } from "./HealthPlugin.js"
export { HealthApi, HealthReport, Ping, RestoredBackup } from "./HealthApi.js"
