/** The run-time settings the system plugin itself declares. */
import { type AnyRuntimeSetting, LogLevelSetting } from "@garrison/runtime"

export const systemSettings: ReadonlyArray<AnyRuntimeSetting> = [LogLevelSetting]
