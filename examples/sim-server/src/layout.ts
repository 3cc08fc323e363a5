/**
 * What a fresh DayZ server install looks like, as file contents: the
 * server config, the BattlEye config, the mission's economy (`types.xml`
 * with a realistic sample of vanilla types, `cfgeconomycore.xml` with one
 * extra types file registered), and the empty lists.
 */

export interface LayoutSettings {
  readonly hostname: string
  readonly maxPlayers: number
  readonly instanceId: number
  readonly template: string
  readonly rconPassword: string
  readonly rconPort: number
  readonly rconIp: string
}

export const serverDZCfg = (s: LayoutSettings) => `hostname = "${s.hostname}";  // Server name
password = "";              // Password to connect to the server
passwordAdmin = "";         // Password to become a server admin

description = "";           // Description of the server. Gets displayed to users in client server browser.

enableWhitelist = 0;        // Enable/disable whitelist (value 0-1)

maxPlayers = ${s.maxPlayers};            // Maximum amount of players

verifySignatures = 2;       // Verifies .pbos against .bisign files. (only 2 is supported)
forceSameBuild = 1;         // When enabled, the server will allow the connection only to clients with same the .exe revision as the server (value 0-1)

disableVoN = 0;             // Enable/disable voice over network (value 0-1)
vonCodecQuality = 20;       // Voice over network codec quality, the higher the better (values 0-30)

disable3rdPerson = 0;       // Toggles the 3rd person view for players (value 0-1)
disableCrosshair = 0;       // Toggles the cross-hair (value 0-1)

disablePersonalLight = 1;   // Disables personal light for all clients connected to server
lightingConfig = 0;         // 0 for brighter night setup, 1 for darker night setup

serverTime = "SystemTime";    // Initial in-game time of the server. "SystemTime" means the local time of the machine.
serverTimeAcceleration = 12;  // Accelerated Time (value 0-24)
serverNightTimeAcceleration = 1;  // Accelerated Night Time, multiplied by serverTimeAcceleration (0.1-64)
serverTimePersistent = 0;     // Persistent Time (value 0-1)

guaranteedUpdates = 1;        // Communication protocol used with game server (use only number 1)

loginQueueConcurrentPlayers = 5;  // The number of players concurrently processed during the login process.
loginQueueMaxPlayers = 500;       // The maximum number of players that can wait in login queue

disableBanlist = 0;           // Ignore ban.txt (value 0-1)
disablePrioritylist = 0;      // Ignore priority.txt (value 0-1)

instanceId = ${s.instanceId};             // DayZ server instance id, to identify the number of instances per box and their storage folders with persistence files

storageAutoFix = 1;         // Checks if the persistence files are corrupted and replaces corrupted ones with empty ones (value 0-1)

/* The mission the server loads: <MissionName>.<TerrainName> */
class Missions
{
    class DayZ
    {
        template = "${s.template}"; // Vanilla mission: dayzOffline.chernarusplus
                                    // DLC mission: dayzOffline.enoch
    };
};
`

export const beServerCfg = (s: LayoutSettings) =>
  `RConPassword ${s.rconPassword}\nRConPort ${s.rconPort}\nRConIP ${s.rconIp}\nRestrictRCon 0\n`

type TypeDef = readonly [
  name: string,
  nominal: number,
  lifetime: number,
  restock: number,
  min: number,
  quantmin: number,
  quantmax: number,
  category: string,
  usages: ReadonlyArray<string>,
  values: ReadonlyArray<string>
]

const MIL = ["Military"] as const
const T34 = ["Tier3", "Tier4"] as const
const ALL_TIERS = ["Tier1", "Tier2", "Tier3", "Tier4"] as const

/** A realistic sample of vanilla Chernarus types. */
export const TYPES: ReadonlyArray<TypeDef> = [
  ["AKM", 8, 28800, 0, 4, -1, -1, "weapons", MIL, T34],
  ["AK101", 3, 28800, 0, 2, -1, -1, "weapons", MIL, ["Tier4"]],
  ["M4A1", 3, 28800, 0, 2, -1, -1, "weapons", MIL, ["Tier4"]],
  ["SKS", 15, 28800, 0, 10, -1, -1, "weapons", ["Hunting", "Village"], ["Tier1", "Tier2", "Tier3"]],
  ["Mosin9130", 12, 28800, 0, 8, -1, -1, "weapons", ["Hunting", "Farm"], ALL_TIERS],
  ["Winchester70", 8, 28800, 0, 5, -1, -1, "weapons", ["Hunting"], ["Tier2", "Tier3"]],
  ["Izh43Shotgun", 10, 28800, 0, 6, -1, -1, "weapons", ["Farm", "Village"], ["Tier1", "Tier2"]],
  ["Mp133Shotgun", 8, 28800, 0, 5, -1, -1, "weapons", ["Police", "Village"], ["Tier1", "Tier2", "Tier3"]],
  ["MP5K", 6, 28800, 0, 4, -1, -1, "weapons", ["Police"], ["Tier2", "Tier3"]],
  ["UMP45", 5, 28800, 0, 3, -1, -1, "weapons", ["Police", "Military"], T34],
  ["FNX45", 10, 28800, 0, 6, -1, -1, "weapons", ["Police", "Military"], ALL_TIERS],
  ["Glock19", 12, 28800, 0, 8, -1, -1, "weapons", ["Police", "Town"], ALL_TIERS],
  ["CZ75", 12, 28800, 0, 8, -1, -1, "weapons", ["Town", "Police"], ALL_TIERS],
  ["Deagle", 2, 28800, 0, 1, -1, -1, "weapons", MIL, ["Tier4"]],
  ["ACOGOptic", 5, 14400, 1800, 2, -1, -1, "weapons", ["Military", "Police"], ["Tier3"]],
  ["PUScopeOptic", 8, 14400, 1800, 4, -1, -1, "weapons", ["Hunting", "Military"], ["Tier2", "Tier3"]],
  ["Mag_AKM_30Rnd", 20, 14400, 1800, 12, 0, 30, "weapons", MIL, T34],
  ["Mag_STANAG_30Rnd", 15, 14400, 1800, 10, 0, 30, "weapons", MIL, T34],
  ["Mag_MP5_30Rnd", 10, 14400, 1800, 6, 0, 30, "weapons", ["Police"], ["Tier2", "Tier3"]],
  ["Mag_FNX45_15Rnd", 12, 14400, 1800, 8, 0, 15, "weapons", ["Police", "Military"], ALL_TIERS],
  ["Ammo_762x39", 25, 14400, 1800, 15, 10, 20, "weapons", MIL, T34],
  ["Ammo_556x45", 20, 14400, 1800, 12, 10, 20, "weapons", MIL, T34],
  ["Ammo_9x19", 30, 14400, 1800, 20, 10, 25, "weapons", ["Police", "Town"], ALL_TIERS],
  ["Ammo_45ACP", 25, 14400, 1800, 15, 10, 25, "weapons", ["Police", "Military"], ALL_TIERS],
  ["Ammo_12gaPellets", 30, 14400, 1800, 20, 5, 10, "weapons", ["Farm", "Village", "Police"], ALL_TIERS],
  ["Ammo_762x54", 20, 14400, 1800, 12, 10, 20, "weapons", ["Hunting", "Military"], ALL_TIERS],
  ["BandageDressing", 40, 14400, 0, 25, -1, -1, "tools", ["Medic", "Town"], ALL_TIERS],
  ["Morphine", 10, 14400, 0, 6, -1, -1, "tools", ["Medic", "Military"], ["Tier2", "Tier3", "Tier4"]],
  ["Epinephrine", 10, 14400, 0, 6, -1, -1, "tools", ["Medic", "Military"], ["Tier2", "Tier3", "Tier4"]],
  ["SalineBagIV", 8, 14400, 0, 5, -1, -1, "tools", ["Medic"], ALL_TIERS],
  ["BloodBagEmpty", 10, 14400, 0, 6, -1, -1, "tools", ["Medic"], ALL_TIERS],
  ["TetracyclineAntibiotics", 12, 14400, 0, 8, 0, 100, "tools", ["Medic"], ALL_TIERS],
  ["CharcoalTablets", 12, 14400, 0, 8, 0, 100, "tools", ["Medic", "Village"], ALL_TIERS],
  ["VitaminBottle", 12, 14400, 0, 8, 0, 100, "tools", ["Medic", "Town"], ALL_TIERS],
  ["BakedBeansCan", 40, 14400, 0, 25, -1, -1, "food", ["Town", "Village"], ALL_TIERS],
  ["TacticalBaconCan", 25, 14400, 0, 15, -1, -1, "food", ["Military", "Village"], ALL_TIERS],
  ["SardinesCan", 35, 14400, 0, 20, -1, -1, "food", ["Town", "Village"], ALL_TIERS],
  ["PeachesCan", 35, 14400, 0, 20, -1, -1, "food", ["Town", "Village"], ALL_TIERS],
  ["Rice", 20, 14400, 0, 12, 0, 100, "food", ["Town", "Village"], ALL_TIERS],
  ["Apple", 30, 3600, 0, 15, -1, -1, "food", ["Farm", "Village"], ALL_TIERS],
  ["SodaCan_Cola", 30, 14400, 0, 20, -1, -1, "food", ["Town"], ALL_TIERS],
  ["WaterBottle", 40, 14400, 0, 25, 0, 100, "tools", ["Town", "Village", "Military"], ALL_TIERS],
  ["Canteen", 15, 14400, 0, 10, 0, 100, "tools", MIL, ALL_TIERS],
  ["CanOpener", 25, 14400, 0, 15, -1, -1, "tools", ["Town", "Village"], ALL_TIERS],
  ["KitchenKnife", 25, 14400, 0, 15, -1, -1, "tools", ["Town", "Village"], ALL_TIERS],
  ["HuntingKnife", 10, 14400, 0, 6, -1, -1, "tools", ["Hunting"], ["Tier2", "Tier3"]],
  ["Hammer", 20, 14400, 0, 12, -1, -1, "tools", ["Industrial", "Village"], ALL_TIERS],
  ["Hatchet", 15, 14400, 0, 10, -1, -1, "tools", ["Farm", "Village", "Industrial"], ALL_TIERS],
  ["WoodAxe", 10, 14400, 0, 6, -1, -1, "tools", ["Farm", "Village"], ALL_TIERS],
  ["Shovel", 12, 14400, 0, 8, -1, -1, "tools", ["Farm", "Industrial"], ALL_TIERS],
  ["Pliers", 12, 14400, 0, 8, -1, -1, "tools", ["Industrial"], ALL_TIERS],
  ["Screwdriver", 15, 14400, 0, 10, -1, -1, "tools", ["Industrial", "Town"], ALL_TIERS],
  ["Wrench", 12, 14400, 0, 8, -1, -1, "tools", ["Industrial"], ALL_TIERS],
  ["Matchbox", 30, 14400, 0, 20, 0, 100, "tools", ["Town", "Village"], ALL_TIERS],
  ["Flashlight", 15, 14400, 0, 10, -1, -1, "tools", ["Town", "Industrial"], ALL_TIERS],
  ["Battery9V", 30, 14400, 0, 20, 0, 100, "tools", ["Town", "Industrial", "Military"], ALL_TIERS],
  ["Compass", 8, 14400, 0, 5, -1, -1, "tools", ["Military", "Hunting"], ["Tier2", "Tier3", "Tier4"]],
  ["ChernarusMap", 15, 14400, 0, 10, -1, -1, "tools", ["Town", "Police"], ALL_TIERS],
  ["Binoculars", 8, 14400, 0, 5, -1, -1, "tools", ["Military", "Hunting"], ["Tier2", "Tier3", "Tier4"]],
  ["Rope", 15, 14400, 0, 10, -1, -1, "tools", ["Farm", "Industrial"], ALL_TIERS],
  ["DuctTape", 15, 14400, 0, 10, 0, 100, "tools", ["Industrial", "Town"], ALL_TIERS],
  ["SewingKit", 12, 14400, 0, 8, 0, 100, "tools", ["Town", "Village"], ALL_TIERS],
  ["NailBox", 20, 14400, 0, 12, 0, 100, "tools", ["Industrial"], ALL_TIERS],
  ["MetalWire", 12, 14400, 0, 8, -1, -1, "tools", ["Industrial"], ALL_TIERS],
  ["CombinationLock", 6, 14400, 0, 3, -1, -1, "tools", ["Industrial", "Town"], ALL_TIERS],
  ["TentMedium", 4, 45000, 0, 2, -1, -1, "containers", ["Village", "Farm"], ALL_TIERS],
  ["BarrelHoles_Blue", 4, 45000, 0, 2, -1, -1, "containers", ["Industrial"], ALL_TIERS],
  ["PlateCarrierVest", 3, 14400, 0, 1, -1, -1, "clothes", MIL, ["Tier4"]],
  ["BallisticHelmet_Green", 3, 14400, 0, 1, -1, -1, "clothes", MIL, T34],
  ["MotoHelmet_Black", 8, 14400, 0, 5, -1, -1, "clothes", ["Town"], ALL_TIERS],
  ["TTsKOJacket_Camo", 10, 14400, 0, 6, -1, -1, "clothes", MIL, ["Tier2", "Tier3", "Tier4"]],
  ["HikingBootsLow_Black", 12, 14400, 0, 8, -1, -1, "clothes", ["Town", "Village"], ALL_TIERS],
  ["AssaultBag_Ttsko", 4, 14400, 0, 2, -1, -1, "clothes", MIL, T34],
  ["TaloonBag_Blue", 8, 14400, 0, 5, -1, -1, "clothes", ["Town", "Village"], ALL_TIERS],
  ["CarBattery", 8, 14400, 0, 4, 0, 100, "vehiclesparts", ["Industrial", "Farm"], ALL_TIERS],
  ["SparkPlug", 10, 14400, 0, 6, -1, -1, "vehiclesparts", ["Industrial", "Farm"], ALL_TIERS],
  ["CarRadiator", 8, 14400, 0, 4, -1, -1, "vehiclesparts", ["Industrial", "Farm"], ALL_TIERS],
  ["HeadlightH7", 10, 14400, 0, 6, -1, -1, "vehiclesparts", ["Industrial", "Town"], ALL_TIERS],
  ["CanisterGasoline", 8, 14400, 0, 4, 0, 100, "vehiclesparts", ["Industrial", "Farm"], ALL_TIERS]
]

const typeXml = ([name, nominal, lifetime, restock, min, quantmin, quantmax, category, usages, values]: TypeDef) => {
  const cost = category === "weapons" ? 100 : 100
  const lines = [
    `    <type name="${name}">`,
    `        <nominal>${nominal}</nominal>`,
    `        <lifetime>${lifetime}</lifetime>`,
    `        <restock>${restock}</restock>`,
    `        <min>${min}</min>`,
    `        <quantmin>${quantmin}</quantmin>`,
    `        <quantmax>${quantmax}</quantmax>`,
    `        <cost>${cost}</cost>`,
    `        <flags count_in_cargo="0" count_in_hoarder="0" count_in_map="1" count_in_player="0" crafted="0" deloot="0"/>`,
    `        <category name="${category}"/>`,
    ...usages.map((u) => `        <usage name="${u}"/>`),
    ...values.map((v) => `        <value name="${v}"/>`),
    "    </type>"
  ]
  return lines.join("\n")
}

export const typesXml = (types: ReadonlyArray<TypeDef> = TYPES) =>
  `<?xml version="1.0" encoding="UTF-8" standalone="yes" ?>\n<types>\n${types.map(typeXml).join("\n")}\n</types>\n`

export const CUSTOM_TYPES: ReadonlyArray<TypeDef> = [
  ["GarrisonFlag", 2, 3888000, 0, 1, -1, -1, "tools", ["Military"], ["Tier4"]],
  ["GarrisonCrate", 2, 3888000, 0, 1, -1, -1, "containers", ["Industrial"], ["Tier3"]]
]

export const cfgEconomyCoreXml = `<?xml version="1.0" encoding="UTF-8" standalone="yes" ?>
<economycore>
    <classes>
        <rootclass name="DefaultWeapon" />
        <rootclass name="DefaultMagazine" />
        <rootclass name="Inventory_Base" />
        <rootclass name="HouseNoDestruct" reportMemoryLOD="no" />
        <rootclass name="SurvivorBase" act="character" reportMemoryLOD="no" />
        <rootclass name="DZ_LightAI" act="character" reportMemoryLOD="no" />
        <rootclass name="CarScript" act="car" reportMemoryLOD="no" />
        <rootclass name="BoatScript" act="car" reportMemoryLOD="no" />
    </classes>
    <defaults>
        <default name="dyn_radius" value="40" />
        <default name="dyn_smin" value="0" />
        <default name="dyn_smax" value="0" />
        <default name="dyn_dmin" value="0" />
        <default name="dyn_dmax" value="10" />
        <default name="log_ce_loop" value="false"/>
        <default name="log_ce_dynamicevent" value="false"/>
        <default name="log_ce_vehicle" value="false"/>
        <default name="log_ce_lootspawn" value="false"/>
        <default name="log_ce_lootcleanup" value="false"/>
        <default name="log_ce_lootrespawn" value="false"/>
        <default name="log_ce_statistics" value="false"/>
        <default name="log_ce_zombie" value="false"/>
        <default name="log_storageinfo" value="false"/>
        <default name="log_hivewarning" value="true"/>
        <default name="log_missionfilewarning" value="true"/>
        <default name="save_events_startup" value="true"/>
        <default name="save_types_startup" value="true"/>
    </defaults>
    <ce folder="custom">
        <file name="types_custom.xml" type="types" />
    </ce>
</economycore>
`

export const globalsXml = `<?xml version="1.0" encoding="UTF-8" standalone="yes" ?>
<variables>
    <var name="AnimalMaxCount" type="0" value="200"/>
    <var name="CleanupLifetimeDeadPlayer" type="0" value="3600"/>
    <var name="FlagRefreshFrequency" type="0" value="432000"/>
    <var name="FlagRefreshMaxDuration" type="0" value="3456000"/>
    <var name="IdleModeCountdown" type="0" value="60"/>
    <var name="RestartSpawn" type="0" value="0"/>
    <var name="SpawnInitial" type="0" value="1200"/>
    <var name="TimeLogin" type="0" value="15"/>
    <var name="TimeLogout" type="0" value="15"/>
    <var name="ZombieMaxCount" type="0" value="1000"/>
</variables>
`

export const initC = `void main()
{
    // INIT ECONOMY
    Hive ce = CreateHive();
    if ( ce )
        ce.InitOffline();

    // DATE RESET AFTER ECONOMY INIT
    int year, month, day, hour, minute;
    GetGame().GetWorld().GetDate(year, month, day, hour, minute);
}

Mission CreateCustomMission(string path)
{
    return new CustomMission();
}
`

export const banTxt = `// ban.txt: one player id per line (Steam64 or DayZ ID); lines starting with // are comments
`

export const whitelistTxt = `// whitelist.txt: one player id per line (Steam64 or DayZ ID), used when enableWhitelist = 1
`
