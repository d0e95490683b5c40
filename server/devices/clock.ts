// Time and busy durations of the device operations, injectable so tests and e2e runs can shorten them explicitly.

export interface DeviceClock {
  /** current time in ms. */
  readonly now: () => number
  /** how long reset, repair, replacement and a model change keep a device restarting. */
  readonly busyMs: number
  /** how long a reboot keeps a device restarting. */
  readonly rebootMs: number
}

export const DEFAULT_BUSY_MS = 20_000
export const DEFAULT_REBOOT_MS = 5_000

export interface DeviceClockOptions {
  readonly now?: () => number
  readonly busyMs?: number
  readonly rebootMs?: number
}

export const makeClock = (options: DeviceClockOptions = {}): DeviceClock => ({
  now: options.now ?? Date.now,
  busyMs: options.busyMs ?? DEFAULT_BUSY_MS,
  rebootMs: options.rebootMs ?? DEFAULT_REBOOT_MS,
})
