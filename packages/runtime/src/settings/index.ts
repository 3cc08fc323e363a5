export * from "./LiveLogLevel.js"
export * as RuntimeSetting from "./RuntimeSetting.js"
export type { AnyRuntimeSetting, SettingJson } from "./RuntimeSetting.js"
export * from "./RuntimeSettings.js"
