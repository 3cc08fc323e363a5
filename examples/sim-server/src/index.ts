/**
 * @garrison/example-sim-server: a simulated DayZ dedicated server. Run it
 * through an install (`npm run sim:install -- <dir>`, then `<dir>/DayZServer
 * ...`); these exports are for tools that want to lay out an install or read
 * the simulator's options programmatically.
 */
export { install } from "./install.js"
export type { InstallOptions, InstallResult } from "./install.js"
export { installReport, rconPortFor } from "./install.js"
export { parseArguments } from "./options.js"
export type { LaunchParameters, SimOptions } from "./options.js"
export { actionNames } from "./actions.js"
