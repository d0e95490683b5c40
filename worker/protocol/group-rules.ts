// Group control's constants, free of Schema (the projection, the core's ledger and the tab import them before their
// first paint or call); the endpoint and its schemas are in group.ts.

/** What a group command does to each chosen phone. */
export const GROUP_ACTIONS = ['reboot', 'reset', 'repair', 'text', 'clipboard', 'file'] as const
export type GroupAction = (typeof GROUP_ACTIONS)[number]

/** the longest text a group command sends (the phone stream's own text cap, STREAM_LIMITS.maxTextBytes, is in bytes). */
export const GROUP_TEXT_MAX = 500
/** a command id: a UUID as crypto.randomUUID makes it. */
export const GROUP_COMMAND_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
/** recent commands the core keeps listed (with their results). */
export const GROUP_LEDGER_KEEP = 20
