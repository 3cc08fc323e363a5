/**
 * @garrison/example-sim-steamcmd: a SteamCMD stand-in and a fake Steam Web
 * API for DayZ workshop items, both driven by one catalogue.json. Install it
 * with `npm run steamcmd:install -- <dir>`; these exports are for tests and
 * tools that set Steam's state (publish a new mod version, break a
 * download) or run either side in process.
 */
export {
  type AppFailure,
  type Catalogue,
  type CatalogueAccount,
  type CatalogueApp,
  type CatalogueBehaviour,
  CatalogueError,
  type CatalogueItem,
  CATALOGUE_FILE,
  DAYZ_APP_ID,
  DEFAULT_BEHAVIOUR,
  defaultCatalogue,
  type LoginOutage,
  publishAppBuild,
  publishItemVersion,
  readCatalogue,
  setBehaviour,
  writeCatalogue
} from "./catalogue.js"
export { install, type InstallOptions, type InstallResult } from "./install.js"
export { type RunOptions, runSteamCmd } from "./steamcmd.js"
export { EXIT } from "./output.js"
export { CRASH_MARKER, itemFiles, itemManifestId } from "./itemFiles.js"
export { type AppManifest, appManifestPath, installedBuildId, installedItems, workshopAcfPath } from "./manifests.js"
export { workshopFolders } from "./workshop.js"
export { DATA_FILE } from "./appUpdate.js"
export { type KeyValues, parseKeyValues, writeKeyValues } from "./keyValues.js"
export { startWebApi, type WebApi, type WebApiOptions } from "./api.js"
